// Test hygiene: a test file that reads ../shared, drives Chromium, starts redis-server, runs python3 (numpy, SciPy, spaCy, the Parquet readers) or the other supported Nodes declares it with requires(), never gates itself.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO, REQUIREMENTS, type Requirement } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

/** What in a test file's text shows it uses each requirement. */
const USES: [Requirement, RegExp][] = [
  [
    "shared",
    /\bshared\(|\bSHARED\b|CONVKIT_SHARED|clariqDataWithDicts\(|spacyModel\(|readSpacyGoldens\(|["'`](\.\.\/)+shared(["'`]|\/(data|golden|models|seeds|specs)\b)/,
  ],
  ["chromium", /chromium\.launch\(|chromiumPath\(|["'`]chromium(-browser)?["'`]/],
  ["redis-server", /startRedis\(|["'`]redis-server["'`]/],
  ["python3", /\bpython\(|["'`](\/usr\/bin\/)?python3["'`]/],
  ["numpy", /\bimport numpy\b|\bnumpy as np\b/],
  ["scipy", /\b(from|import) (scipy|statsmodels)\b|scipyPython\(/],
  ["spacy", /\bimport spacy\b|\bspacy\.load\(/],
  [
    "python-parquet",
    /\b(readParquetInPython|streamParquetInPython|expectParquetEqualsJsonl|runReadmePythonSnippets)\(|\bimport (pyarrow|polars|duckdb|datasets)\b/,
  ],
  ["other-nodes", /\botherNode\(|CONVKIT_OTHER_NODES/],
  ["tmpfs", /\bsmallDisk\(/],
];
/**
 * Files with one test needing ../shared among many that do not, keeping their name (.ci/run runs
 * test/install.slow.test.ts by name): that test declares requires("shared") itself.
 */
const SHARED_IN_PART = ["test/install.slow.test.ts"];
/** A requirement that implies python3 (a test of numpy's output also runs python3). */
const PYTHON_MODULES: Requirement[] = ["numpy", "scipy", "spacy", "python-parquet"];

function testFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (f === "node_modules" || f === "dist" || f === "fixtures") return [];
    return statSync(p).isDirectory() ? testFiles(p) : p.endsWith(".test.ts") ? [p] : [];
  });
}

const files = [
  ...["packages", "apps"].flatMap((top) =>
    readdirSync(join(REPO, top)).flatMap((d) => {
      const src = join(REPO, top, d, "src");
      try {
        return testFiles(src);
      } catch {
        return [];
      }
    }),
  ),
  ...testFiles(join(REPO, "test")),
].filter((f) => relative(REPO, f) !== "test/requirements.test.ts");

/** The requirements a file declares: the string arguments of its requires(...) calls. */
function declared(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/\brequires\(([^)]*)\)/g))
    for (const s of m[1]!.matchAll(/"([^"]+)"/g)) out.add(s[1]!);
  return out;
}

describe("test requirements are declared (requires() in @convkit/test-helpers)", () => {
  it("finds the test files, and the scan knows every requirement", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(USES.map(([r]) => r).sort()).toEqual([...REQUIREMENTS].sort());
  });

  for (const file of files) {
    const rel = relative(REPO, file);
    it(`${rel}: uses nothing beyond Node and npm without declaring it; skips nothing by itself`, () => {
      const text = readFileSync(file, "utf8");
      const has = declared(text);
      for (const name of has) expect(REQUIREMENTS, `${rel}: requires("${name}")`).toContain(name);
      for (const [req, re] of USES) {
        if (!re.test(text)) continue;
        const ok = has.has(req) || (req === "python3" && PYTHON_MODULES.some((m) => has.has(m)));
        expect(ok, `${rel} uses ${req} (${re.exec(text)![0]}) without requires("${req}")`).toBe(true);
      }
      if ((has.has("shared") || USES[0]![1].test(text)) && !SHARED_IN_PART.includes(rel))
        expect(rel, `${rel} needs ../shared: its name says so (*.shared.test.ts)`).toMatch(
          /\.shared\.(slow\.)?test\.ts$/,
        );
      // A missing tool skips (or, under CI, fails) through requires(), with its line in the summary;
      // a test that gates itself would be skipped silently, and under CI too.
      expect(text, `${rel} skips tests by itself: declare requires(...) instead`).not.toMatch(
        /\.(skipIf|runIf)\(|\b(it|test|describe)\.skip\(|\bHAS_(PYTHON|NUMPY|REDIS|SPACY)\b/,
      );
    });
  }
});

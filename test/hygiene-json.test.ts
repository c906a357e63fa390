// The one JSON boundary: no code but @convkit/json parses JSON text (readers check through its Fields and parseJsonText).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO } from "@convkit/test-helpers";
import { expect, it } from "vitest";

/** Where JSON text may become a value: the boundary itself. */
const BOUNDARY = "packages/json/src/";

/** Files allowed a raw parse, each with why: none. */
const ALLOWED = new Set<string>();

/** A call of JSON.parse, or JSON.parse handed on as a function (`.map(JSON.parse)`). */
const RAW_PARSE = /\bJSON\s*\.\s*parse\s*\(|[(,]\s*JSON\.parse\s*[,)]/;

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Non-test code: packages' src/ and web/, apps' src/; tests, test helpers and an app's test harness left out. */
function code(): string[] {
  return ["packages", "apps"].flatMap((top) =>
    readdirSync(join(REPO, top))
      .filter((d) => !(top === "packages" && d === "test-helpers"))
      .flatMap((d) => [...sources(join(REPO, top, d, "src")), ...sources(join(REPO, top, d, "web"))])
      .filter((f) => !f.endsWith(".test.ts") && !f.endsWith("/harness.ts")),
  );
}

/** `file:line` of every raw JSON parse outside the boundary. */
function rawJsonParses(files: readonly string[]): string[] {
  return files.flatMap((f) => {
    const rel = relative(REPO, f);
    if (rel.startsWith(BOUNDARY) || ALLOWED.has(rel)) return [];
    return readFileSync(f, "utf8")
      .split("\n")
      .flatMap((l, i) => (RAW_PARSE.test(l) ? [`${rel}:${i + 1}: ${l.trim()}`] : []));
  });
}

it("JSON text is parsed in @convkit/json only (readers use parseJsonText / tryParseJson and Fields)", () => {
  const files = code();
  expect(files.length).toBeGreaterThan(100);
  expect(rawJsonParses(files)).toEqual([]);
});

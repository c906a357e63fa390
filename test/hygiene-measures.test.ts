// Reference implementations (`<thing>.reference.ts`, CONTRIBUTING.md "A fast path") stay out of a
// package's API: its index.ts exports nothing from one, directly or through re-exports, unless an
// app imports it. Tests import a reference by relative path.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { REPO } from "@convkit/test-helpers";
import { afterAll, describe, expect, it } from "vitest";

/** A module's re-exports and imports: exported name → [source module, name there]. */
interface ModuleLinks {
  named: Map<string, [string, string]>;
  stars: string[];
}

const links = new Map<string, ModuleLinks>();

/** The re-exports of `file` (`export { a as b } from`, `export *`, `import { a }` then `export { a }`). */
function linksOf(file: string): ModuleLinks {
  const known = links.get(file);
  if (known) return known;
  const text = readFileSync(file, "utf8");
  const target = (spec: string) => resolve(dirname(file), spec.replace(/\.js$/, ".ts"));
  const names = (list: string) =>
    list
      .split(",")
      .map((x) => x.trim().replace(/^type\s+/, ""))
      .filter((x) => x !== "")
      .map((x) => {
        const [from = x, as = from] = x.split(/\s+as\s+/);
        return [from, as] as const;
      });
  const out: ModuleLinks = { named: new Map(), stars: [] };
  const imported = new Map<string, [string, string]>();
  for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"(\.[^"]+)"/g))
    for (const [from, as] of names(m[1] ?? "")) imported.set(as, [target(m[2] ?? ""), from]);
  for (const m of text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}(\s*from\s*"(\.[^"]+)")?/g))
    for (const [from, as] of names(m[1] ?? "")) {
      const source: [string, string] | undefined =
        m[3] !== undefined ? [target(m[3]), from] : imported.get(from);
      if (source) out.named.set(as, source);
    }
  for (const m of text.matchAll(/export\s*\*\s*(?:as\s+\w+\s*)?from\s*"(\.[^"]+)"/g))
    out.stars.push(target(m[1] ?? ""));
  links.set(file, out);
  return out;
}

/** Every name `file` exports that comes from a `*.reference.ts` module, with that module. */
function referenceExports(file: string, seen = new Set<string>()): Map<string, string> {
  const found = new Map<string, string>();
  if (seen.has(file) || !existsSync(file)) return found;
  seen.add(file);
  if (file.endsWith(".reference.ts")) {
    for (const m of readFileSync(file, "utf8").matchAll(
      /export\s+(?:async\s+)?(?:function\*?|class|const|let|interface|type|enum)\s+(\w+)/g,
    ))
      found.set(m[1] ?? "", file);
  }
  const { named, stars } = linksOf(file);
  for (const [as, [source, from]] of named) {
    const origin = referenceExports(source, new Set(seen));
    const hit = origin.get(from);
    if (hit !== undefined) found.set(as, hit);
  }
  for (const star of stars)
    for (const [name, hit] of referenceExports(star, new Set(seen))) found.set(name, hit);
  return found;
}

function sources(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") && !p.endsWith(".test.ts") ? [p] : [];
  });
}

/** Names each package (`@convkit/x`) is imported for by the apps' sources under `appsDir`. */
function appImports(appsDir: string): Map<string, Set<string>> {
  const used = new Map<string, Set<string>>();
  for (const app of readdirSync(appsDir))
    for (const file of sources(join(appsDir, app, "src")))
      for (const m of readFileSync(file, "utf8").matchAll(
        /import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*"(@convkit\/[\w-]+)"/g,
      )) {
        const pkg = m[2] ?? "";
        const set = used.get(pkg) ?? new Set<string>();
        for (const x of (m[1] ?? "").split(","))
          set.add(
            (
              x
                .trim()
                .replace(/^type\s+/, "")
                .split(/\s+as\s+/)[0] ?? ""
            ).trim(),
          );
        used.set(pkg, set);
      }
  return used;
}

/** `pkg: name (from file)` for every reference a package's index.ts exports that no app imports. */
function unusedReferenceExports(root: string): string[] {
  links.clear();
  const used = appImports(join(root, "apps"));
  const bad: string[] = [];
  for (const dir of readdirSync(join(root, "packages"))) {
    const index = join(root, "packages", dir, "src", "index.ts");
    const pkg = `@convkit/${dir}`;
    for (const [name, file] of referenceExports(index))
      if (!used.get(pkg)?.has(name)) bad.push(`${pkg}: ${name} (from ${file.slice(root.length + 1)})`);
  }
  return bad.sort();
}

describe("reference implementations (CONTRIBUTING.md: A fast path)", () => {
  it("no package exports a *.reference.ts implementation that no app imports", () => {
    expect(unusedReferenceExports(REPO)).toEqual([]);
  });

  const tmp = mkdtempSync(join(tmpdir(), "hygiene-measures-"));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const put = (path: string, text: string) => {
    mkdirSync(dirname(join(tmp, path)), { recursive: true });
    writeFileSync(join(tmp, path), text);
  };

  it("finds a reference exported directly, renamed, through export * and through an import", () => {
    put(
      "packages/a/src/thing.reference.ts",
      "export function thingReference() {}\nexport class ReferenceThing {}\n",
    );
    put(
      "packages/a/src/thing.ts",
      'import { thingReference } from "./thing.reference.js";\nexport { thingReference };\n',
    );
    put("packages/a/src/more.ts", 'export * from "./thing.reference.js";\n');
    put(
      "packages/a/src/index.ts",
      'export { thingReference as slow } from "./thing.js";\nexport { ReferenceThing } from "./more.js";\nexport const fast = 1;\n',
    );
    put("packages/b/src/index.ts", 'export { thingReference } from "./x.reference.js";\n');
    put("packages/b/src/x.reference.ts", "export const thingReference = 1;\n");
    put("apps/c/src/index.ts", 'import { thingReference } from "@convkit/b";\n');
    expect(unusedReferenceExports(tmp)).toEqual([
      "@convkit/a: ReferenceThing (from packages/a/src/thing.reference.ts)",
      "@convkit/a: slow (from packages/a/src/thing.reference.ts)",
    ]);
  });
});

// Package hygiene across the house: a name exported by two packages means one thing, and no import
// cycle of any kind (type-only imports and re-exports counted: a type cycle still ties two modules
// or packages together for a reader and for the build order).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const pkgDirs = ["packages", "apps"].flatMap((top) =>
  readdirSync(join(REPO, top))
    .map((d) => join(REPO, top, d))
    .filter((d) => existsSync(join(d, "src", "index.ts"))),
);
const json = (p: string) => JSON.parse(readFileSync(p, "utf8"));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** The source file a relative specifier of `from` names (`./x.js` is `./x.ts` on disk). */
function resolveRelative(from: string, spec: string): string {
  return join(from, "..", spec.replace(/\.js$/, ".ts"));
}

/**
 * Every module specifier a source names: static imports and re-exports, `import type` and `export
 * type` included, and `import("…")` (in a type position too).
 */
function specifiersOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+"([^"]+)"/gm))
    out.push(m[1] as string);
  for (const m of text.matchAll(/^\s*import\s+"([^"]+)"/gm)) out.push(m[1] as string);
  for (const m of text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)) out.push(m[1] as string);
  return out;
}

/** The cycles of a directed graph, each as `a -> b -> a` (one per back edge a depth-first search meets). */
function cyclesOf(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (node: string, path: string[]) => {
    const s = state.get(node);
    if (s === "done") return;
    if (s === "open") {
      cycles.push([...path.slice(path.indexOf(node)), node].join(" -> "));
      return;
    }
    state.set(node, "open");
    for (const next of edges.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, "done");
  };
  for (const node of [...edges.keys()].sort()) visit(node, []);
  return cycles;
}

/** Module and package edges of the given package folders' non-test sources, every kind of import counted. */
function importEdges(dirs: readonly string[], files: (dir: string) => string[]): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  const add = (from: string, to: string) => {
    const l = edges.get(from);
    if (l === undefined) edges.set(from, [to]);
    else if (!l.includes(to)) l.push(to);
  };
  for (const dir of dirs) {
    const pkgName = json(join(dir, "package.json")).name as string;
    for (const f of files(dir)) {
      for (const spec of specifiersOf(readFileSync(f, "utf8"))) {
        if (spec.startsWith(".")) add(relative(REPO, f), relative(REPO, resolveRelative(f, spec)));
        const m = /^(@convkit\/[a-z0-9-]+)/.exec(spec);
        if (m?.[1] !== undefined && m[1] !== pkgName) add(pkgName, m[1]);
      }
    }
  }
  return edges;
}

const nonTestSources = (dir: string) =>
  existsSync(join(dir, "src")) ? sources(join(dir, "src")).filter((f) => !f.endsWith(".test.ts")) : [];

/** Where a package's public value `name` (a function, const, class or enum) is declared, following re-exports. */
function originOf(file: string, name: string, seen = new Set<string>()): string | undefined {
  const key = `${file}#${name}`;
  if (seen.has(key) || !existsSync(file)) return undefined;
  seen.add(key);
  const text = readFileSync(file, "utf8");
  const declared = new RegExp(
    `^export\\s+(?:declare\\s+)?(?:async\\s+)?(?:function\\*?|const|let|var|(?:abstract\\s+)?class|enum)\\s+${name}\\b`,
    "m",
  );
  if (declared.test(text)) return `${relative(REPO, file)}#${name}`;
  const target = (spec: string) => {
    if (spec.startsWith(".")) return resolveRelative(file, spec);
    const m = /^@convkit\/([a-z0-9-]+)$/.exec(spec);
    if (m === null) return undefined;
    const dir = pkgDirs.find((d) => json(join(d, "package.json")).name === spec);
    return dir === undefined ? undefined : join(dir, "src", "index.ts");
  };
  // export { a, b as name } from "…" ; export { name } (an import of this file, or local)
  for (const m of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}\s*(?:from\s+"([^"]+)")?/gm)) {
    if (m[1] !== undefined) continue;
    for (const part of (m[2] ?? "").split(",")) {
      const p = part.trim();
      if (p === "" || p.startsWith("type ")) continue;
      const [orig, alias] = p.split(/\s+as\s+/) as [string, string | undefined];
      if ((alias ?? orig) !== name) continue;
      if (m[3] !== undefined) {
        const t = target(m[3]);
        return t === undefined ? `${m[3]}#${orig}` : originOf(t, orig, seen);
      }
      for (const im of text.matchAll(/^import\s+\{([^}]*)\}\s*from\s+"([^"]+)"/gm))
        for (const ip of (im[1] ?? "").split(",")) {
          const [io, ia] = ip.trim().split(/\s+as\s+/) as [string, string | undefined];
          if ((ia ?? io) === orig && im[2] !== undefined) {
            const t = target(im[2]);
            return t === undefined ? `${im[2]}#${io}` : originOf(t, io, seen);
          }
        }
      return `${relative(REPO, file)}#${orig}`;
    }
  }
  for (const m of text.matchAll(/^export\s+\*\s+from\s+"([^"]+)"/gm)) {
    const t = m[1] === undefined ? undefined : target(m[1]);
    const o = t === undefined ? undefined : originOf(t, name, seen);
    if (o !== undefined) return o;
  }
  return undefined;
}

/** The value names (functions, consts, classes, enums) a module exports, re-exports followed. */
function exportedValues(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file) || !existsSync(file)) return [];
  seen.add(file);
  const text = readFileSync(file, "utf8");
  const names: string[] = [];
  for (const m of text.matchAll(
    /^export\s+(?:declare\s+)?(?:async\s+)?(?:function\*?|const|let|var|(?:abstract\s+)?class|enum)\s+([A-Za-z_$][\w$]*)/gm,
  ))
    names.push(m[1] as string);
  for (const m of text.matchAll(/^export\s+(type\s+)?\{([^}]*)\}/gm)) {
    if (m[1] !== undefined) continue;
    for (const part of (m[2] ?? "").split(",")) {
      const p = part.trim();
      if (p === "" || p.startsWith("type ")) continue;
      const [orig, alias] = p.split(/\s+as\s+/) as [string, string | undefined];
      names.push(alias ?? orig);
    }
  }
  for (const m of text.matchAll(/^export\s+\*\s+from\s+"(\.[^"]+)"/gm))
    if (m[1] !== undefined) names.push(...exportedValues(resolveRelative(file, m[1]), seen));
  return names;
}

describe("package hygiene across the house", () => {
  it("two packages or apps export a value of one name only when it is the same value (re-exported)", () => {
    // Apps too: apps/convkit bundles every app's commands side by side.
    const byName = new Map<string, Map<string, string[]>>();
    for (const dir of pkgDirs) {
      const pkgName = json(join(dir, "package.json")).name as string;
      const index = join(dir, "src", "index.ts");
      for (const name of new Set(exportedValues(index))) {
        const origin = originOf(index, name) ?? `${relative(REPO, index)}#${name}?`;
        const origins = byName.get(name) ?? new Map<string, string[]>();
        origins.set(origin, [...(origins.get(origin) ?? []), pkgName]);
        byName.set(name, origins);
      }
    }
    const clashes = [...byName]
      .filter(([, origins]) => origins.size > 1)
      .map(
        ([name, origins]) =>
          `${name}: ${[...origins].map(([o, p]) => `${p.join(", ")} (${o})`).join(" vs ")}`,
      );
    expect(clashes).toEqual([]);
  });

  it("no import cycle, type-only imports and re-exports counted: between the modules of a package, nor between packages", () => {
    expect(cyclesOf(importEdges(pkgDirs, nonTestSources))).toEqual([]);
  });

  it("the cycle check sees a cycle made only of type imports and type re-exports", () => {
    const specs = specifiersOf(
      'import type { A } from "./a.js";\nexport type { B } from "./b.js";\nexport type * from "./c.js";\ntype D = import("./d.js").D;\n',
    );
    expect(specs).toEqual(["./a.js", "./b.js", "./c.js", "./d.js"]);
    expect(
      cyclesOf(
        new Map([
          ["a", ["b"]],
          ["b", ["a"]],
        ]),
      ),
    ).toEqual(["a -> b -> a"]);
  });
});

/**
 * The libraries' dependency picture as the README draws it: a Mermaid graph of packages/*' runtime
 * @convkit dependencies (package.json), each edge one the others do not already imply (a transitive
 * reduction), sorted: a picture that stays readable and cannot drift from the code.
 */
function packageGraph(): string {
  const deps = new Map<string, string[]>();
  for (const dir of pkgDirs.filter((d) => relative(REPO, d).startsWith("packages/"))) {
    const pkg = json(join(dir, "package.json"));
    const short = (name: string) => name.replace(/^@convkit\//, "");
    deps.set(
      short(pkg.name),
      Object.keys(pkg.dependencies ?? {})
        .filter((d) => d.startsWith("@convkit/"))
        .map(short),
    );
  }
  const reach = (from: string, seen = new Set<string>()): Set<string> => {
    for (const next of deps.get(from) ?? [])
      if (!seen.has(next)) {
        seen.add(next);
        reach(next, seen);
      }
    return seen;
  };
  const edges: string[] = [];
  for (const [from, tos] of deps)
    for (const to of tos)
      if (!tos.some((other) => other !== to && reach(other).has(to))) edges.push(`  ${from} --> ${to}`);
  return ["```mermaid", "graph LR", ...edges.sort(), "```"].join("\n");
}

describe("the README's picture of the packages", () => {
  it("is the packages' dependencies (each edge not implied by others), as package.json declares them", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const start = readme.indexOf("```mermaid");
    const drawn = start < 0 ? "" : readme.slice(start, readme.indexOf("```", start + 10) + 3);
    expect(drawn, "README.md's ```mermaid block (after ## Layout) should be:").toBe(packageGraph());
  });
});

// The explorer's three folders: shared/ (the browser-safe contract), server/ (Node) and web/ (the page), and no import cycle among them.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { REPO } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const EXPLORE = join(REPO, "packages", "explore");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") && !p.endsWith(".test.ts") ? [p] : [];
  });
}

/** Every module a file imports or re-exports (type-only and dynamic imports included), and whether only its types. */
function imports(file: string): { spec: string; typeOnly: boolean }[] {
  const text = readFileSync(file, "utf8");
  return [
    ...text.matchAll(/^\s*(?:import|export)\s(type\s)?[^;]*?from\s+"([^"]+)"/gms),
    ...text.matchAll(/^\s*import\s()"([^"]+)"/gm),
    ...text.matchAll(/\bimport\(()\s*"([^"]+)"\s*\)/g),
  ].map((m) => ({ spec: m[2] as string, typeOnly: m[1] !== undefined && m[1] !== "" }));
}

/** The folder (shared, server, web, or the package's index) a file of the explorer lives in. */
function folderOf(file: string): string {
  const rel = relative(EXPLORE, file).split("/");
  return rel[0] === "web" ? "web" : rel.length > 2 ? (rel[1] as string) : "index";
}

const files = [...sources(join(EXPLORE, "src")), ...sources(join(EXPLORE, "web"))];

/** Which folders each folder may import from (relative imports), and whether it may import node: modules. */
const MAY: Record<string, { folders: string[]; node: boolean }> = {
  shared: { folders: ["shared"], node: false },
  web: { folders: ["web", "shared"], node: false },
  server: { folders: ["server", "shared"], node: true },
  index: { folders: ["server", "shared"], node: true },
};

describe("explore's folders", () => {
  it("shared/ and web/ import nothing from server/ or node:, server/ nothing from web/", () => {
    const wrong: string[] = [];
    for (const f of files) {
      const from = folderOf(f);
      const may = MAY[from];
      if (!may) {
        wrong.push(`${relative(REPO, f)}: not in shared/, server/ or web/`);
        continue;
      }
      for (const { spec: s, typeOnly } of imports(f)) {
        const isNode =
          s.startsWith("node:") || /^(fs|path|os|http|url|crypto|stream|events|child_process)(\/|$)/.test(s);
        if (isNode && !may.node) wrong.push(`${relative(REPO, f)} imports ${s}`);
        if (s.startsWith(".")) {
          const to = folderOf(join(dirname(f), s));
          if (!may.folders.includes(to)) wrong.push(`${relative(REPO, f)} (${from}) imports ${s} (${to})`);
        } else if (!isNode && !typeOnly && from !== "server" && from !== "index")
          // A package's code in the page or the contract would bring Node code into the browser bundle (its types are erased).
          wrong.push(`${relative(REPO, f)} imports ${s}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("no import cycle between the explorer's modules, type-only imports included", () => {
    const edges = new Map<string, string[]>();
    for (const f of files)
      edges.set(
        relative(REPO, f),
        imports(f)
          .map((i) => i.spec)
          .filter((s) => s.startsWith("."))
          .map((s) => relative(REPO, join(dirname(f), s.replace(/\.js$/, ".ts")))),
      );
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (node: string, path: string[]) => {
      if (state.get(node) === "done") return;
      if (state.get(node) === "open") {
        cycles.push([...path.slice(path.indexOf(node)), node].join(" -> "));
        return;
      }
      state.set(node, "open");
      for (const next of edges.get(node) ?? []) visit(next, [...path, node]);
      state.set(node, "done");
    };
    for (const node of edges.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });
});

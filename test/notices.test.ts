// Licensing as published: the MIT LICENSE, and THIRD_PARTY_NOTICES.md true to the code and to the installed dependencies.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const json = (p: string) => JSON.parse(readFileSync(p, "utf8"));
const notices = readFileSync(join(REPO, "THIRD_PARTY_NOTICES.md"), "utf8");
const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** The body rows of the first table after `heading`, as trimmed cells. */
function table(heading: string): string[][] {
  const at = notices.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`THIRD_PARTY_NOTICES.md has no "${heading}"`);
  const lines = notices.slice(at).split("\n");
  const start = lines.findIndex((l) => l.startsWith("| "));
  const rows: string[][] = [];
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith("| ")) break;
    rows.push(
      l
        .slice(2, -2)
        .split(" | ")
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const sourceRows = table("## Ported, copied and reproduced sources");
const npmRows = new Map(table("## npm dependencies").map((r) => [ticked(r[0]!)[0]!, r]));

const pkgDirs = ["packages", "apps"].flatMap((top) =>
  readdirSync(join(REPO, top))
    .map((d) => join(REPO, top, d))
    .filter((d) => existsSync(join(d, "package.json"))),
);

function files(dir: string, ext: RegExp): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (f === "node_modules" || f === "dist") return [];
    return statSync(p).isDirectory() ? files(p, ext) : ext.test(f) ? [p] : [];
  });
}

describe("LICENSE", () => {
  it("is the MIT license of the convkit contributors", () => {
    const text = readFileSync(join(REPO, "LICENSE"), "utf8");
    expect(text.split("\n")[0]).toBe("MIT License");
    expect(text).toContain("Copyright (c) 2026 the convkit contributors");
    expect(text).toContain("Permission is hereby granted, free of charge");
  });
});

describe("THIRD_PARTY_NOTICES.md: ported, copied and reproduced sources", () => {
  it("has its table", () => {
    expect(sourceRows.length).toBeGreaterThan(10);
  });

  for (const row of sourceRows) {
    const [upstream, , license, , paths, marker] = row;
    it(`${upstream}: a license, and every path exists and names it (${marker})`, () => {
      expect(row, "six columns").toHaveLength(6);
      expect(license).not.toBe("");
      const name = ticked(marker!)[0];
      expect(name, "a `marker`").toBeDefined();
      expect(ticked(paths!).length, "at least one `path`").toBeGreaterThan(0);
      for (const p of ticked(paths!)) {
        const abs = join(REPO, p);
        expect(existsSync(abs), `${p} exists`).toBe(true);
        // A folder names its upstream in its README.
        const file = statSync(abs).isDirectory() ? join(abs, "README.md") : abs;
        expect(readFileSync(file, "utf8"), `${relative(REPO, file)} names ${name}`).toContain(name);
      }
    });
  }

  it("lists every source file whose comments name an upstream and its license", () => {
    const listed = new Set(sourceRows.flatMap((r) => ticked(r[4]!)));
    const marked = pkgDirs
      .flatMap((d) => ["src", "web", "wasm"].flatMap((s) => files(join(d, s), /\.(ts|mjs)$/)))
      .filter((f) => !f.endsWith(".test.ts"))
      .filter((f) =>
        /\([^()\n]*, (MIT|BSD|BSD-[23]-Clause|Apache-2\.0|PSF-2\.0|ISC|CC0|public domain)\)/.test(
          readFileSync(f, "utf8"),
        ),
      )
      .map((f) => relative(REPO, f));
    expect(marked.length).toBeGreaterThan(0);
    for (const f of marked) expect([...listed], `${f} names a license: list it`).toContain(f);
  });
});

describe("THIRD_PARTY_NOTICES.md: npm dependencies", () => {
  for (const dir of pkgDirs) {
    const pkg = json(join(dir, "package.json"));
    if (pkg.private) continue;
    const deps = Object.keys(pkg.dependencies ?? {}).filter((d) => !d.startsWith("@convkit/"));
    it(`${relative(REPO, dir)}: every runtime dependency, with the installed version and license`, () => {
      for (const d of deps) {
        const row = npmRows.get(d);
        expect(row, `${d} is in the npm table`).toBeDefined();
        const installed = json(join(dir, "node_modules", d, "package.json"));
        expect(row![1], `${d}'s version`).toBe(installed.version);
        expect(row![2], `${d}'s license`).toBe(installed.license);
      }
    });
  }

  it("every package a web build bundles, with the installed version and license", () => {
    let scanned = 0;
    for (const dir of pkgDirs) {
      for (const f of files(join(dir, "web"), /\.ts$/)) {
        scanned++;
        for (const m of readFileSync(f, "utf8").matchAll(/from "([^".][^"]*)"/g)) {
          const name = m[1]!.startsWith("@") ? m[1]!.split("/").slice(0, 2).join("/") : m[1]!.split("/")[0]!;
          const row = npmRows.get(name);
          expect(row, `${relative(REPO, f)} bundles ${name}`).toBeDefined();
          const installed = json(join(dir, "node_modules", name, "package.json"));
          expect(row![1]).toBe(installed.version);
          expect(row![2]).toBe(installed.license);
        }
      }
    }
    // The explorer's page is scanned (it bundles no third-party package today: its charts are its own SVG).
    expect(scanned).toBeGreaterThan(0);
  });
});

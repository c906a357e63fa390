// Package hygiene: exports maps, source-first condition, blocked internals, declared deps, module headers.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const pkgDirs = ["packages", "apps"].flatMap((top) =>
  readdirSync(join(REPO, top)).map((d) => join(REPO, top, d)),
);
const json = (p: string) => JSON.parse(readFileSync(p, "utf8"));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

describe("package hygiene", () => {
  const root = json(join(REPO, "package.json"));
  for (const dir of pkgDirs) {
    const name = relative(REPO, dir);
    const pkg = json(join(dir, "package.json"));

    it(`${name}: exports map is source-first with internals blocked`, () => {
      expect(pkg.name).toMatch(/^@convkit\/[a-z][a-z0-9-]*$/);
      expect(pkg.type).toBe("module");
      expect(pkg.exports["."]).toEqual({
        "@convkit/source": "./src/index.ts",
        types: "./dist/index.d.ts",
        default: "./dist/index.js",
      });
      expect(pkg.exports["./internal/*"]).toBeNull();
      expect(existsSync(join(dir, "src", "index.ts"))).toBe(true);
      // Apps may bundle their CLI after compiling (scripts/bundle-bin.mjs); packages only compile,
      // except a package that serves a browser app, which bundles it from its web/ folder.
      if (name.startsWith("apps/"))
        expect(pkg.scripts.build).toMatch(/^tsc -b( && node \.\.\/\.\.\/scripts\/bundle-bin\.mjs)?$/);
      else if (existsSync(join(dir, "web", "build.mjs")))
        expect(pkg.scripts.build).toBe("tsc -b && node web/build.mjs");
      else expect(pkg.scripts.build).toBe("tsc -b");
    });

    it(`${name}: every @convkit import is a declared dependency, a tsconfig reference, and never a deep import`, () => {
      const deps = Object.keys(pkg.dependencies ?? {});
      const refs = (json(join(dir, "tsconfig.json")).references ?? []).map((r: { path: string }) =>
        r.path.split("/").at(-1),
      );
      const used = new Set<string>();
      for (const f of sources(join(dir, "src")).filter((f) => !f.endsWith(".test.ts"))) {
        const text = readFileSync(f, "utf8");
        for (const m of text.matchAll(/from "(@convkit\/[^"]+)"/g)) {
          expect(m[1], `${relative(REPO, f)} deep-imports ${m[1]}`).toMatch(/^@convkit\/[a-z0-9-]+$/);
          used.add(m[1]!);
        }
        expect(text, `${relative(REPO, f)} reaches into another package by path`).not.toMatch(
          /from "\.\.\/\.\.\/(packages|apps)\//,
        );
        expect(text.split("\n")[0], `${relative(REPO, f)} needs a one-line header comment`).toMatch(
          /^\/\/ \S/,
        );
      }
      for (const u of used) {
        expect(deps, `${name} imports ${u}`).toContain(u);
        expect(refs, `${name} imports ${u} without a tsconfig reference`).toContain(
          u.split("/")[1]!.replace(/-app$/, ""),
        );
      }
      for (const d of deps.filter((d) => d.startsWith("@convkit/")))
        expect([...used], `${name} declares ${d} but never imports it`).toContain(d);
    });

    if (name.startsWith("apps/")) {
      it(`${name}: bin convkit-<app> runnable from the root`, () => {
        const app = name.split("/")[1]!;
        expect(pkg.bin).toEqual({ [`convkit-${app}`]: `./bin/convkit-${app}.js` });
        expect(root.devDependencies[pkg.name]).toBe("workspace:*");
        expect(existsSync(join(dir, "src", "bin.ts"))).toBe(true);
        // The bin runs the bundle when the build makes one, else the compiled bin.
        const launcher = readFileSync(join(dir, "bin", `convkit-${app}.js`), "utf8");
        const bundled = pkg.scripts.build.includes("bundle-bin");
        expect(launcher).toContain(`from "../dist/${bundled ? "bin.bundle.js" : "bin.js"}"`);
      });
    }
  }

  it("the root tsconfig references every package", () => {
    const refs = json(join(REPO, "tsconfig.json")).references.map((r: { path: string }) => r.path);
    expect(refs.sort()).toEqual(pkgDirs.map((d) => relative(REPO, d)).sort());
  });
});

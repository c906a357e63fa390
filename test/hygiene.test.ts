// Package hygiene: exports maps, source-first condition, blocked internals, declared deps, module headers.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { REPO } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const pkgDirs = ["packages", "apps"].flatMap((top) =>
  readdirSync(join(REPO, top)).map((d) => join(REPO, top, d)),
);
/** The one published command (`convkit`), which bundles every app: its own rules below. */
const COMMAND_DIR = join(REPO, "apps", "convkit");
const json = (p: string) => JSON.parse(readFileSync(p, "utf8"));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const root = json(join(REPO, "package.json"));

describe("package hygiene", () => {
  for (const dir of pkgDirs.filter((d) => d !== COMMAND_DIR)) {
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
      // Packages and apps only compile (the `convkit` package bundles them all), except a package
      // that serves a browser app, which bundles it from its web/ folder.
      if (existsSync(join(dir, "web", "build.mjs")))
        expect(pkg.scripts.build).toBe("tsc -b && node web/build.mjs");
      else expect(pkg.scripts.build).toBe("tsc -b");
    });

    it(`${name}: every @convkit import is a declared dependency, a tsconfig reference, and never a deep import`, () => {
      const deps = Object.keys(pkg.dependencies ?? {});
      const refs = (json(join(dir, "tsconfig.json")).references ?? []).map((r: { path: string }) =>
        r.path.split("/").at(-1),
      );
      const used = new Set<string>();
      // Test files, and a test harness beside them (harness.ts: what one app's tests share), are not the package's code.
      for (const f of sources(join(dir, "src")).filter(
        (f) => !f.endsWith(".test.ts") && !f.endsWith("/harness.ts"),
      )) {
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
      it(`${name}: its process entry is exported as ./bin for the convkit command, with no bin of its own`, () => {
        expect(pkg.bin).toBeUndefined();
        expect(pkg.private).toBe(true);
        expect(pkg.exports["./bin"]).toEqual({
          "@convkit/source": "./src/bin.ts",
          types: "./dist/bin.d.ts",
          default: "./dist/bin.js",
        });
        expect(readFileSync(join(dir, "src", "bin.ts"), "utf8")).toMatch(
          /export function main\(argv: string\[\]\)/,
        );
      });
    }
  }

  it("apps/convkit: `convkit` and a convkit-<command> alias for every app, each app a command", async () => {
    const pkg = json(join(COMMAND_DIR, "package.json"));
    const { COMMANDS } = await import("../apps/convkit/src/commands.js");
    const apps = pkgDirs.filter((d) => d.startsWith(join(REPO, "apps")) && d !== COMMAND_DIR);
    expect(pkg.name).toBe("convkit");
    expect(pkg.private).toBeUndefined();
    expect(Object.keys(COMMANDS).sort()).toEqual(apps.map((d) => relative(join(REPO, "apps"), d)).sort());
    const bins: Record<string, string> = { convkit: "./bin/convkit.js" };
    for (const c of Object.keys(COMMANDS)) bins[`convkit-${c}`] = `./bin/convkit-${c}.js`;
    expect(pkg.bin).toEqual(bins);
    for (const c of Object.keys(COMMANDS)) {
      const launcher = readFileSync(join(COMMAND_DIR, "bin", `convkit-${c}.js`), "utf8");
      expect(launcher).toContain(`run(process.argv.slice(2), "${c}");`);
      expect(pkg.devDependencies[`@convkit/${c}-app`]).toBe("workspace:*");
      const entry = readFileSync(join(COMMAND_DIR, "src", "commands.ts"), "utf8");
      expect(entry).toContain(`import("@convkit/${c}-app/bin")`);
    }
    // Nothing of the workspace is a runtime dependency: the bundle holds it (see build.mjs).
    expect(Object.keys(pkg.dependencies).filter((d) => d.startsWith("@convkit/"))).toEqual([]);
    expect(root.devDependencies.convkit).toBe("workspace:*");
  });

  it("apps/convkit: its third-party dependencies are the libraries' own, at the same versions", () => {
    const pkg = json(join(COMMAND_DIR, "package.json"));
    for (const dir of pkgDirs.filter((d) => d.startsWith(join(REPO, "packages")))) {
      const lib = json(join(dir, "package.json"));
      if (lib.name === "@convkit/test-helpers") continue;
      // A package the bundle contains (bullmq: build.mjs's BUNDLED) is a devDependency instead.
      for (const [d, v] of Object.entries(lib.dependencies ?? {}))
        if (!d.startsWith("@convkit/"))
          expect(pkg.dependencies[d] ?? pkg.devDependencies[d], `${lib.name} depends on ${d}`).toBe(v);
    }
  });

  it("the root tsconfig references every package", () => {
    const refs = json(join(REPO, "tsconfig.json")).references.map((r: { path: string }) => r.path);
    expect(refs.sort()).toEqual(pkgDirs.map((d) => relative(REPO, d)).sort());
  });

  // Import cycles (type-only ones included): test/hygiene-packages.test.ts.

  it("the README's layout names every package and app folder", () => {
    const readme = readFileSync(join(REPO, "README.md"), "utf8");
    const start = readme.indexOf("## Layout");
    const block = readme.slice(start, readme.indexOf("```\n", readme.indexOf("```", start) + 3));
    const listed = new Set(
      [...block.matchAll(/^(packages|apps)\/([a-z0-9<>-]+)/gm)].map((m) => `${m[1]}/${m[2]}`),
    );
    for (const dir of pkgDirs) {
      const name = relative(REPO, dir);
      // One line stands for the thin apps (apps/<app>); the packages and apps/convkit each have theirs.
      const line = name.startsWith("apps/") && name !== "apps/convkit" ? "apps/<app>" : name;
      expect([...listed], `README.md's layout lacks ${name}`).toContain(line);
    }
    for (const l of listed)
      if (!l.includes("<"))
        expect(existsSync(join(REPO, l)), `README.md's layout lists ${l}, which is not there`).toBe(true);
  });
});

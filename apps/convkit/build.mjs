// Bundles the `convkit` package (after `tsc -b`): the workspace's own code inside dist/, split in
// chunks so that a command loads only its app; third-party packages stay imports, installed from the
// registry as this package's dependencies. Outputs, all flat in dist/ (so `import.meta.url` means
// the same folder in every chunk):
//   dist/convkit.js               the entry (bin/ calls it)
//   dist/<package>-<worker>.js    each worker-thread module a pool starts by URL
//   dist/chunk-*.js               code shared by the commands
//   dist/web/                     the explorer's page (@convkit/explore reads ../dist/web)
//   data/                         the sample data (@convkit/sample-data reads ../data)
// It fails when the bundle imports a package this package.json does not depend on, or depends on
// one it does not import: the published package must install and run alone.
import { cp, mkdir, readdir, readFile, rm } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const out = join(here, "dist");
const WORKER_URL = /new URL\("\.\/([\w-]+)\.js", import\.meta\.url\)/g;

/** Worker modules started by URL from the workspace packages' built code: source file → bundle name. */
async function findWorkers() {
  const workers = new Map();
  for (const pkg of await readdir(join(root, "packages"))) {
    const dist = join(root, "packages", pkg, "dist");
    const files = await readdir(dist).catch(() => []);
    for (const f of files.filter((x) => x.endsWith(".js") && !x.includes(".test."))) {
      for (const m of (await readFile(join(dist, f), "utf8")).matchAll(WORKER_URL))
        workers.set(join(dist, `${m[1]}.js`), `${pkg}-${m[1]}`);
    }
  }
  return workers;
}

const workers = await findWorkers();
const pkg = JSON.parse(await readFile(join(here, "package.json"), "utf8"));
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });

const bundled = await build({
  entryPoints: {
    convkit: join(here, "dist-tsc", "bin.js"),
    ...Object.fromEntries([...workers].map(([file, name]) => [name, file])),
  },
  outdir: out,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: true,
  // Less to parse at start-up; names are kept, so stack traces still read (and map to src/).
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  logLevel: "warning",
  chunkNames: "chunk-[hash]",
  plugins: [
    {
      name: "convkit",
      setup(b) {
        // Every bare import but the workspace's own is a dependency, installed beside the bundle.
        b.onResolve({ filter: /^[^./]/ }, (a) =>
          a.path.startsWith("@convkit/") || a.path.startsWith("node:")
            ? undefined
            : { path: a.path, external: true },
        );
        // A pool's `new URL("./worker.js", import.meta.url)` names its worker's bundle instead.
        b.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]dist[\\/][^\\/]+\.js$/ }, async (a) => {
          const text = await readFile(a.path, "utf8");
          if (!text.includes("import.meta.url)")) return undefined;
          const contents = text.replace(WORKER_URL, (_, name) => {
            const entry = workers.get(join(dirname(a.path), `${name}.js`));
            return `new URL("./${entry}.js", import.meta.url)`;
          });
          return { contents, loader: "js", resolveDir: dirname(a.path) };
        });
      },
    },
  ],
});

// The package names the bundle imports (`a/b/c` → `a`, `@s/a/b` → `@s/a`), against package.json.
const imported = new Set();
for (const o of Object.values(bundled.metafile.outputs))
  for (const i of o.imports)
    if (i.external && !i.path.startsWith("node:")) {
      const parts = i.path.split("/");
      imported.add(i.path.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
    }
// A lazy `createRequire(import.meta.url)("x")` (csv-stringify, loaded on first use) is an import too.
for (const f of Object.keys(bundled.metafile.outputs).filter((x) => x.endsWith(".js")))
  for (const m of (await readFile(resolve(f), "utf8")).matchAll(
    /createRequire\(import\.meta\.url\)\("([^"]+)"\)/g,
  )) {
    const parts = m[1].split("/");
    imported.add(m[1].startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
  }
const declared = new Set(Object.keys(pkg.dependencies ?? {}));
const missing = [...imported].filter((d) => !declared.has(d));
const unused = [...declared].filter((d) => !imported.has(d));
if (missing.length || unused.length) {
  console.error(
    `apps/convkit/package.json: dependencies must be exactly what the bundle imports; missing: ${missing.join(", ") || "none"}; unused: ${unused.join(", ") || "none"}`,
  );
  process.exit(1);
}

await cp(join(root, "packages", "explore", "dist", "web"), join(out, "web"), { recursive: true });
await rm(join(here, "data"), { recursive: true, force: true });
await cp(join(root, "packages", "sample-data", "data"), join(here, "data"), {
  recursive: true,
  dereference: true,
});
for (const f of ["LICENSE", "THIRD_PARTY_NOTICES.md"]) await cp(join(root, f), join(here, f)).catch(() => {});
const entries = Object.keys(bundled.metafile.outputs).filter((f) => f.endsWith(".js"));
console.log(
  `${relative(root, out)}: ${entries.length} files (${[...workers.values()].map((w) => basename(w)).join(", ")} as workers)`,
);

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
//
// BullMQ and its own dependencies are the exception: bundled, with msgpackr's plain JavaScript
// build. Installed from the registry, bullmq brings msgpackr's optional native speed-up
// `msgpackr-extract`, whose install script npm runs (pnpm's allowBuilds does not reach npm
// users, and npm honours `overrides` only in the installing project's own package.json);
// bundled, no dependency of `convkit` has an install script. BullMQ only packs with msgpackr,
// which the native part does not speed up. Their license texts go to dist/licenses/.
import { cp, mkdir, readdir, readFile, rm } from "node:fs/promises";
import { isBuiltin } from "node:module";
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

/** Packages bundled rather than installed (bullmq and what it imports but ioredis, a dependency). */
const BUNDLED = new Set([
  "bullmq",
  "cron-parser",
  "luxon",
  "msgpackr",
  "node-abort-controller",
  "semver",
  "tslib",
]);
/**
 * What bullmq requires only for backends convkit does not use (PostgreSQL, Valkey GLIDE), each
 * inside a try: left as a require that fails, not a dependency.
 */
const UNUSED_OPTIONAL = new Set(["pg", "@valkey/valkey-glide"]);
const packageOf = (path) => {
  const parts = path.split("/");
  return path.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
};

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
  // The bundled packages' ES module builds where they have one (bullmq's: named exports for the
  // queue's `import("bullmq")`).
  mainFields: ["module", "main"],
  // bullmq requires ioredis lazily (`typeof require === "function"`): an ES module has no
  // `require` of its own.
  banner: {
    js: 'import { createRequire as __convkitRequire } from "node:module"; const require = __convkitRequire(import.meta.url);',
  },
  plugins: [
    {
      name: "convkit",
      setup(b) {
        // msgpackr's plain JavaScript entry (its `node` condition loads the native extract).
        b.onResolve({ filter: /^msgpackr$/ }, async (a) => {
          if (a.pluginData?.asIs) return undefined;
          const node = await b.resolve("msgpackr", {
            resolveDir: a.resolveDir,
            kind: a.kind,
            pluginData: { asIs: true },
          });
          // `node` is a file of <…/node_modules/msgpackr>; the plain entry is its index.js.
          const at = node.path.lastIndexOf("/node_modules/msgpackr/");
          if (node.errors.length || at < 0) return { errors: node.errors };
          return { path: join(node.path.slice(0, at), "node_modules", "msgpackr", "index.js") };
        });
        // Every bare import but the workspace's own and the bundled ones is a dependency,
        // installed beside the bundle.
        b.onResolve({ filter: /^[^./]/ }, (a) =>
          a.path.startsWith("@convkit/") ||
          a.path.startsWith("node:") ||
          (BUNDLED.has(packageOf(a.path)) && !isBuiltin(a.path))
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
    if (i.external && !isBuiltin(i.path) && !UNUSED_OPTIONAL.has(packageOf(i.path)))
      imported.add(packageOf(i.path));
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

// The bundled packages' license texts, from each one's folder (the inputs under node_modules/NAME/).
const bundledDirs = new Map();
for (const input of Object.keys(bundled.metafile.inputs).map((f) => f.replaceAll("\\", "/"))) {
  const at = input.lastIndexOf("node_modules/");
  if (at < 0) continue;
  const name = packageOf(input.slice(at + "node_modules/".length));
  if (BUNDLED.has(name)) bundledDirs.set(name, resolve(input.slice(0, at), "node_modules", name));
}
const unbundled = [...BUNDLED].filter((p) => !bundledDirs.has(p));
if (unbundled.length) {
  console.error(
    `apps/convkit/build.mjs: BUNDLED names packages the bundle does not contain: ${unbundled.join(", ")}`,
  );
  process.exit(1);
}
await mkdir(join(out, "licenses"), { recursive: true });
for (const [name, dir] of bundledDirs) {
  const license = (await readdir(dir)).find((f) => /^licen[sc]e/i.test(f));
  if (!license) {
    console.error(`apps/convkit/build.mjs: ${name} (bundled) has no LICENSE file`);
    process.exit(1);
  }
  await cp(join(dir, license), join(out, "licenses", `${name.replace("/", "+")}.txt`));
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

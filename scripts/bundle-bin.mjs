// Bundles an app's built CLI (dist/bin.js and the workspace packages it imports) into one file,
// dist/bin.bundle.js. Node 20's ESM loader resolves and links dozens of small modules slowly:
// for commands that run in well under a second (the evaluators) that was a tenth of their time.
// Run from the app's folder, after `tsc -b`. Apps with piscina pools are not bundled: their
// worker files are found next to the package code that starts them.
import { readFile } from "node:fs/promises";
import { build } from "esbuild";

/** Lazy `createRequire(import.meta.url)(x)` calls resolve from the bundle's folder, where the
 * packages' own dependencies are not (pnpm keeps them per package): make them plain requires,
 * which esbuild bundles (still evaluated on first use). */
const lazyRequires = {
  name: "lazy-requires",
  setup(b) {
    b.onLoad({ filter: /[\\/]packages[\\/][^\\/]+[\\/]dist[\\/].*\.js$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes("createRequire(import.meta.url)(")) return undefined;
      return { contents: text.replaceAll("createRequire(import.meta.url)(", "require("), loader: "js" };
    });
  },
};

await build({
  entryPoints: ["dist/bin.js"],
  outfile: "dist/bin.bundle.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
  plugins: [lazyRequires],
  // Bundled CommonJS dependencies call require() for Node's built-ins.
  banner: {
    js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);',
  },
});

// Bundles an app's built CLI (dist/bin.js and the workspace packages it imports) into one file,
// dist/bin.bundle.js. Node 20's ESM loader resolves and links dozens of small modules slowly:
// for commands that run in well under a second (the evaluators) that was a tenth of their time.
// Run from the app's folder, after `tsc -b`. Apps with piscina pools are not bundled: their
// worker files are found next to the package code that starts them.
import { writeFile } from "node:fs/promises";
import { build } from "esbuild";

const out = "dist/bin.bundle.js";
const result = await build({
  entryPoints: ["dist/bin.js"],
  outfile: out,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  logLevel: "warning",
  write: false,
  // Bundled CommonJS dependencies call require() for Node's built-ins.
  banner: {
    js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);',
  },
});
for (const f of result.outputFiles) {
  // A lazy `createRequire(import.meta.url)(x)` would resolve x from the app's folder, where the
  // packages' own dependencies are not (pnpm keeps them per package): refuse such a bundle.
  if (f.path.endsWith(".js") && f.text.includes("createRequire(import.meta.url)(")) {
    console.error(
      `${out}: a lazy createRequire(import.meta.url) call was bundled; load that dependency statically`,
    );
    process.exit(1);
  }
  await writeFile(f.path, f.contents);
}

// Builds the explorer's single-page app into dist/web: one script (charts are its own SVG), one stylesheet, the page.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "dist", "web");
await mkdir(out, { recursive: true });
await build({
  entryPoints: [join(here, "app.ts")],
  outfile: join(out, "app.js"),
  bundle: true,
  format: "iife",
  target: "es2022",
  minify: true,
  legalComments: "inline",
  logLevel: "warning",
});
await writeFile(join(out, "app.css"), await readFile(join(here, "style.css"), "utf8"));
await writeFile(join(out, "index.html"), await readFile(join(here, "index.html")));

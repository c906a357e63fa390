// The page's built files (web/build.mjs writes them to dist/web), found from this module's place.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
/**
 * The `convkit` bundle is flat (apps/convkit/build.mjs: every chunk in dist/, the page in dist/web);
 * this package runs from src/server/ or dist/server/, two levels below its dist/web.
 */
const WEB_DIR =
  [join(here, "..", "dist", "web"), join(here, "..", "..", "dist", "web")].find(existsSync) ??
  join(here, "..", "..", "dist", "web");

/** One built file of the page (`index.html`, `app.js`, `app.css`). */
export function webFile(name: string): Buffer {
  return readFileSync(join(WEB_DIR, name));
}

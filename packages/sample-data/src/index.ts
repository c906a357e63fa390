// The sample data shipped inside the package (the folder `data/` beside `src/` and `dist/`), found
// from this module's own location: commands default to it from any folder and from an installed
// package, never from the current folder. The `convkit` bundle copies `data/` beside its `dist/`.
import { fileURLToPath } from "node:url";

/** The sample data folder: `clariq/`, `qulac/`, `ikat/`, `touche/`, `sources.json`. */
export const SAMPLE_DATA: string = fileURLToPath(new URL("../data/", import.meta.url));

/** A path inside the sample data folder, e.g. `sampleData("clariq")`. */
export function sampleData(...parts: string[]): string {
  return fileURLToPath(new URL(`../data/${parts.join("/")}`, import.meta.url));
}

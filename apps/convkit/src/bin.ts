// Process entry of `convkit` and of its `convkit-<command>` aliases (bin/): the version is the
// package's own, read once from package.json beside dist/.
import { readFileSync } from "node:fs";
import { tryParseJson } from "@convkit/json";
import { main } from "./main.js";

const own = tryParseJson(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const pkg = own.ok ? own.value : undefined;
// Checked, not cast: a package.json without a version (a broken install) says so instead of "undefined".
const version =
  typeof pkg === "object" && pkg !== null && "version" in pkg && typeof pkg.version === "string"
    ? pkg.version
    : "(unknown version)";

/** `convkit …` (`command` undefined) or `convkit-<command> …`. */
export function run(argv: readonly string[], command?: string): Promise<void> {
  return main(command === undefined ? argv : [command, ...argv], version);
}

// Process entry of `convkit` and of its `convkit-<command>` aliases (bin/): the version is the
// package's own, read once from package.json beside dist/.
import { readFileSync } from "node:fs";
import { main } from "./main.js";

const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/** `convkit …` (`command` undefined) or `convkit-<command> …`. */
export function run(argv: readonly string[], command?: string): Promise<void> {
  return main(command === undefined ? argv : [command, ...argv], version);
}

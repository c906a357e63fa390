// Process entry of convkit-data.
import { runSubcommands } from "@convkit/cli";
import { fetchCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runSubcommands("convkit-data", "Real dataset files for convkit.", [fetchCommand], argv);
}

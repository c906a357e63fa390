// Process entry of convkit-segment.
import { runSubcommands } from "@convkit/cli";
import { agreementCommand, runCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runSubcommands(
    "convkit-segment",
    "Documents into iKAT / MS MARCO passages (10-sentence windows, stride 5), and how well sentence splitters agree with the official passages.",
    [runCommand, agreementCommand],
    argv,
  );
}

// Process entry of convkit-segment.
import { runSubcommands } from "@convkit/cli";
import { agreementCommand, segmentRunCommand, sentencesCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runSubcommands(
    "convkit-segment",
    "Documents into iKAT / MS MARCO passages (10-sentence windows, stride 5), texts into sentences, and how well sentence splitters agree with the official passages.",
    [segmentRunCommand, sentencesCommand, agreementCommand],
    argv,
  );
}

// Process entry of convkit-touche.
import { runSubcommands } from "@convkit/cli";
import { evalCommand, toucheRunCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runSubcommands(
    "convkit-touche",
    "Touché 2021 Task 1 (argument retrieval on args.me): a TIRA-style retrieval command and nDCG@5 evaluation for relevance and quality.",
    [toucheRunCommand, evalCommand],
    argv,
  );
}

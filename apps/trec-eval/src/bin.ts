// Process entry of convkit-trec-eval.
import { runMain } from "@convkit/cli";
import { trecEvalCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runMain(trecEvalCommand, argv);
}

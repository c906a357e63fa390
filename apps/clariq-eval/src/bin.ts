// Process entry of convkit-clariq-eval.
import { runMain } from "@convkit/cli";
import { clariqEvalCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runMain(clariqEvalCommand, argv);
}

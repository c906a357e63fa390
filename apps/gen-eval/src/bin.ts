// Process entry of convkit-gen-eval.
import { runMain } from "@convkit/cli";
import { genEvalCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runMain(genEvalCommand, argv);
}

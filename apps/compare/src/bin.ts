// Process entry of convkit-compare.
import { runMain } from "@convkit/cli";
import { compareCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runMain(compareCommand, argv);
}

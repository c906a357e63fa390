// Process entry of convkit-worker.
import { runMain } from "@convkit/cli";
import { workerCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runMain(workerCommand, argv);
}

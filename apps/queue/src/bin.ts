// Process entry of convkit-queue.
import { runSubcommands } from "@convkit/cli";
import { cleanCommand, retryCommand, statusCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runSubcommands(
    "convkit-queue",
    "What convkit's queue holds, per run: units waiting, running, done and failed; retry failed units; remove a run's jobs.",
    [statusCommand, retryCommand, cleanCommand],
    argv,
  );
}

// Process entry of convkit-baselines.
import { runSubcommands } from "@convkit/cli";
import {
  clarificationNeedCommand,
  multiTurnCommand,
  noQuestionCommand,
  oracleCommand,
  singleTurnCommand,
} from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runSubcommands(
    "convkit-baselines",
    "ClariQ's baselines on convkit's exact NLTK pipeline and BM25.",
    [singleTurnCommand, multiTurnCommand, noQuestionCommand, clarificationNeedCommand, oracleCommand],
    argv,
  );
}

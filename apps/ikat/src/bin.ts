// Process entry of convkit-ikat.
import { runSubcommands } from "@convkit/cli";
import {
  buildDbCommand,
  evalCitationsCommand,
  evalPassagesCommand,
  evalPtkbCommand,
  flattenCommand,
  ikatConvertCommand,
  validateCommand,
} from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runSubcommands(
    "convkit-ikat",
    "TREC iKAT 2023-2025: run validation, conversion to and from TREC runs, topics flattened into turns, PTKB, passage and citation evaluation, the passage-id database.",
    [
      validateCommand,
      ikatConvertCommand,
      flattenCommand,
      evalPtkbCommand,
      evalPassagesCommand,
      evalCitationsCommand,
      buildDbCommand,
    ],
    argv,
  );
}

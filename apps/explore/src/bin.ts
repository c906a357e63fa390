// Process entry of convkit-explore.
import { runMain } from "@convkit/cli";
import { exploreCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runMain(exploreCommand, argv);
}

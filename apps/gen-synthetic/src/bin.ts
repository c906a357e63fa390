// Process entry of convkit-gen-synthetic.
import { runMain } from "@convkit/cli";
import { genSyntheticCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runMain(genSyntheticCommand, argv);
}

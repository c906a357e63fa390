// Process entry of convkit-convert.
import { runMain } from "@convkit/cli";
import { convertCommand } from "./index.js";

export function main(argv: string[]): Promise<void> {
  return runMain(convertCommand, argv);
}

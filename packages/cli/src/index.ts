// @convkit/cli: the plumbing every convkit-* app shares.
export {
  type CommandSpec,
  exitCodeOf,
  helpText,
  type OptionSpec,
  type OptionValues,
  parseCommand,
  runMain,
  runSubcommands,
} from "./command.js";
export { type Progress, startProgress } from "./progress.js";
export { parseShard } from "./values.js";

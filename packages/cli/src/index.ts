// @convkit/cli: the plumbing every convkit-* app shares.
export {
  type CommandSpec,
  defineCommand,
  exitCodeOf,
  guardStdout,
  helpText,
  type OptionKind,
  type OptionSpec,
  type OptionValues,
  type OptionValuesOf,
  PARQUET_COMPRESSION_OPTION,
  parseCommand,
  runMain,
  runSubcommands,
} from "./command.js";
export { type Progress, startProgress, stderrReport } from "./progress.js";

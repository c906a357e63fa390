// `convkit <command> …`: dispatches to an app's process entry; `--version`, `help [COMMAND]`.
import { guardStdout } from "@convkit/cli";
import { COMMANDS } from "./commands.js";

/** What `convkit --help` and `convkit help` print. */
function usageText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length)) + 2;
  const list = Object.entries(COMMANDS)
    .map(([name, c]) => `  ${name.padEnd(width)}${c.summary}`)
    .join("\n");
  return `usage: convkit <command> [options]

ClariQ, Qulac, TREC iKAT and Touché into training and evaluation artifacts, with the numbers and
bytes of the upstream tools.

commands:
${list}

Run 'convkit help <command>' or 'convkit <command> --help' for its options; every command is also
installed as convkit-<command>. 'convkit --version' prints the version.
`;
}

/**
 * Runs `convkit` with `argv` (after the program name); `version` is the package's. Exit codes: an
 * app's own (0, 1, 2), 2 for an unknown command.
 */
export async function main(argv: readonly string[], version: string): Promise<void> {
  const [first, ...rest] = argv;
  // convkit's own text (help, version) written as the commands write theirs: a failing stdout (a
  // full disk) is one line and exit 1, a closed pipe quiet.
  guardStdout("convkit");
  if (first === "--version" || first === "-V") {
    process.stdout.write(`convkit ${version}\n`);
    return;
  }
  if (first === undefined || first === "--help" || first === "-h") {
    process.stdout.write(usageText());
    if (first === undefined) process.exitCode = 2;
    return;
  }
  if (first === "help") {
    if (rest[0] === undefined) {
      process.stdout.write(usageText());
      return;
    }
    return main([rest[0], "--help"], version);
  }
  const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (!command) {
    process.stderr.write(`convkit: unknown command ${JSON.stringify(first)}; try 'convkit --help'\n`);
    process.exitCode = 2;
    return;
  }
  if (rest.length === 1 && (rest[0] === "--version" || rest[0] === "-V")) {
    process.stdout.write(`convkit ${version}\n`);
    return;
  }
  await (await command.load()).main(rest);
}

// Commands as data: declared options, --help text, parsing, and the one place errors become exit codes.
import { parseArgs } from "node:util";
import { ConvkitError, removePendingTempFiles, UsageError } from "@convkit/io";

/** One option of a command. `name` is the long flag as users type it (`out`, `eval_task`). */
export interface OptionSpec {
  readonly name: string;
  readonly short?: string;
  readonly type: "string" | "boolean";
  readonly description: string;
  readonly default?: string | boolean;
  /** Allowed values for a string option. */
  readonly choices?: readonly string[];
  readonly required?: boolean;
  readonly metavar?: string;
  /** May be given several times (values collected in order). */
  readonly multiple?: boolean;
}

/** Parsed values: strings for string options, booleans for flags. */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** A command: what it is called, its options and positionals, and what it runs. */
export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly usage?: string;
  readonly options: readonly OptionSpec[];
  readonly positionals?: {
    readonly name: string;
    readonly description: string;
    readonly min?: number;
    readonly max?: number;
  };
  readonly examples?: readonly string[];
  run(options: OptionValues, positionals: string[]): Promise<number | undefined> | number | undefined;
}

/** The `--help` text of a command. */
export function helpText(cmd: CommandSpec): string {
  const pos = cmd.positionals ? ` ${cmd.positionals.name}` : "";
  const lines = [`usage: ${cmd.usage ?? `${cmd.name} [options]${pos}`}`, "", cmd.summary, ""];
  if (cmd.positionals)
    lines.push("arguments:", `  ${cmd.positionals.name.padEnd(24)}  ${cmd.positionals.description}`, "");
  lines.push("options:");
  lines.push(`  ${"-h, --help".padEnd(24)}  show this help message and exit`);
  for (const o of cmd.options) {
    const flag = `${o.short ? `-${o.short}, ` : ""}--${o.name}${o.type === "string" ? ` ${o.metavar ?? o.name.toUpperCase()}` : ""}`;
    const extra = [
      o.choices ? `one of ${o.choices.join("|")}` : "",
      o.default !== undefined && o.default !== false ? `default: ${o.default}` : "",
      o.required ? "required" : "",
    ].filter(Boolean);
    lines.push(`  ${flag.padEnd(24)}  ${o.description}${extra.length ? ` (${extra.join("; ")})` : ""}`);
  }
  if (cmd.examples?.length) lines.push("", "examples:", ...cmd.examples.map((e) => `  ${e}`));
  return `${lines.join("\n")}\n`;
}

/** Parses argv against the spec; wrong usage is a {@link UsageError}. */
export function parseCommand(
  cmd: CommandSpec,
  argv: string[],
): { options: OptionValues; positionals: string[]; help: boolean } {
  const spec: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = {
    help: { type: "boolean", short: "h" },
  };
  for (const o of cmd.options) {
    spec[o.name] = {
      type: o.type,
      ...(o.short ? { short: o.short } : {}),
      ...(o.multiple ? { multiple: true } : {}),
    };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: spec, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${cmd.name}: ${(e as Error).message.split("\n")[0]}`);
  }
  const values = parsed.values as OptionValues;
  if (values.help) return { options: values, positionals: parsed.positionals, help: true };
  for (const o of cmd.options) {
    if (values[o.name] === undefined && o.default !== undefined) values[o.name] = o.default;
    const v = values[o.name];
    if (o.required && v === undefined)
      throw new UsageError(`${cmd.name}: the option --${o.name} is required`);
    if (o.choices && typeof v === "string" && !o.choices.includes(v)) {
      throw new UsageError(
        `${cmd.name}: --${o.name} must be one of ${o.choices.join(", ")}, not ${JSON.stringify(v)}`,
      );
    }
  }
  const p = cmd.positionals;
  const n = parsed.positionals.length;
  if (p && p.min !== undefined && n < p.min) throw new UsageError(`${cmd.name}: expected ${p.name}`);
  if ((!p && n > 0) || (p?.max !== undefined && n > p.max))
    throw new UsageError(`${cmd.name}: unexpected argument ${JSON.stringify(parsed.positionals.at(-1))}`);
  return { options: values, positionals: parsed.positionals, help: false };
}

/** Exit code of an error: convkit's typed errors carry theirs (2 for bad input/usage), the rest 1. */
export function exitCodeOf(e: unknown): number {
  return e instanceof ConvkitError ? e.exitCode : 1;
}

/** Runs a command as a process: --help, errors as one line on stderr, temp files removed on signals. */
export async function runMain(cmd: CommandSpec, argv: string[]): Promise<void> {
  const onSignal = (sig: NodeJS.Signals) => {
    removePendingTempFiles();
    process.exit(sig === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  // A closed pipe (`| head`) ends the job quietly, as Unix tools do.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e;
    removePendingTempFiles();
    process.exit(0);
  });
  let code: number;
  try {
    const { options, positionals, help } = parseCommand(cmd, argv);
    if (help) {
      process.stdout.write(helpText(cmd));
      code = 0;
    } else code = (await cmd.run(options, positionals)) ?? 0;
  } catch (e) {
    const msg = e instanceof ConvkitError ? e.message : `${cmd.name}: ${(e as Error)?.stack ?? String(e)}`;
    process.stderr.write(`${msg}\n`);
    if (e instanceof UsageError) process.stderr.write(`Try '${cmd.name} --help'.\n`);
    code = exitCodeOf(e);
  }
  process.exitCode = code;
}

/** Runs `name <command> …`: dispatches to one of several commands (each with its own --help). */
export async function runSubcommands(
  name: string,
  summary: string,
  subs: readonly CommandSpec[],
  argv: string[],
): Promise<void> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "-h" || first === "--help") {
    const list = subs.map((s) => `  ${s.name.split(" ").at(-1)!.padEnd(12)}${s.summary}`).join("\n");
    process.stdout.write(
      `usage: ${name} <command> [options]\n\n${summary}\n\ncommands:\n${list}\n\nRun '${name} <command> --help' for its options.\n`,
    );
    if (first === undefined) process.exitCode = 2;
    return;
  }
  const sub = subs.find((s) => s.name.split(" ").at(-1) === first);
  if (!sub) {
    process.stderr.write(`${name}: unknown command ${JSON.stringify(first)}; try '${name} --help'\n`);
    process.exitCode = 2;
    return;
  }
  await runMain(sub, rest);
}

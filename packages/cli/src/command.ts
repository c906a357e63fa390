// Commands as data: declared options, --help text, parsing, and the one place errors become exit codes.
import { parseArgs } from "node:util";
import {
  ConvkitError,
  DEFAULT_INPUT_LIMITS,
  messageOf,
  OutputError,
  releaseStdin,
  removePendingTempFiles,
  setInputLimits,
  UsageError,
  writeStdout,
} from "@convkit/io";

/**
 * What an option takes. `integer`, `number`, `list` (comma-separated) and `shard` (`I/N`) are
 * checked and converted at parse time: `--depth abc` is a usage error, never a NaN in the job.
 */
export type OptionKind = "string" | "boolean" | "integer" | "number" | "list" | "shard";

/** One option of a command. `name` is the long flag as users type it (`out`, `eval_task`). */
export interface OptionSpec {
  readonly name: string;
  readonly short?: string;
  readonly type: OptionKind;
  readonly description: string;
  /** The value when the option is absent, in the option's own type (`default: 30` for an integer). */
  readonly default?: string | boolean | number | readonly string[];
  /** Allowed values of a string option, or of each item of a list. */
  readonly choices?: readonly string[];
  readonly required?: boolean;
  readonly metavar?: string;
  /** May be given several times (values collected in order). */
  readonly multiple?: boolean;
  /** Smallest value of an integer or number option (unbounded when absent). */
  readonly min?: number;
}

/** Parsed values of any command (what {@link CommandSpec.run} receives once types are erased). */
export type OptionValues = Record<string, unknown>;

/** The value type an option declaration gives. */
type ScalarOf<O extends OptionSpec> = O["type"] extends "boolean"
  ? boolean
  : O["type"] extends "integer" | "number"
    ? number
    : O["type"] extends "shard"
      ? [number, number]
      : O["type"] extends "list"
        ? O extends { readonly choices: readonly (infer C)[] }
          ? C[]
          : string[]
        : O extends { readonly choices: readonly (infer C)[] }
          ? C
          : string;

type ValueOf<O extends OptionSpec> = O extends { readonly multiple: true } ? ScalarOf<O>[] : ScalarOf<O>;

/** Whether an option always has a value (flags are false when absent). */
type AlwaysSet<O extends OptionSpec> = O extends { readonly required: true }
  ? true
  : O extends { readonly default: string | boolean | number | readonly string[] }
    ? true
    : O["type"] extends "boolean"
      ? true
      : O extends { readonly multiple: true }
        ? true
        : false;

/** The parsed values of a command's declared options, typed from the declarations. */
export type OptionValuesOf<Os extends readonly OptionSpec[]> = {
  [O in Os[number] as O["name"]]: AlwaysSet<O> extends true ? ValueOf<O> : ValueOf<O> | undefined;
};

/** A command's arguments: at least `min` (default 0), at most `max` (default: any number). */
export interface PositionalSpec {
  readonly name: string;
  readonly description: string;
  readonly min?: number;
  readonly max?: number;
}

/** `N` times `T`. */
type Repeat<N extends number, T, Acc extends T[] = []> = Acc["length"] extends N
  ? Acc
  : Repeat<N, T, [...Acc, T]>;

/** `Acc` and each longer tuple of strings up to `Max` items. */
type UpTo<Max extends number, Acc extends string[]> = Acc["length"] extends Max
  ? Acc
  : Acc | UpTo<Max, [...Acc, string]>;

/**
 * The arguments `run` receives, typed from the declaration: the first `min` are strings, the
 * optional ones up to `max` string | undefined, past them (no `max`) a rest: `[file]` needs no `!`.
 */
export type PositionalsOf<P> = P extends PositionalSpec
  ? Repeat<P["min"] extends number ? P["min"] : 0, string> extends infer R extends string[]
    ? P["max"] extends number
      ? UpTo<P["max"], R>
      : [...R, ...string[]]
    : never
  : [];

/** A command: what it is called, its options and positionals, and what it runs. */
export interface CommandSpec<Values = OptionValues, Positionals extends string[] = string[]> {
  readonly name: string;
  readonly summary: string;
  readonly usage?: string;
  readonly options: readonly OptionSpec[];
  readonly positionals?: PositionalSpec;
  readonly examples?: readonly string[];
  /**
   * The command stops gracefully on SIGTERM / SIGINT itself (a queue worker finishing its job);
   * otherwise a signal removes pending temp files and exits at once.
   */
  readonly ownsSignals?: boolean;
  run(options: Values, positionals: Positionals): Promise<number | undefined> | number | undefined;
}

/**
 * Declares a command; `run` receives its option values typed from `options` (an integer option
 * gives a number, a flag a boolean, `choices` a union) and its arguments from `positionals`
 * (parseCommand checks their count), so apps need no casts and no `!`.
 */
export function defineCommand<
  const Os extends readonly OptionSpec[],
  const P extends PositionalSpec | undefined = undefined,
>(
  cmd: Omit<CommandSpec<OptionValuesOf<Os>, PositionalsOf<P>>, "options" | "positionals"> & {
    readonly options: Os;
    readonly positionals?: P;
  },
): CommandSpec {
  return cmd as unknown as CommandSpec;
}

// ---- Input limits: options of every command, setting the one policy every reader of
// @convkit/io follows (how long a line, how much of one input held whole).

const LIMIT_OPTIONS: readonly OptionSpec[] = [
  {
    name: "max-line-bytes",
    type: "integer",
    min: 1,
    metavar: "N",
    default: DEFAULT_INPUT_LIMITS.lineBytes,
    description: "refuse a line of an input longer than N bytes, reading no further into it",
  },
  {
    name: "max-input-bytes",
    type: "integer",
    min: 1,
    metavar: "N",
    default: DEFAULT_INPUT_LIMITS.wholeBytes,
    description:
      "refuse to hold more than N bytes of one input whole (a JSON document, a qrels file, an archive's member unpacked), counted after decompression; inputs read line by line have no total",
  },
];

/** A command's own options, then the limits. */
function allOptions(cmd: CommandSpec): readonly OptionSpec[] {
  return [...cmd.options, ...LIMIT_OPTIONS];
}

/**
 * Sets the process's input limits from the limit options given (the others keep their defaults);
 * they are not among the values the command's `run` receives.
 */
function applyInputLimits(command: string, raw: Record<string, unknown>): void {
  const [line, whole] = LIMIT_OPTIONS.map((o) => {
    const v = raw[o.name];
    return typeof v === "string" ? (optionValue(command, o, v) as number) : undefined;
  });
  setInputLimits({
    ...(line === undefined ? {} : { lineBytes: line }),
    ...(whole === undefined ? {} : { wholeBytes: whole }),
  });
}

// ---- end of input limits

/** The `--help` text of a command. */
export function helpText(cmd: CommandSpec): string {
  const pos = cmd.positionals ? ` ${cmd.positionals.name}` : "";
  const lines = [`usage: ${cmd.usage ?? `${cmd.name} [options]${pos}`}`, "", cmd.summary, ""];
  if (cmd.positionals)
    lines.push("arguments:", `  ${cmd.positionals.name.padEnd(24)}  ${cmd.positionals.description}`, "");
  lines.push("options:");
  lines.push(`  ${"-h, --help".padEnd(24)}  show this help message and exit`);
  for (const o of allOptions(cmd)) {
    const flag = `${o.short ? `-${o.short}, ` : ""}--${o.name}${o.type === "boolean" ? "" : ` ${o.metavar ?? o.name.toUpperCase()}`}`;
    const extra = [
      o.choices ? `one of ${o.choices.join("|")}` : "",
      o.default !== undefined && o.default !== false ? `default: ${String(o.default)}` : "",
      o.required ? "required" : "",
    ].filter(Boolean);
    lines.push(`  ${flag.padEnd(24)}  ${o.description}${extra.length ? ` (${extra.join("; ")})` : ""}`);
  }
  if (cmd.examples?.length) lines.push("", "examples:", ...cmd.examples.map((e) => `  ${e}`));
  return `${lines.join("\n")}\n`;
}

/** One given value of an option, checked and converted to the option's kind. */
function optionValue(command: string, o: OptionSpec, v: string | boolean): unknown {
  if (typeof v === "boolean") return v;
  const bad = (what: string) =>
    new UsageError(`${command}: --${o.name} takes ${what}, not ${JSON.stringify(v)}`);
  const checkChoice = (x: string) => {
    if (o.choices && !o.choices.includes(x))
      throw new UsageError(
        `${command}: --${o.name} must be one of ${o.choices.join(", ")}, not ${JSON.stringify(x)}`,
      );
    return x;
  };
  switch (o.type) {
    case "integer":
    case "number": {
      const n = o.type === "integer" ? (/^[+-]?\d+$/.test(v.trim()) ? Number(v) : Number.NaN) : Number(v);
      const what = o.type === "integer" ? "an integer" : "a number";
      if (v.trim() === "" || !Number.isFinite(n)) throw bad(what);
      if (o.min !== undefined && n < o.min) throw bad(`${what} >= ${o.min}`);
      return n;
    }
    case "list": {
      const items = v.split(",").map((x) => x.trim());
      if (items.some((x) => x === "")) throw bad("a comma-separated list without empty items");
      return items.map(checkChoice);
    }
    case "shard": {
      const m = /^(\d+)\/(\d+)$/.exec(v);
      if (!m || Number(m[1]) >= Number(m[2])) throw bad("I/N with 0 <= I < N");
      return [Number(m[1]), Number(m[2])];
    }
    default:
      return checkChoice(v);
  }
}

/** Parses argv against the spec; wrong usage is a {@link UsageError}. */
export function parseCommand(
  cmd: CommandSpec,
  argv: string[],
): { options: OptionValues; positionals: string[]; help: boolean } {
  const spec: Record<string, { type: "string" | "boolean"; short?: string; multiple?: boolean }> = {
    help: { type: "boolean", short: "h" },
  };
  for (const o of allOptions(cmd)) {
    spec[o.name] = {
      type: o.type === "boolean" ? "boolean" : "string",
      ...(o.short ? { short: o.short } : {}),
      ...(o.multiple ? { multiple: true } : {}),
    };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options: spec, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${cmd.name}: ${messageOf(e).split("\n")[0]}`);
  }
  const raw = parsed.values as Record<string, string | boolean | (string | boolean)[] | undefined>;
  const values: OptionValues = {};
  if (raw.help) return { options: values, positionals: parsed.positionals, help: true };
  applyInputLimits(cmd.name, raw);
  for (const o of cmd.options) {
    const given = raw[o.name];
    if (given === undefined) {
      if (o.required) throw new UsageError(`${cmd.name}: the option --${o.name} is required`);
      values[o.name] =
        o.default !== undefined ? o.default : o.type === "boolean" ? false : o.multiple ? [] : undefined;
      continue;
    }
    const convert = (v: string | boolean) => optionValue(cmd.name, o, v);
    values[o.name] = Array.isArray(given) ? given.map(convert) : convert(given);
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

/**
 * Ends the process now with `sig`'s own status (the shell sees 128+N, a parent "killed by SIGTERM"),
 * its temp files removed. Not process.exit: that hangs while a libuv thread is blocked in a
 * system call (open() of a FIFO nobody writes); a signal with its default action does not.
 */
function dieBySignal(sig: NodeJS.Signals): void {
  removePendingTempFiles();
  process.removeAllListeners(sig);
  process.kill(process.pid, sig);
}

/** Errors only a write can cause: one line even when the write did not go through the sink. */
const WRITE_ONLY_CODES = new Set(["ENOSPC", "EROFS", "EDQUOT", "EFBIG"]);

function asOutputError(e: unknown): unknown {
  const err = e as NodeJS.ErrnoException | null;
  return err instanceof Error && err.code !== undefined && WRITE_ONLY_CODES.has(err.code)
    ? OutputError.of(err.path ?? "output", err)
    : e;
}

/** The command named in a failing stdout's line (the innermost that guarded it). */
let stdoutOwner: string | undefined;

/**
 * Makes a failing stdout end the process, whichever write failed: a closed pipe (`| head`)
 * quietly with exit 0, anything else (a full disk, /dev/full, EIO) with one line and exit 1,
 * temp files removed. Installed once per process; `name` is the command named in the line.
 */
export function guardStdout(name: string): void {
  const first = stdoutOwner === undefined;
  stdoutOwner = name;
  if (!first) return;
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    removePendingTempFiles();
    if (e.code === "EPIPE") process.exit(0);
    process.stderr.write(`${stdoutOwner}: ${OutputError.of("-", e).message}\n`);
    process.exit(1);
  });
}

/**
 * Runs a command as a process: --help, errors as one line on stderr, temp files removed on signals
 * (then the signal re-raised: exit 130 / 143), a failing stdout one line and exit 1 (a closed
 * pipe, as `| head` closes it, quietly exit 0), and a command that never finished an error.
 */
export async function runMain(cmd: CommandSpec, argv: string[]): Promise<void> {
  let settled = false;
  if (!cmd.ownsSignals) {
    process.once("SIGINT", dieBySignal);
    process.once("SIGTERM", dieBySignal);
  }
  guardStdout(cmd.name);
  // The event loop emptied while the command was still waiting: a promise that can never settle
  // (an output's failure that no wait saw). Node would exit 0 with the work undone: say so instead.
  const unfinished = () => {
    if (settled) return;
    settled = true;
    removePendingTempFiles();
    process.stderr.write(`${cmd.name}: stopped with its work unfinished (a wait that could never end)\n`);
    process.exitCode = 1;
  };
  process.once("beforeExit", unfinished);
  let code: number;
  try {
    const { options, positionals, help } = parseCommand(cmd, argv);
    if (help) {
      await writeStdout(helpText(cmd));
      code = 0;
    } else code = (await cmd.run(options, positionals)) ?? 0;
  } catch (caught) {
    removePendingTempFiles();
    const e = asOutputError(caught);
    const msg =
      e instanceof OutputError
        ? `${cmd.name}: ${e.message}`
        : e instanceof ConvkitError
          ? e.message
          : `${cmd.name}: ${(e instanceof Error && e.stack) || String(e)}`;
    process.stderr.write(`${msg}\n`);
    if (e instanceof UsageError) process.stderr.write(`Try '${cmd.name} --help'.\n`);
    code = exitCodeOf(e);
  } finally {
    releaseStdin();
  }
  settled = true;
  process.off("beforeExit", unfinished);
  process.exitCode = code;
}

/** A subcommand's own name: its command name's last word (`eval-passages` of `convkit-ikat eval-passages`). */
const subName = (s: CommandSpec): string => s.name.slice(s.name.lastIndexOf(" ") + 1);

/** Runs `name <command> …`: dispatches to one of several commands (each with its own --help). */
export async function runSubcommands(
  name: string,
  summary: string,
  subs: readonly CommandSpec[],
  argv: string[],
): Promise<void> {
  guardStdout(name);
  const [first, ...rest] = argv;
  if (first === undefined || first === "-h" || first === "--help") {
    // Padded to the longest name (and two spaces more): a name as long as the padding ran into its summary.
    const rows = subs.map((s) => ({ name: subName(s), summary: s.summary }));
    const width = Math.max(10, ...rows.map((r) => r.name.length)) + 2;
    const list = rows.map((r) => `  ${r.name.padEnd(width)}${r.summary}`).join("\n");
    await writeStdout(
      `usage: ${name} <command> [options]\n\n${summary}\n\ncommands:\n${list}\n\nRun '${name} <command> --help' for its options.\n`,
    );
    if (first === undefined) process.exitCode = 2;
    return;
  }
  const sub = subs.find((s) => subName(s) === first);
  if (!sub) {
    process.stderr.write(`${name}: unknown command ${JSON.stringify(first)}; try '${name} --help'\n`);
    process.exitCode = 2;
    return;
  }
  await runMain(sub, rest);
}

/**
 * `--compression`: how a command's Parquet outputs compress their pages (pyarrow's and pandas'
 * `compression` argument); every command that writes Parquet declares this one.
 */
export const PARQUET_COMPRESSION_OPTION = {
  name: "compression",
  type: "string",
  choices: ["zstd", "snappy", "none"],
  default: "zstd",
  metavar: "CODEC",
  description: "page compression of Parquet outputs (pyarrow's `compression`)",
} as const satisfies OptionSpec;

// Typed errors shared by every package: bad input (exit 2), bad usage (exit 2), the rest (exit 1).
//
// Each class has a stable `code`, the name it crosses worker threads and Redis by (see
// error-codec.ts) and that scripts may test; never reworded, one per class:
//   "error"     ConvkitError, any failure of convkit's own that is not one below (exit 1)
//   "input"     InputError: malformed input, `FILE:LINE[:COL]: expected …, found …` (exit 2)
//   "usage"     UsageError: wrong flags or arguments (exit 2)
//   "output"    OutputError: an output that cannot be written (exit 1)
//   "download"  DownloadError (download.ts): an HTTP status or network failure (exit 1)
//   "job-data"  JobDataError (@convkit/queue): a job's data not what its kind says (exit 1)
// Every class takes ES2022's `{ cause }`: the error it stands for, kept through the codec.

/** Where in an input a problem sits: a line (1-based, optional 1-based column) or a byte offset. */
export type InputLocation =
  | { line: number; col?: number }
  | { offset: number }
  | { row: number }
  | Record<string, never>;

/** Base class of convkit's own errors; `exitCode` is what a CLI exits with, `code` names the class. */
export class ConvkitError extends Error {
  readonly code: string = "error";
  readonly exitCode: number = 1;
}

/** Malformed input: renders as one line `FILE:LINE[:COL]: expected …, found …`. */
export class InputError extends ConvkitError {
  override readonly code = "input";
  override readonly exitCode = 2;
  constructor(
    readonly file: string,
    readonly location: InputLocation,
    readonly expected: string,
    readonly found: string,
    options?: ErrorOptions,
  ) {
    super(
      `${file}${formatLocation(location)}: expected ${oneLine(expected)}, found ${oneLine(found)}`,
      options,
    );
    this.name = "InputError";
  }
}

/** Whether bytes (or their text) start as a Parquet file does (`PAR1`). */
export function isParquetHead(head: Uint8Array | string): boolean {
  if (typeof head === "string") return head.startsWith("PAR1");
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x41 && head[2] === 0x52 && head[3] === 0x31;
}

/**
 * A reader of JSON Lines (or JSON, or text) whose file's first line or bytes do not parse: when
 * the file is Parquet, one line saying so and how to get the lines, in place of its binary bytes.
 * `head`: the start of the file (bytes, or the first line's text).
 */
export function throwIfParquet(file: string, head: Uint8Array | string): void {
  if (!isParquetHead(head)) return;
  const e = new InputError(file, {}, "JSON Lines", "a Parquet file");
  e.message = `${file}: a Parquet file, where this option reads JSON Lines (convkit convert ${file} gives them)`;
  throw e;
}

/** Wrong flags or arguments. */
export class UsageError extends ConvkitError {
  override readonly code = "usage";
  override readonly exitCode = 2;
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "UsageError";
  }
}

/** Line breaks shown escaped: the message must stay one line (a parser's excerpt may hold a newline). */
function oneLine(s: string): string {
  return s.replace(/\r/g, "\\r").replace(/\n/g, "\\n");
}

function formatLocation(location: InputLocation): string {
  if ("line" in location)
    return location.col === undefined ? `:${location.line}` : `:${location.line}:${location.col}`;
  if ("offset" in location) return `:byte ${location.offset}`;
  if ("row" in location) return `:row ${location.row}`;
  return "";
}

/** Shortens a found value for an error message, keeping it on one line. */
export function describeFound(value: string, max = 40): string {
  const shown = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(shown);
}

/** The message of anything thrown (an Error's, else the value as text): no cast on a catch's unknown. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Anything thrown as an Error (a non-error as one with its text), for an API that takes only an Error. */
export function asError(e: unknown): Error {
  return e instanceof Error ? e : new Error(String(e));
}

/**
 * An output that cannot be written (full disk, read-only folder, a directory where the file goes,
 * a stdout that fails): one line `cannot write PATH: no space left on device`, exit 1.
 */
export class OutputError extends ConvkitError {
  override readonly code = "output";
  /** `errno`: the system's code (`ENOSPC`), when a system call failed. */
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly errno?: string,
    options?: ErrorOptions,
  ) {
    super(`cannot write ${path}: ${reason}`, options);
    this.name = "OutputError";
  }

  /** The error of an operation on output `path` (`-`: stdout) as an OutputError, in libuv's words. */
  static of(path: string, e: unknown): OutputError {
    if (e instanceof OutputError) return e;
    const err = e as NodeJS.ErrnoException;
    // Node's message is `CODE: description, syscall 'path'`: the description is libuv's strerror.
    const reason = /^E[A-Z0-9]+: ([^,]+)/.exec(err?.message ?? "")?.[1] ?? messageOf(e);
    return new OutputError(path === "-" ? "stdout" : path, reason, err?.code, { cause: e });
  }
}

// Typed errors shared by every package: bad input (exit 2), bad usage (exit 2), the rest (exit 1).

/** Where in an input a problem sits: a line (1-based, optional 1-based column) or a byte offset. */
export type InputLocation =
  | { line: number; col?: number }
  | { offset: number }
  | { row: number }
  | Record<string, never>;

/** Base class of convkit's own errors; `exitCode` is what a CLI exits with. */
export class ConvkitError extends Error {
  readonly exitCode: number = 1;
}

/** Malformed input: renders as one line `FILE:LINE[:COL]: expected …, found …`. */
export class InputError extends ConvkitError {
  override readonly exitCode = 2;
  constructor(
    readonly file: string,
    readonly location: InputLocation,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`${file}${formatLocation(location)}: expected ${oneLine(expected)}, found ${oneLine(found)}`);
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
  override readonly exitCode = 2;
  constructor(message: string) {
    super(message);
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

/** A convkit error as plain data: what survives a worker thread's structured clone (which keeps an Error's message only). */
interface ThreadError {
  convkitError: "InputError" | "UsageError";
  message: string;
  input?: [file: string, location: InputLocation, expected: string, found: string];
}

/** Thrown in a worker thread: convkit's errors as plain data ({@link errorFromThread} restores them), anything else as it is. */
export function errorForThread(e: unknown): unknown {
  if (e instanceof InputError)
    return {
      convkitError: "InputError",
      message: e.message,
      input: [e.file, e.location, e.expected, e.found],
    } satisfies ThreadError;
  if (e instanceof UsageError)
    return { convkitError: "UsageError", message: e.message } satisfies ThreadError;
  return e;
}

/** On the main thread: the error a worker threw, its class restored (so it maps to the same exit code). */
export function errorFromThread(e: unknown): unknown {
  const t = e as Partial<ThreadError> | null;
  if (typeof t !== "object" || t === null || typeof t.convkitError !== "string") return e;
  if (t.convkitError === "InputError" && t.input) return new InputError(...t.input);
  return new UsageError(t.message ?? "");
}

/** The message of anything thrown (an Error's, else the value as text): no cast on a catch's unknown. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * An output that cannot be written (full disk, read-only folder, a directory where the file goes,
 * a stdout that fails): one line `cannot write PATH: no space left on device`, exit 1.
 */
export class OutputError extends ConvkitError {
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly code?: string,
  ) {
    super(`cannot write ${path}: ${reason}`);
    this.name = "OutputError";
  }

  /** The error of an operation on output `path` (`-`: stdout) as an OutputError, in libuv's words. */
  static of(path: string, e: unknown): OutputError {
    if (e instanceof OutputError) return e;
    const err = e as NodeJS.ErrnoException;
    // Node's message is `CODE: description, syscall 'path'`: the description is libuv's strerror.
    const reason = /^E[A-Z0-9]+: ([^,]+)/.exec(err?.message ?? "")?.[1] ?? messageOf(e);
    return new OutputError(path === "-" ? "stdout" : path, reason, err?.code);
  }
}

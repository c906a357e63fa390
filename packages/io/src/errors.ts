// Typed errors shared by every package: bad input (exit 2), bad usage (exit 2), the rest (exit 1).

/** Where in an input a problem sits: a line (1-based, optional 1-based column) or a byte offset. */
export type InputLocation = { line: number; col?: number } | { offset: number } | Record<string, never>;

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
    super(`${file}${formatLocation(location)}: expected ${expected}, found ${found}`);
    this.name = "InputError";
  }
}

/** Wrong flags or arguments. */
export class UsageError extends ConvkitError {
  override readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

function formatLocation(location: InputLocation): string {
  if ("line" in location)
    return location.col === undefined ? `:${location.line}` : `:${location.line}:${location.col}`;
  if ("offset" in location) return `:byte ${location.offset}`;
  return "";
}

/** Shortens a found value for an error message, keeping it on one line. */
export function describeFound(value: string, max = 40): string {
  const shown = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(shown);
}

// JSON from outside (a user's file, a job's data back from Redis) read field by field: each field
// checked as it is taken, a mismatch one error naming the field's path. No cast: what comes in is
// untrusted until a check has said what it is.
import { describeFound, InputError, type InputLocation } from "@convkit/io";

/** Makes the error for a field that is not what was expected (`path`: `files[2].to`, "" for the whole value). */
export type Mismatch = (path: string, expected: string, found: string) => Error;

/** Mismatches in a user's file as {@link InputError}s: `FILE:LINE: expected a string in files[2].to, found 12`. */
export function inputMismatch(file: string, location: InputLocation = {}): Mismatch {
  return (path, expected, found) =>
    new InputError(file, location, path === "" ? expected : `${expected} in ${path}`, found);
}

/** A JSON value, for an error message: a string quoted and shortened, a number as written, else its type. */
export function describeValue(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return describeFound(v);
  return String(v);
}

/** A JSON object (not null, not a list): what a record read from a user's file must be before its fields are checked. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The fields of a JSON object, taken one by one and checked; optional ones may be absent (not null). */
export class Fields {
  private constructor(
    private readonly fields: ReadonlyMap<string, unknown>,
    /** Where this object is in the whole value (`files[2]`), "" at the top. */
    readonly path: string,
    private readonly mismatch: Mismatch,
    /** How a found value is shown in a mismatch ({@link describeValue} unless a reader words its own). */
    private readonly describe: (v: unknown) => string,
  ) {}

  /**
   * `value` as an object (not null, not an array), or the error `mismatch` makes. `describe` shows
   * a found value in the errors (for a reader whose messages an upstream tool's words fix).
   */
  static of(value: unknown, mismatch: Mismatch, path = "", describe = describeValue): Fields {
    if (!isJsonObject(value)) throw mismatch(path, "an object", describe(value));
    return new Fields(new Map(Object.entries(value)), path, mismatch, describe);
  }

  /** The path of a field of this object. */
  at(key: string | number): string {
    if (typeof key === "number") return `${this.path}[${key}]`;
    return this.path === "" ? key : `${this.path}.${key}`;
  }

  /** A field as it is (for a value checked elsewhere); undefined when absent. */
  get(key: string): unknown {
    return this.fields.get(key);
  }

  /** The keys present, in the object's order (JSON.parse's: integer-like keys first, ascending). */
  keys(): string[] {
    return [...this.fields.keys()];
  }

  has(key: string): boolean {
    return this.fields.get(key) !== undefined;
  }

  /** The error for a field's value. */
  fail(key: string | number, expected: string, found: unknown): Error {
    return this.mismatch(this.at(key), expected, this.describe(found));
  }

  string(key: string): string {
    const v = this.fields.get(key);
    if (typeof v !== "string") throw this.fail(key, "a string", v);
    return v;
  }

  optionalString(key: string): string | undefined {
    return this.has(key) ? this.string(key) : undefined;
  }

  /** A finite number. */
  number(key: string): number {
    const v = this.fields.get(key);
    if (typeof v !== "number" || !Number.isFinite(v)) throw this.fail(key, "a number", v);
    return v;
  }

  optionalNumber(key: string): number | undefined {
    return this.has(key) ? this.number(key) : undefined;
  }

  /** A whole number of at least `min` (0 by default). */
  integer(key: string, min = 0): number {
    const v = this.fields.get(key);
    if (typeof v !== "number" || !Number.isInteger(v) || v < min)
      throw this.fail(key, `an integer of at least ${min}`, v);
    return v;
  }

  boolean(key: string): boolean {
    const v = this.fields.get(key);
    if (typeof v !== "boolean") throw this.fail(key, "true or false", v);
    return v;
  }

  optionalBoolean(key: string): boolean | undefined {
    return this.has(key) ? this.boolean(key) : undefined;
  }

  /** One of `choices` (the narrow type kept: the value found in the list, not the field cast). */
  choice<T extends string>(key: string, choices: readonly T[]): T {
    const v = this.fields.get(key);
    const found = choices.find((c) => c === v);
    if (found === undefined) throw this.fail(key, `one of ${choices.join(", ")}`, v);
    return found;
  }

  /** An array, each element checked by `each` (given its value and its path). */
  list<T>(key: string, each: (value: unknown, path: string) => T): T[] {
    const v = this.fields.get(key);
    if (!Array.isArray(v)) throw this.fail(key, "an array", v);
    return v.map((x: unknown, i) => each(x, `${this.at(key)}[${i}]`));
  }

  strings(key: string): string[] {
    return this.list(key, (x, path) => {
      if (typeof x !== "string") throw this.mismatch(path, "a string", this.describe(x));
      return x;
    });
  }

  integers(key: string): number[] {
    return this.list(key, (x, path) => {
      if (typeof x !== "number" || !Number.isInteger(x))
        throw this.mismatch(path, "an integer", this.describe(x));
      return x;
    });
  }

  choices<T extends string>(key: string, choices: readonly T[]): T[] {
    return this.list(key, (x, path) => {
      const found = choices.find((c) => c === x);
      if (found === undefined) throw this.mismatch(path, `one of ${choices.join(", ")}`, this.describe(x));
      return found;
    });
  }

  /** A nested object. */
  object(key: string): Fields {
    return Fields.of(this.fields.get(key), this.mismatch, this.at(key), this.describe);
  }

  optionalObject(key: string): Fields | undefined {
    return this.has(key) ? this.object(key) : undefined;
  }

  /** An array of objects. */
  objects(key: string): Fields[] {
    return this.list(key, (x, path) => Fields.of(x, this.mismatch, path, this.describe));
  }
}

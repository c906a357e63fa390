// Python 3.11's json.loads / json.dumps on one line, value for value and error for error, so a
// script's verdicts that hang on them (iKAT 2025's validator and generate_run.py) can be reproduced.
import { InputError } from "@convkit/io";
import { formatPyJsonFloat, pythonJsonString } from "@convkit/pycompat";

/**
 * A value as Python's json module builds it: `int` is a bigint (any size), `float` a number,
 * `dict` a Map (insertion order; a repeated key keeps its first position and its last value).
 */
export type PyJson = null | boolean | bigint | number | string | PyJson[] | PyDict;
export type PyDict = Map<string, PyJson>;

/** A Python exception raised by the reproduced code: its type name and `str(e)`. */
export class PyException extends Error {
  constructor(
    readonly pyType: string,
    readonly pyMessage: string,
  ) {
    super(`${pyType}: ${pyMessage}`);
    this.name = "PyException";
  }
}

/** `json.JSONDecodeError`: `str(e)` is `msg: line L column C (char P)`, P counted in code points. */
export class PyJsonDecodeError extends PyException {
  constructor(
    readonly msg: string,
    readonly lineno: number,
    readonly colno: number,
    readonly pos: number,
  ) {
    super("JSONDecodeError", `${msg}: line ${lineno} column ${colno} (char ${pos})`);
  }
}

/**
 * Bad input from what Python's json raised reading `file`: a decode error at its line and column,
 * anything else (not UTF-8, nested too deep, an over-long int) as Python's own words.
 */
export function pyJsonInputError(file: string, e: PyException, expected: string): InputError {
  if (e instanceof PyJsonDecodeError)
    return new InputError(file, { line: e.lineno, col: e.colno }, expected, e.msg);
  return new InputError(file, {}, expected, e.message);
}

/** Python 3.11's default `sys.get_int_max_str_digits()`: longer int literals raise ValueError. */
const INT_MAX_STR_DIGITS = 4300;
/** Nesting past this raises RecursionError: Python 3.11 at the official scripts' depth (limit 1000, a few frames used by the callers), measured. */
const MAX_DEPTH = 994;

const isWs = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/** Thrown where C's scanner raises StopIteration(idx): decode() turns it into "Expecting value". */
class StopIteration {
  constructor(readonly idx: number) {}
}

/**
 * The 1-based line where each value of a container starts: a list's items in order, a dict's
 * values in its key order (a repeated key keeps the line of its first place, as it keeps the place).
 */
export type PyJsonLines = WeakMap<PyJson[] | PyDict, number[]>;

class Scanner {
  private depth = 0;
  /** Where the last scan ended: the scans return their value and leave their end here (no [value, end] pair allocated per value). */
  private pos = 0;
  /** The line of the last value start asked for, and the next newline after it: value starts only move forward, so one pass over the text. */
  private line = 1;
  private nextNl: number;
  constructor(
    private readonly s: string,
    private readonly lines?: PyJsonLines,
    private readonly maxDepth = MAX_DEPTH,
  ) {
    this.nextNl = lines ? s.indexOf("\n") : -1;
  }

  private lineAt(idx: number): number {
    while (this.nextNl !== -1 && this.nextNl < idx) {
      this.line++;
      this.nextNl = this.s.indexOf("\n", this.nextNl + 1);
    }
    return this.line;
  }

  fail(msg: string, idx: number): never {
    const s = this.s;
    // Positions are UTF-16 units here; Python counts code points (a pair is one).
    let pos = 0;
    let lastNl = -1;
    let lineno = 1;
    for (let i = 0; i < idx; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0xdc00 && c <= 0xdfff && i > 0 && isHigh(s.charCodeAt(i - 1))) continue;
      if (c === 0x0a) {
        lineno++;
        lastNl = pos;
      }
      pos++;
    }
    throw new PyJsonDecodeError(msg, lineno, pos - lastNl, pos);
  }

  /** A value starting at idx; its end in {@link pos}. */
  scanOnce(idx: number): PyJson {
    const s = this.s;
    if (idx >= s.length) throw new StopIteration(idx);
    const c = s.charCodeAt(idx);
    switch (c) {
      case 0x22:
        return this.scanString(idx + 1);
      case 0x7b:
      case 0x5b: {
        if (++this.depth > this.maxDepth)
          throw new PyException(
            "RecursionError",
            `maximum recursion depth exceeded while decoding a JSON ${c === 0x7b ? "object" : "array"} from a unicode string`,
          );
        const r: PyJson = c === 0x7b ? this.parseObject(idx + 1) : this.parseArray(idx + 1);
        this.depth--;
        return r;
      }
      case 0x6e:
        if (s.startsWith("null", idx)) return this.at(null, idx + 4);
        break;
      case 0x74:
        if (s.startsWith("true", idx)) return this.at(true, idx + 4);
        break;
      case 0x66:
        if (s.startsWith("false", idx)) return this.at(false, idx + 5);
        break;
      case 0x4e:
        if (s.startsWith("NaN", idx)) return this.at(Number.NaN, idx + 3);
        break;
      case 0x49:
        if (s.startsWith("Infinity", idx)) return this.at(Number.POSITIVE_INFINITY, idx + 8);
        break;
      case 0x2d:
        if (s.startsWith("-Infinity", idx)) return this.at(Number.NEGATIVE_INFINITY, idx + 9);
        break;
    }
    return this.matchNumber(idx);
  }

  /** `v`, its end (exclusive) left in {@link pos}. */
  private at<T extends PyJson>(v: T, end: number): T {
    this.pos = end;
    return v;
  }

  private matchNumber(start: number): PyJson {
    const s = this.s;
    const end = s.length - 1;
    let idx = start;
    if (s.charCodeAt(idx) === 0x2d) {
      idx++;
      if (idx > end) throw new StopIteration(start);
    }
    const c = s.charCodeAt(idx);
    if (c >= 0x31 && c <= 0x39) {
      idx++;
      while (idx <= end && isDigit(s.charCodeAt(idx))) idx++;
    } else if (c === 0x30) idx++;
    else throw new StopIteration(start);
    let isFloat = false;
    if (idx < end && s.charCodeAt(idx) === 0x2e && isDigit(s.charCodeAt(idx + 1))) {
      isFloat = true;
      idx += 2;
      while (idx <= end && isDigit(s.charCodeAt(idx))) idx++;
    }
    if (idx < end && (s.charCodeAt(idx) === 0x65 || s.charCodeAt(idx) === 0x45)) {
      const eStart = idx;
      idx++;
      if (idx < end && (s.charCodeAt(idx) === 0x2d || s.charCodeAt(idx) === 0x2b)) idx++;
      while (idx <= end && isDigit(s.charCodeAt(idx))) idx++;
      if (isDigit(s.charCodeAt(idx - 1))) isFloat = true;
      else idx = eStart;
    }
    this.pos = idx;
    const text = s.slice(start, idx);
    if (isFloat) return Number(text);
    const digits = text.length - (text.startsWith("-") ? 1 : 0);
    if (digits > INT_MAX_STR_DIGITS)
      throw new PyException(
        "ValueError",
        `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits} digits; use sys.set_int_max_str_digits() to increase the limit`,
      );
    return BigInt(text);
  }

  /** C's scanstring_unicode (strict): `end` is just past the opening quote. */
  scanString(end: number): string {
    const s = this.s;
    const len = s.length;
    const begin = end - 1;
    let out = "";
    for (;;) {
      let next = end;
      let c = 0;
      for (; next < len; next++) {
        c = s.charCodeAt(next);
        if (c === 0x22 || c === 0x5c) break;
        if (c <= 0x1f) this.fail("Invalid control character at", next);
      }
      if (next === len) this.fail("Unterminated string starting at", begin);
      if (c === 0x22) {
        this.pos = next + 1;
        // No escape before the quote: the slice itself, with no concatenation.
        return out === "" ? s.slice(end, next) : out + s.slice(end, next);
      }
      out += s.slice(end, next);
      next++;
      if (next === len) this.fail("Unterminated string starting at", begin);
      c = s.charCodeAt(next);
      if (c !== 0x75) {
        end = next + 1;
        const esc = ESCAPES[String.fromCharCode(c)];
        if (esc === undefined) this.fail("Invalid \\escape", end - 2);
        out += esc;
      } else {
        next++;
        end = next + 4;
        if (end >= len) this.fail("Invalid \\uXXXX escape", next - 1);
        const hex = s.slice(next, end);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail("Invalid \\uXXXX escape", end - 5);
        // Each escape appended as one UTF-16 unit: a high one followed by a low one is the pair
        // Python joins, and anything else stays as the lone units it keeps.
        out += String.fromCharCode(Number.parseInt(hex, 16));
      }
    }
  }

  private skipWs(idx: number): number {
    while (idx < this.s.length && isWs(this.s.charCodeAt(idx))) idx++;
    return idx;
  }

  private parseObject(idx: number): PyDict {
    const s = this.s;
    const obj: PyDict = new Map();
    const lines: number[] | undefined = this.lines ? [] : undefined;
    if (lines) this.lines?.set(obj, lines);
    idx = this.skipWs(idx);
    if (idx >= s.length || s.charCodeAt(idx) !== 0x7d) {
      for (;;) {
        if (idx >= s.length || s.charCodeAt(idx) !== 0x22)
          this.fail("Expecting property name enclosed in double quotes", idx);
        const key = this.scanString(idx + 1);
        idx = this.skipWs(this.pos);
        if (idx >= s.length || s.charCodeAt(idx) !== 0x3a) this.fail("Expecting ':' delimiter", idx);
        idx = this.skipWs(idx + 1);
        const at = lines ? this.lineAt(idx) : 0;
        const val = this.scanOnce(idx);
        if (lines) {
          const size = obj.size;
          obj.set(key, val);
          if (obj.size > size) lines.push(at);
        } else obj.set(key, val);
        idx = this.skipWs(this.pos);
        if (idx < s.length && s.charCodeAt(idx) === 0x7d) break;
        if (idx >= s.length || s.charCodeAt(idx) !== 0x2c) this.fail("Expecting ',' delimiter", idx);
        idx = this.skipWs(idx + 1);
      }
    }
    this.pos = idx + 1;
    return obj;
  }

  private parseArray(idx: number): PyJson[] {
    const s = this.s;
    const arr: PyJson[] = [];
    const lines: number[] | undefined = this.lines ? [] : undefined;
    if (lines) this.lines?.set(arr, lines);
    idx = this.skipWs(idx);
    if (idx >= s.length || s.charCodeAt(idx) !== 0x5d) {
      for (;;) {
        lines?.push(this.lineAt(idx));
        arr.push(this.scanOnce(idx));
        idx = this.skipWs(this.pos);
        if (idx < s.length && s.charCodeAt(idx) === 0x5d) break;
        if (idx >= s.length || s.charCodeAt(idx) !== 0x2c) this.fail("Expecting ',' delimiter", idx);
        idx = this.skipWs(idx + 1);
      }
    }
    this.pos = idx + 1;
    return arr;
  }

  decode(): PyJson {
    const s = this.s;
    if (s.charCodeAt(0) === 0xfeff) this.fail("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0);
    let idx = this.skipWs(0);
    let value: PyJson;
    try {
      value = this.scanOnce(idx);
      idx = this.pos;
    } catch (e) {
      if (e instanceof StopIteration) this.fail("Expecting value", e.idx);
      throw e;
    }
    idx = this.skipWs(idx);
    if (idx !== s.length) this.fail("Extra data", idx);
    return value;
  }
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;

const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/**
 * `json.loads(s)` of Python 3.11 (its C scanner): NaN and ±Infinity accepted, ints kept apart
 * from floats, repeated keys as a dict keeps them; throws PyJsonDecodeError with Python's message
 * and position, PyException for what Python raises otherwise (an over-long int, deep nesting).
 */
export function pyJsonLoads(s: string): PyJson {
  return new Scanner(s).decode();
}

/** A document json.load made, with the line each container's values start on (for findings that name it). */
export interface PyJsonDoc {
  value: PyJson;
  lines: PyJsonLines;
}

/**
 * `json.load(open(path, encoding="utf-8"))` of the bytes, as {@link pyJsonLoads} with lines, or
 * Python's UnicodeDecodeError (a PyException) where they are not UTF-8. `maxDepth`: the nesting
 * Python parses at the caller's stack depth (994 where json.load is called from a script's top
 * level; each Python frame more takes one off).
 */
export function pyJsonLoadBytes(bytes: Uint8Array, maxDepth = MAX_DEPTH): PyJsonDoc {
  const lines: PyJsonLines = new WeakMap();
  return { value: new Scanner(pyDecodeUtf8(bytes), lines, maxDepth).decode(), lines };
}

/** Python's UnicodeDecodeError of UTF-8: `start` is the offset of the first byte it cannot decode. */
export class PyUnicodeDecodeError extends PyException {
  constructor(
    readonly start: number,
    message: string,
  ) {
    super("UnicodeDecodeError", message);
  }
}

/** `bytes.decode("utf-8")`, a BOM kept as U+FEFF; {@link PyUnicodeDecodeError} with CPython's message where they are not UTF-8. */
export function pyDecodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw utf8Error(bytes);
  }
}

/** The first sequence CPython's UTF-8 decoder refuses, as it words it (bytes known not to be UTF-8). */
function utf8Error(b: Uint8Array): PyUnicodeDecodeError {
  let i = 0;
  for (;;) {
    const c = b[i] ?? 0;
    if (i >= b.length) return new PyUnicodeDecodeError(b.length, "'utf-8' codec can't decode the bytes");
    if (c < 0x80) {
      i++;
      continue;
    }
    const fail = (end: number, reason: string) =>
      new PyUnicodeDecodeError(
        i,
        `'utf-8' codec can't decode ${end - i === 1 ? `byte 0x${c.toString(16).padStart(2, "0")} in position ${i}` : `bytes in position ${i}-${end - 1}`}: ${reason}`,
      );
    if (c < 0xc2 || c > 0xf4) return fail(i + 1, "invalid start byte");
    const n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    // The second byte's range excludes overlong forms, surrogates and code points past U+10FFFF.
    const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
    const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
    let j = i + 1;
    for (let k = 1; k < n; k++, j++) {
      if (j >= b.length) return fail(j, "unexpected end of data");
      const x = b[j] ?? 0;
      if (k === 1 ? x < lo || x > hi : x < 0x80 || x > 0xbf) return fail(j, "invalid continuation byte");
    }
    i = j;
  }
}

/** Options of `json.dumps` that the reproduced scripts use. */
export interface PyDumpsOptions {
  /** Escape non-ASCII as `\uXXXX` (json.dumps's default, true). */
  ensureAscii?: boolean;
}

/** `json.dumps(v)` with its default separators `, ` and `: `, NaN/Infinity spelled as Python does. */
export function pyJsonDumps(v: PyJson, options: PyDumpsOptions = {}): string {
  const ascii = options.ensureAscii ?? true;
  const parts: string[] = [];
  dumpInto(v, ascii, parts);
  return parts.join("");
}

function dumpInto(v: PyJson, ascii: boolean, out: string[]): void {
  if (v === null) out.push("null");
  else if (v === true) out.push("true");
  else if (v === false) out.push("false");
  else if (typeof v === "bigint") out.push(v.toString());
  else if (typeof v === "number") out.push(formatPyJsonFloat(v));
  else if (typeof v === "string") out.push(pythonJsonString(v, ascii));
  else if (Array.isArray(v)) {
    out.push("[");
    v.forEach((x, i) => {
      if (i) out.push(", ");
      dumpInto(x, ascii, out);
    });
    out.push("]");
  } else {
    out.push("{");
    let first = true;
    for (const [k, x] of v) {
      if (!first) out.push(", ");
      first = false;
      out.push(pythonJsonString(k, ascii), ": ");
      dumpInto(x, ascii, out);
    }
    out.push("}");
  }
}

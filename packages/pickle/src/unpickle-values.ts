// What the general reader (unpickle.ts) makes of opcode arguments beyond their bytes: the data
// constructors a pickle may name, protocol 0's text arguments, GLOBAL's names, LONG's bytes,
// surrogate-passing UTF-8. Values only: no opcode is decoded here (that is opcode-reader.ts's job).
import { InputError } from "@convkit/io";
import { PY_STRING_ESCAPES } from "@convkit/pycompat";
import type { Op } from "./opcode-reader.js";
import * as op from "./opcodes.js";
import type { PyValue } from "./values.js";

/**
 * The only globals a pickle may name: the data constructors CPython itself emits for bytes,
 * bytearray, set and frozenset under protocols 0-3. They are interpreted here, never imported.
 */
export class DataConstructor {
  constructor(readonly kind: "encode" | "set" | "bytearray" | "bytes") {}
}
export const SAFE_GLOBALS = new Map<string, DataConstructor>([
  ["_codecs.encode", new DataConstructor("encode")],
  ["builtins.set", new DataConstructor("set")],
  ["__builtin__.set", new DataConstructor("set")],
  ["builtins.frozenset", new DataConstructor("set")],
  ["__builtin__.frozenset", new DataConstructor("set")],
  ["builtins.bytearray", new DataConstructor("bytearray")],
  ["__builtin__.bytearray", new DataConstructor("bytearray")],
  ["builtins.bytes", new DataConstructor("bytes")],
  ["__builtin__.bytes", new DataConstructor("bytes")],
]);

export function construct(c: DataConstructor, args: PyValue[]): PyValue | undefined {
  const [a, enc] = args;
  const fromText = (s: string) => Buffer.from(s, "latin1");
  switch (c.kind) {
    case "encode":
      return typeof a === "string" && (enc === "latin1" || enc === "latin-1") ? fromText(a) : undefined;
    case "bytes":
    case "bytearray":
      if (a === undefined) return Buffer.alloc(0);
      if (typeof a === "string" && (enc === "latin1" || enc === "latin-1")) return fromText(a);
      if (a instanceof Uint8Array) return Buffer.from(a);
      if (Array.isArray(a) && a.every((x) => typeof x === "number")) return Buffer.from(a as number[]);
      return undefined;
    case "set":
      if (a === undefined) return new Set();
      return Array.isArray(a) ? new Set(a) : undefined;
  }
}

export function typeName(v: unknown): string {
  if (v instanceof Map) return "a dict";
  if (typeof v === "number") return Number.isInteger(v) ? "an int" : "a float";
  if (Array.isArray(v)) return "a list";
  if (v === null) return "None";
  return typeof v;
}

/**
 * CPython's limit on the decimal digits of an int read from or written as text (int_max_str_digits,
 * Python 3.11+): a protocol-0 INT or LONG of more is refused, as CPython's pickle refuses it; past
 * it V8's decimal parse (and print) would grow faster than the text.
 */
export const MAX_INT_DIGITS = 4300;

type Fail = (expected: string, found: string) => never;

/** The int of INT's or LONG's digits `s` (`arg`: the whole argument, for the message). */
function parseIntText(s: string, arg: string, fail: Fail): number | bigint {
  if (!/^[-+]?\d+$/.test(s)) fail("a decimal integer", JSON.stringify(arg));
  const digits = s.length - (s[0] === "-" || s[0] === "+" ? 1 : 0);
  if (digits > MAX_INT_DIGITS)
    fail(`an int of at most ${MAX_INT_DIGITS} digits (CPython's int_max_str_digits)`, `${digits} digits`);
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : BigInt(s);
}

/** The value of a protocol-0 opcode with a text argument (INT, LONG, FLOAT, STRING, UNICODE). */
export function textValue(code: number, arg: string, fail: Fail): PyValue {
  switch (code) {
    case op.INT:
      if (arg === "01") return true;
      if (arg === "00") return false;
      return parseIntText(arg, arg, fail);
    case op.LONG:
      return parseIntText(arg.endsWith("L") ? arg.slice(0, -1) : arg, arg, fail);
    case op.FLOAT: {
      const v = Number(arg);
      if (Number.isNaN(v) && !/^[-+]?nan$/i.test(arg)) fail("a float", JSON.stringify(arg));
      return v;
    }
    case op.STRING:
      return unescapePythonBytes(arg, () => fail("a quoted string", JSON.stringify(arg)));
    default:
      return rawUnicodeEscape(Buffer.from(arg, "latin1"));
  }
}

/** GLOBAL's or STACK_GLOBAL's module and name (STACK_GLOBAL's from the stack), when both are known. */
export function globalName(code: number, stack: readonly unknown[], buf: Buffer, o: Op): string | undefined {
  if (code === op.STACK_GLOBAL) {
    const n = stack.at(-1);
    const m = stack.at(-2);
    return typeof n === "string" && typeof m === "string" ? `${m}.${n}` : undefined;
  }
  const at = o.data + o.arg;
  return `${buf.toString("latin1", o.data, at)}.${buf.toString("latin1", at + 1, o.next - 1)}`;
}

/** Little-endian two's complement, as LONG1/LONG4 store ints. */
export function decodeLong(buf: Buffer, start: number, n: number): number | bigint {
  if (n === 0) return 0;
  if (n <= 6) return buf.readIntLE(start, n);
  // The bytes as one big-endian hex string, parsed at once: linear (shifting a BigInt in byte by
  // byte copies it each time, quadratic: 1 MB took minutes).
  const hex = Buffer.from(buf.subarray(start, start + n))
    .reverse()
    .toString("hex");
  const u = BigInt(`0x${hex}`);
  const v = buf.readInt8(start + n - 1) < 0 ? BigInt.asIntN(8 * n, u) : u;
  return v >= MIN_SAFE && v <= MAX_SAFE ? Number(v) : v;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function decodeSurrogatePass(bytes: Buffer, name: string, offset: number): string {
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b = bytes.readUInt8(i);
    const len = b < 0x80 ? 1 : b >> 5 === 6 ? 2 : b >> 4 === 14 ? 3 : b >> 3 === 30 ? 4 : 0;
    if (len === 0)
      throw new InputError(
        name,
        { offset: offset + i },
        "UTF-8 text in a str opcode",
        `byte 0x${b.toString(16)}`,
      );
    if (i + len > bytes.length)
      throw new InputError(name, { offset: offset + i }, "a complete UTF-8 sequence", "its end");
    // The lead byte's payload, then 6 bits from each continuation byte (all within: checked above).
    let cp = len === 1 ? b : b & (0xff >> (len + 1));
    for (let k = 1; k < len; k++) cp = (cp << 6) | (bytes.readUInt8(i + k) & 0x3f);
    out += String.fromCodePoint(cp);
    i += len;
  }
  return out;
}

function unescapePythonBytes(arg: string, bad: () => never): string {
  const q = arg[0];
  if ((q !== "'" && q !== '"') || arg.length < 2 || arg[arg.length - 1] !== q) bad();
  const body = arg.slice(1, -1);
  return body.replace(/\\(x[0-9a-fA-F]{2}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === "x") return String.fromCharCode(Number.parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(Number.parseInt(e, 8));
    return PY_STRING_ESCAPES[e] ?? `\\${e}`;
  });
}

function rawUnicodeEscape(bytes: Buffer): string {
  const s = bytes.toString("latin1");
  return s.replace(/\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}/g, (e) =>
    String.fromCodePoint(Number.parseInt(e.slice(2), 16)),
  );
}

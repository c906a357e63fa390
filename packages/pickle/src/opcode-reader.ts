// The one decoder of pickle opcodes and their arguments: the general reader (unpickle.ts), the
// dict-tree scanner and BranchReader all call readOp and keep only what the opcodes mean to them.
// (The WebAssembly kernel, wasm/dict-items.ts, reads one fixed item shape in its own language.)
import * as op from "./opcodes.js";

/** readOp's answer when the opcode's bytes are cut at `end`. */
export const CUT = -1;

/**
 * One decoded opcode. A reader keeps one and readOp refills it, so decoding allocates nothing (a
 * million items make an eval dict).
 */
export class Op {
  /** The opcode byte. */
  code = 0;
  /**
   * Ints (BININT1, BININT2, BININT): the value. Memo opcodes: the index (MEMOIZE: the memo's
   * length, as given to readOp). PROTO: the protocol. FRAME: the frame's length. str, bytes and
   * LONG1/LONG4 opcodes: the byte length of the data. Text opcodes (protocol 0): the line's length;
   * GLOBAL and INST: the first line's.
   */
  arg = 0;
  /** BINFLOAT: the value. */
  float = 0;
  /** Where the data (str, bytes, long, text line) starts. */
  data = 0;
  /** Where the opcode ends. */
  next = 0;
  /** After CUT: the bytes from the opcode's start it needs, when its length says so (else 0). */
  need = 0;
}

/** Whether the opcode pushes a memo entry (BINGET, LONG_BINGET). */
export function isMemoGet(code: number): boolean {
  return code === op.BINGET || code === op.LONG_BINGET;
}

/** Whether the opcode stores the top of the stack in the memo (BINPUT, LONG_BINPUT, MEMOIZE). */
export function isMemoPut(code: number): boolean {
  return code === op.BINPUT || code === op.LONG_BINPUT || code === op.MEMOIZE;
}

/** Whether the opcode is a str (SHORT_BINUNICODE, BINUNICODE, BINUNICODE8). */
export function isStr(code: number): boolean {
  return code === op.SHORT_BINUNICODE || code === op.BINUNICODE || code === op.BINUNICODE8;
}

/** Whether the opcode is a binary int that fits 32 bits (BININT1, BININT2, BININT). */
export function isBinInt(code: number): boolean {
  return code === op.BININT1 || code === op.BININT2 || code === op.BININT;
}

function done(o: Op, next: number): number {
  o.next = next;
  return next;
}

function cut(o: Op, need: number): number {
  o.need = need;
  return CUT;
}

/** The data of a counted opcode: `len` bytes at `data`; CUT (with what it needs) past `end`. */
function counted(o: Op, p: number, data: number, len: number, end: number): number {
  o.data = data;
  o.arg = len;
  if (len < 0) return done(o, data); // the caller refuses a negative length
  if (data + len > end) return cut(o, data + len - p);
  return done(o, data + len);
}

/**
 * Decodes the opcode at `p` (before `end`) into `o`: returns where it ends, or CUT when its bytes
 * go past `end`. `memoLen` is the index a MEMOIZE stores at. Opcodes without an argument (and
 * unknown bytes: what they mean is the caller's to say) end one byte on.
 */
export function readOp(
  buf: Uint8Array,
  dv: DataView,
  p: number,
  end: number,
  memoLen: number,
  o: Op,
): number {
  if (p >= end) return cut(o, 0);
  const code = buf[p]!;
  o.code = code;
  const a = p + 1;
  const left = end - a;
  switch (code) {
    case op.BINGET:
    case op.BINPUT:
    case op.BININT1:
    case op.PROTO:
      if (left < 1) return cut(o, 2);
      o.arg = buf[a]!;
      return done(o, a + 1);
    case op.LONG_BINGET:
    case op.LONG_BINPUT:
      if (left < 4) return cut(o, 5);
      o.arg = dv.getUint32(a, true);
      return done(o, a + 4);
    case op.MEMOIZE:
      o.arg = memoLen;
      return done(o, a);
    case op.BININT:
      if (left < 4) return cut(o, 5);
      o.arg = dv.getInt32(a, true);
      return done(o, a + 4);
    case op.BININT2:
      if (left < 2) return cut(o, 3);
      o.arg = dv.getUint16(a, true);
      return done(o, a + 2);
    case op.BINFLOAT:
      if (left < 8) return cut(o, 9);
      o.float = dv.getFloat64(a);
      return done(o, a + 8);
    case op.SHORT_BINUNICODE:
    case op.SHORT_BINBYTES:
    case op.SHORT_BINSTRING:
    case op.LONG1:
      if (left < 1) return cut(o, 2);
      return counted(o, p, a + 1, buf[a]!, end);
    case op.BINUNICODE:
    case op.BINBYTES:
      if (left < 4) return cut(o, 5);
      return counted(o, p, a + 4, dv.getUint32(a, true), end);
    case op.BINSTRING:
    case op.LONG4:
      if (left < 4) return cut(o, 5);
      return counted(o, p, a + 4, dv.getInt32(a, true), end);
    case op.BINUNICODE8:
    case op.BINBYTES8:
    case op.BYTEARRAY8:
      if (left < 8) return cut(o, 9);
      return counted(o, p, a + 8, u64(dv, a), end);
    case op.FRAME:
      if (left < 8) return cut(o, 9);
      o.arg = u64(dv, a);
      return done(o, a + 8);
    case op.INT:
    case op.LONG:
    case op.FLOAT:
    case op.STRING:
    case op.UNICODE:
    case op.GET:
    case op.PUT:
    case op.GLOBAL:
    case op.INST: {
      // Protocol 0's arguments end at a newline (GLOBAL and INST: two lines, module and name).
      const nl = lineEnd(buf, a, end);
      if (nl < 0) return cut(o, 0);
      o.data = a;
      o.arg = nl - a;
      if (code !== op.GLOBAL && code !== op.INST) return done(o, nl + 1);
      const nl2 = lineEnd(buf, nl + 1, end);
      return nl2 < 0 ? cut(o, 0) : done(o, nl2 + 1);
    }
    default:
      return done(o, a);
  }
}

function lineEnd(buf: Uint8Array, from: number, end: number): number {
  const nl = buf.indexOf(0x0a, from);
  return nl >= 0 && nl < end ? nl : -1;
}

/** A little-endian u64 (lengths: exact below 2^53). */
function u64(dv: DataView, at: number): number {
  return dv.getUint32(at, true) + dv.getUint32(at + 4, true) * 2 ** 32;
}

/**
 * The str of a str opcode just read into `o`, or undefined when its bytes are not plain UTF-8
 * (Python's 'surrogatepass' lone surrogates, or U+FFFD itself): readers that cannot afford the
 * general reader's decode decline those.
 */
export function strOf(buf: Buffer, o: Op): string | undefined {
  const s = buf.toString("utf8", o.data, o.data + o.arg);
  return s.indexOf("\uFFFD") >= 0 ? undefined : s;
}

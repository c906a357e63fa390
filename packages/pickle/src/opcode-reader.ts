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

// What follows each opcode: an argument kind per opcode byte. readOp switches on these few kinds
// rather than on the opcodes: an opcode first met late in a stream (a str of 256 bytes, a
// FRAME) then runs code that the common ones of its kind have warmed up, instead of making V8
// deoptimize the decoder (a switch over every opcode was deoptimized at each first sight of a
// rare one, a cost the scan of an eval dict paid several times).
const NONE = 0;
const U8 = 1;
const U16 = 2;
const I32 = 3;
const U32 = 4;
const F64 = 5;
const MEMO_NEXT = 6;
const LEN8 = 7;
const ULEN32 = 8;
const ILEN32 = 9;
const LEN64 = 10;
const U64 = 11;
const LINE = 12;
const LINES2 = 13;

const ARG = new Uint8Array(256);
for (const [kind, codes] of [
  [U8, [op.BINGET, op.BINPUT, op.BININT1, op.PROTO]],
  [U16, [op.BININT2]],
  [I32, [op.BININT]],
  [U32, [op.LONG_BINGET, op.LONG_BINPUT]],
  [F64, [op.BINFLOAT]],
  [MEMO_NEXT, [op.MEMOIZE]],
  [LEN8, [op.SHORT_BINUNICODE, op.SHORT_BINBYTES, op.SHORT_BINSTRING, op.LONG1]],
  [ULEN32, [op.BINUNICODE, op.BINBYTES]],
  [ILEN32, [op.BINSTRING, op.LONG4]],
  [LEN64, [op.BINUNICODE8, op.BINBYTES8, op.BYTEARRAY8]],
  [U64, [op.FRAME]],
  [LINE, [op.INT, op.LONG, op.FLOAT, op.STRING, op.UNICODE, op.GET, op.PUT]],
  [LINES2, [op.GLOBAL, op.INST]],
] as const)
  for (const c of codes) ARG[c] = kind;

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
  o.need = 0;
  if (p >= end) return CUT;
  const code = buf[p]!;
  o.code = code;
  const a = p + 1;
  const left = end - a;
  // The argument's fixed part: its width, and the data's length for counted opcodes (-1: none).
  let width = 0;
  let len = -1;
  switch (ARG[code]) {
    case NONE:
      break;
    case U8:
      width = 1;
      if (left >= 1) o.arg = buf[a]!;
      break;
    case U16:
      width = 2;
      if (left >= 2) o.arg = dv.getUint16(a, true);
      break;
    case I32:
      width = 4;
      if (left >= 4) o.arg = dv.getInt32(a, true);
      break;
    case U32:
      width = 4;
      if (left >= 4) o.arg = dv.getUint32(a, true);
      break;
    case F64:
      width = 8;
      if (left >= 8) o.float = dv.getFloat64(a);
      break;
    case MEMO_NEXT:
      o.arg = memoLen;
      break;
    case LEN8:
      width = 1;
      if (left >= 1) len = buf[a]!;
      break;
    case ULEN32:
      width = 4;
      if (left >= 4) len = dv.getUint32(a, true);
      break;
    case ILEN32:
      // A negative length is the caller's to refuse (o.arg < 0, no data).
      width = 4;
      if (left >= 4) {
        len = dv.getInt32(a, true);
        if (len < 0) {
          o.arg = len;
          o.data = a + 4;
          o.next = a + 4;
          return a + 4;
        }
      }
      break;
    case LEN64:
      width = 8;
      if (left >= 8) len = u64(dv, a);
      break;
    case U64:
      width = 8;
      if (left >= 8) o.arg = u64(dv, a);
      break;
    default:
      return readLines(buf, a, end, o);
  }
  if (left < width) {
    o.need = 1 + width;
    return CUT;
  }
  let next = a + width;
  if (len !== -1) {
    o.data = next;
    o.arg = len;
    if (len > 0) next += len;
    if (next > end) {
      o.need = next - p;
      return CUT;
    }
  }
  o.next = next;
  return next;
}

/** Protocol 0's arguments, ending at a newline (GLOBAL and INST: two lines, module and name). */
function readLines(buf: Uint8Array, a: number, end: number, o: Op): number {
  const nl = lineEnd(buf, a, end);
  if (nl < 0) return CUT;
  o.data = a;
  o.arg = nl - a;
  let next = nl + 1;
  if (ARG[o.code] === LINES2) {
    const nl2 = lineEnd(buf, next, end);
    if (nl2 < 0) return CUT;
    next = nl2 + 1;
  }
  o.next = next;
  return next;
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

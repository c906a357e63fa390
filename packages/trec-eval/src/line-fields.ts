// Lines of runs and qrels split into fields on their bytes, as the plain reader splits their text
// (@convkit/formats' whitespaceRowsOf: a trailing \r dropped, `#` lines skipped, trimmed, split
// on runs of spaces and tabs), and the numbers in them read as its fields.ts reads them. A line
// this path cannot take as the plain reader would (a byte >= 0x80, \v, \f or a \r inside) is
// handed back (-1) to be read as text; anything the plain reader would refuse is Declined: the
// caller then redoes the whole input with the plain reader, whose error is the one users see.
import { parseFloatStrict } from "@convkit/formats";

/** The fast path gives up on this input; the plain path decides (and reports any error). */
export class Declined extends Error {
  constructor(why: string) {
    super(`byte path declined: ${why}`);
  }
}

/**
 * Scans the line at `pos` (up to `len`): field i is bytes [f[1 + 2i], f[2 + 2i]) for i < max,
 * f[0] is where the next line starts. Returns the number of fields (0: blank or `#` line), or -1
 * when the line holds a byte left to the plain reader.
 */
export function scanLine(buf: Uint8Array, pos: number, len: number, f: Int32Array, max: number): number {
  let i = pos;
  if (buf[i] === 0x23) {
    // A comment line (trec_eval 10 skips them), whatever follows the '#'.
    while (i < len && buf[i] !== 10) i++;
    f[0] = i + 1;
    return 0;
  }
  let nf = 0;
  let special = false;
  for (;;) {
    let c = 0;
    while (i < len) {
      c = buf[i]!;
      if (c !== 32 && c !== 9) break;
      i++;
    }
    if (i >= len || c === 10) break;
    const s = i;
    while (i < len) {
      c = buf[i]!;
      if (c === 32 || c === 9 || c === 10) break;
      if (c === 13) {
        // \r\n (or \r at the end): the line ends here, as the plain reader strips it.
        if (i + 1 === len || buf[i + 1] === 10) break;
        special = true;
      } else if (c >= 128 || c === 11 || c === 12) special = true;
      i++;
    }
    if (i > s) {
      if (nf < max) {
        f[1 + 2 * nf] = s;
        f[2 + 2 * nf] = i;
      }
      nf++;
    }
    if (c === 13) {
      i++; // the stripped \r; the \n (if any) ends the line below
      if (i < len) i++;
      f[0] = i;
      return special ? -1 : nf;
    }
  }
  f[0] = i + 1;
  return special ? -1 : nf;
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The fields of a line the byte scan left to text (split as the plain reader splits), or Declined on invalid UTF-8. */
export function textFields(buf: Uint8Array, pos: number, next: number): string[] {
  let end = next;
  if (end > pos && buf[end - 1] === 10) end--;
  if (end > pos && buf[end - 1] === 13) end--;
  let text: string;
  try {
    text = decoder.decode(buf.subarray(pos, end));
  } catch {
    throw new Declined("invalid UTF-8");
  }
  const t = text.trim();
  return t.length === 0 ? [] : t.split(/[ \t]+/);
}

/** Whether bytes [s, e) are an integer as fields.ts's intField takes one (`[-+]?\d+`). */
export function isInteger(buf: Uint8Array, s: number, e: number): boolean {
  let i = s;
  if (buf[i] === 43 || buf[i] === 45) i++;
  if (i >= e) return false;
  for (; i < e; i++) if ((buf[i]! - 48) >>> 0 > 9) return false;
  return true;
}

/** A small integer field's value (callers checked {@link isInteger}); NaN past ±2^20 (left to the plain path). */
export function smallInteger(buf: Uint8Array, s: number, e: number): number {
  let i = s;
  const neg = buf[i] === 45;
  if (neg || buf[i] === 43) i++;
  let v = 0;
  for (; i < e; i++) {
    v = v * 10 + (buf[i]! - 48);
    if (v > 1 << 20) return Number.NaN;
  }
  return neg ? -v : v;
}

/** Exact powers of ten as doubles (10^0 … 10^22 are all exactly representable). */
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

/** Where {@link parseScore} puts the value (a double returned through a slot, not boxed per line). */
export const SCORE = new Float64Array(1);

/**
 * Reads a score field as fields.ts's floatField reads it (Python's float(): correctly rounded)
 * into SCORE[0]; false where that refuses it. Fast case: at most 15 significant digits and a decimal
 * exponent within ±22, where digits / 10^k (or × 10^k) is one correctly rounded operation on
 * exact operands, so equal to the correctly rounded decimal (Clinger's fast path). The rest
 * (inf, nan, long mantissas, large exponents, anything odd) goes to the plain parser.
 */
export function parseScore(buf: Uint8Array, s: number, e: number): boolean {
  let i = s;
  const neg = buf[i] === 45;
  if (neg || buf[i] === 43) i++;
  let m = 0;
  let digits = 0;
  let intDigits = 0;
  let fracDigits = 0;
  let c = 0;
  for (; i < e; i++) {
    c = buf[i]! - 48;
    if (c >>> 0 > 9) break;
    if (m !== 0 || c !== 0) digits++;
    m = m * 10 + c;
    intDigits++;
  }
  if (i < e && buf[i] === 46) {
    i++;
    for (; i < e; i++) {
      c = buf[i]! - 48;
      if (c >>> 0 > 9) break;
      if (m !== 0 || c !== 0) digits++;
      m = m * 10 + c;
      fracDigits++;
    }
  }
  let exp = 0;
  if (i < e && (buf[i] === 101 || buf[i] === 69) && intDigits + fracDigits > 0) {
    i++;
    const eneg = buf[i] === 45;
    if (eneg || buf[i] === 43) i++;
    const es = i;
    for (; i < e && i - es < 6; i++) {
      c = buf[i]! - 48;
      if (c >>> 0 > 9) break;
      exp = exp * 10 + c;
    }
    if (i === es) return slowScore(buf, s, e);
    if (eneg) exp = -exp;
  }
  if (i !== e || intDigits + fracDigits === 0 || digits > 15) return slowScore(buf, s, e);
  const k = exp - fracDigits;
  // 10^|k| is exact in a double up to 10^22 (POW10's last); past it, the slow path.
  const p = POW10[k < 0 ? -k : k];
  if (p === undefined) return slowScore(buf, s, e);
  const v = k < 0 ? m / p : m * p;
  SCORE[0] = neg ? -v : v;
  return true;
}

function slowScore(buf: Uint8Array, s: number, e: number): boolean {
  const v = parseFloatStrict(Buffer.from(buf.buffer, buf.byteOffset + s, e - s).toString("latin1"));
  if (v === undefined) return false;
  SCORE[0] = v;
  return true;
}

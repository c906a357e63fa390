// UTF-16 code units, as the tokenizer, the lexemes and the senter's kernel side read them: which
// are surrogates, a string's units in a typed array, and units back into a string without a
// string per unit.
import { endianness } from "node:os";

/** A high (leading) surrogate: U+D800..U+DBFF. */
export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c < 0xdc00;
}

/** A low (trailing) surrogate: U+DC00..U+DFFF. */
export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c < 0xe000;
}

/** Code units a block of {@link unitsToString} passes to `String.fromCharCode`. */
const BLOCK = 4096;

/**
 * `units[a, b)` as a string, a block at a time (`apply` takes a bounded number of arguments). The
 * string is new and flat: unlike a slice of a longer string (V8 cuts one of 13 units or more as a
 * view that keeps the whole longer one alive), it holds on to nothing else.
 */
export function unitsToString(units: Uint16Array, a: number, b: number): string {
  let out = "";
  for (let from = a; from < b; from += BLOCK) {
    const to = Math.min(b, from + BLOCK);
    out += String.fromCharCode.apply(null, units.subarray(from, to) as unknown as number[]);
  }
  return out;
}

/** A string's UTF-16 code units in an array of their own. */
export function unitsOf(s: string): Uint16Array {
  const units = new Uint16Array(s.length);
  for (let i = 0; i < s.length; i++) units[i] = s.charCodeAt(i);
  return units;
}

/** Node writes "utf16le" as the platform's Uint16Array reads it only on a little-endian machine. */
const LITTLE_ENDIAN = endianness() === "LE";

/** A growable Uint16Array that holds one string's UTF-16 code units at a time. */
export class UnitBuffer {
  units = new Uint16Array(1 << 12);
  private bytes = Buffer.from(this.units.buffer);

  /** Copies `s`'s code units to `units[0, s.length)` (overwriting the last string's) and returns `units`. */
  load(s: string): Uint16Array {
    if (s.length > this.units.length) {
      this.units = new Uint16Array(Math.max(s.length, 2 * this.units.length));
      this.bytes = Buffer.from(this.units.buffer);
    }
    // Node's native UTF-16 copy: a few milliseconds for the benchmark's 28 MB, a loop ten times that.
    if (LITTLE_ENDIAN) this.bytes.write(s, 0, "utf16le");
    else for (let i = 0; i < s.length; i++) this.units[i] = s.charCodeAt(i);
    return this.units;
  }
}

// UTF-16 code units, as the tokenizer, the lexemes and the senter's kernel side read them: which
// are surrogates, and code units back into a string without a string per unit.

/** A high (leading) surrogate: U+D800..U+DBFF. */
export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c < 0xdc00;
}

/** A low (trailing) surrogate: U+DC00..U+DFFF. */
export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c < 0xe000;
}

/** Code units a block of {@link unitsToString} and {@link ownString} pass to `String.fromCharCode`. */
const BLOCK = 4096;
const blockUnits = new Uint16Array(BLOCK);

/** `units[0, n)` as a string, a block at a time (`apply` takes a bounded number of arguments). */
export function unitsToString(units: Uint16Array, n: number): string {
  let out = "";
  for (let from = 0; from < n; from += BLOCK) {
    const to = Math.min(n, from + BLOCK);
    out += String.fromCharCode.apply(null, units.subarray(from, to) as unknown as number[]);
  }
  return out;
}

/**
 * `s[a, b)` as a string that refers to nothing else. V8 cuts a string of 13 units or more out of a
 * longer one as a view that keeps the whole longer one alive; a lexicon entry made from a slice of
 * a text would keep that text (kilobytes) until the lexicon is renewed.
 */
export function ownString(s: string, a: number, b: number): string {
  if (b - a < 13) return s.slice(a, b);
  let out = "";
  for (let from = a; from < b; from += BLOCK) {
    const to = Math.min(b, from + BLOCK);
    for (let i = from; i < to; i++) blockUnits[i - from] = s.charCodeAt(i);
    out += unitsToString(blockUnits, to - from);
  }
  return out;
}

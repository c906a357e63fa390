// UTF-16 code units, as the tokenizer, the lexemes and the senter's kernel side read them: units
// back into a string without a string per unit (which units are surrogates: @convkit/pyregex).
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

// Which UTF-16 code units are surrogates: the translation reads patterns and strings by code point
// (Python's unit) over JavaScript's UTF-16 strings; @convkit/spacy reads its units the same way.

/** A high (leading) surrogate: U+D800..U+DBFF. */
export function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c < 0xdc00;
}

/** A low (trailing) surrogate: U+DC00..U+DFFF. */
export function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c < 0xe000;
}

/** `s.codePointAt(i)` where `i` must be inside `s`: out of range is a bug, so a RangeError. */
export function codePointAt(s: string, i: number): number {
  const cp = s.codePointAt(i);
  if (cp === undefined) throw new RangeError(`index ${i} out of range (length ${s.length})`);
  return cp;
}

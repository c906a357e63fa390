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

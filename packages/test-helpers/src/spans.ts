// Spans as CPython gives them (code point offsets), from what the JavaScript side gives (UTF-16).

/** A UTF-16 offset of `s` as a code point offset. */
export function codePoint(s: string, i: number): number {
  return [...s.slice(0, i)].length;
}

/** Flat [start, end) pairs of UTF-16 offsets in `s` as [start, end] code point spans. */
export function codePointSpans(s: string, flat: readonly number[]): [number, number][] {
  const spans: [number, number][] = [];
  for (let k = 0; k + 1 < flat.length; k += 2) {
    const [start = 0, end = 0] = flat.slice(k, k + 2);
    spans.push([codePoint(s, start), codePoint(s, end)]);
  }
  if (flat.length % 2 !== 0)
    throw new RangeError(`an odd number of offsets (${flat.length}): not [start, end) pairs`);
  return spans;
}

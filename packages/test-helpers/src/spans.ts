// Spans as CPython gives them (code point offsets), from what the JavaScript side gives (UTF-16).

import { elementAt } from "../checked.js";

/** A UTF-16 offset of `s` as a code point offset. */
export function codePoint(s: string, i: number): number {
  return [...s.slice(0, i)].length;
}

/** Flat [start, end) pairs of UTF-16 offsets in `s` as [start, end] code point spans. */
export function codePointSpans(s: string, flat: readonly number[]): [number, number][] {
  const spans: [number, number][] = [];
  for (let k = 0; k < flat.length; k += 2)
    spans.push([codePoint(s, elementAt(flat, k)), codePoint(s, elementAt(flat, k + 1))]);
  return spans;
}

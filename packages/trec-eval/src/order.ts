// trec_eval's ranking order, in one place: score descending, ties by docno descending as C's
// `strcmp` compares them, i.e. by UTF-8 bytes. JavaScript's `<` compares UTF-16 units, which
// agrees with bytes except where a character above U+FFFF meets one in U+E000–U+FFFF.

/** `strcmp` on the UTF-8 bytes of two strings (the sign only). */
export function strcmpOrder(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Below the surrogates, UTF-16 units and UTF-8 bytes order alike.
    if (x < 0xd800 && y < 0xd800) return x - y;
    return Buffer.compare(Buffer.from(a.slice(i)), Buffer.from(b.slice(i)));
  }
  return a.length - b.length;
}

/** A scored document as a ranking holds it. */
export interface ScoredDocno {
  readonly docno: string;
  readonly score: number;
}

/**
 * trec_eval's result order (its `comp_sim_docno`): score descending, then docno descending by
 * `strcmp`. Negative when `a` ranks before `b`.
 */
export function trecOrder(a: ScoredDocno, b: ScoredDocno): number {
  if (a.score > b.score) return -1;
  if (a.score < b.score) return 1;
  return strcmpOrder(b.docno, a.docno);
}

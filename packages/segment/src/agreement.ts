// How often a splitter cuts sentences where the official iKAT passages say the cut was.
import type { SentenceSplitter } from "./passages.js";

/** Two consecutive official passages of one document. */
export interface PassagePair {
  docId: string;
  k: number;
  text: string;
  next: string;
  /** Offset in `text` where `next` begins (the sixth sentence's start). */
  boundary: number;
}

/** An official passage text without its `\n…\n` wrapper; undefined for corrupted entries (more newlines). */
export function unwrapPassage(raw: string): string | undefined {
  if (!raw.startsWith("\n") || !raw.endsWith("\n") || raw.length < 2) return undefined;
  const t = raw.slice(1, -1);
  return t.includes("\n") ? undefined : t;
}

/**
 * Consecutive passage pairs (k, k+1) of each document, with the offset in passage k where passage
 * k+1 begins: the smallest offset after a joining space whose suffix starts passage k+1.
 */
export function passagePairs(
  records: Iterable<{ doc_id: string; passage_id: string; passage_text: string }>,
): PassagePair[] {
  const byDoc = new Map<string, Map<number, string>>();
  for (const r of records) {
    const t = unwrapPassage(r.passage_text);
    if (t === undefined) continue;
    const m = byDoc.get(r.doc_id) ?? new Map<number, string>();
    m.set(Number(r.passage_id), t);
    byDoc.set(r.doc_id, m);
  }
  const out: PassagePair[] = [];
  for (const [docId, m] of byDoc) {
    for (const [k, text] of [...m].sort((a, b) => a[0] - b[0])) {
      const next = m.get(k + 1);
      if (next === undefined) continue;
      let boundary = -1;
      for (let p = text.indexOf(" ") + 1; p > 0 && p < text.length; p = text.indexOf(" ", p) + 1) {
        if (next.startsWith(text.slice(p))) {
          boundary = p;
          break;
        }
      }
      if (boundary > 0) out.push({ docId, k, text, next, boundary });
    }
  }
  return out;
}

/** Pairs on which the splitter agrees: exactly ten sentences in passage k, the sixth starting at the boundary. */
export function agreeingPairs(pairs: readonly PassagePair[], split: SentenceSplitter): number {
  let n = 0;
  for (const p of pairs) {
    const starts = split(p.text);
    if (starts.length === 10 && starts[5] === p.boundary) n++;
  }
  return n;
}

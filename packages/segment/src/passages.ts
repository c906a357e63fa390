// The official iKAT chunker's method (and MS MARCO's preset): trimmed text → sentences → overlapping windows.

import { isPySpace } from "@convkit/io";

/** Where Python's `s.strip()` starts: the length of the leading whitespace. */
export function pyStripStart(s: string): number {
  let a = 0;
  while (a < s.length && isPySpace(s.charCodeAt(a))) a++;
  return a;
}

/** Python's `s.strip()`. */
export function pyStrip(s: string): string {
  const a = pyStripStart(s);
  let b = s.length;
  while (b > a && isPySpace(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/** The first `n` code points of `s` (Python's `s[:n]`: an astral character counts once). */
export function firstCodePoints(s: string, n: number): string {
  if (s.length <= n) return s;
  // Without a surrogate pair in the first n units they are the first n code points (the test is
  // free on V8's one-byte strings, which cannot hold one).
  const head = s.slice(0, n);
  if (!HIGH_SURROGATE.test(head)) return head;
  let units = 0;
  for (let cp = 0; cp < n && units < s.length; cp++) {
    const c = s.charCodeAt(units);
    const next = s.charCodeAt(units + 1); // NaN past the end
    // A pair counts once; a lone surrogate, as in Python, counts as a code point of its own.
    units += c >= 0xd800 && c < 0xdc00 && next >= 0xdc00 && next < 0xe000 ? 2 : 1;
  }
  return s.slice(0, units);
}

/** How a preset prepares text, names sentences and passages. */
export interface SegmentOptions {
  /** Sentences per passage (iKAT: 10). */
  window: number;
  /** Sentences between passage starts (iKAT: 5). */
  stride: number;
  /** Code points kept (iKAT: 10,000). */
  maxLength: number;
  /** Between docid and passage number (iKAT `:`, MS MARCO `#`). */
  idSeparator: string;
  /** iKAT: `\r`/`\n` → space, then strip; MS MARCO: strip only. */
  flattenNewlines: boolean;
  /** iKAT keeps a sentence as written (one trailing space dropped); MS MARCO strips each sentence. */
  stripSentences: boolean;
}

/** The official iKAT chunker's settings. */
export const IKAT: SegmentOptions = {
  window: 10,
  stride: 5,
  maxLength: 10_000,
  idSeparator: ":",
  flattenNewlines: true,
  stripSentences: false,
};

/** docTTTTTquery / Pyserini's MS MARCO document segmentation. */
export const MSMARCO: SegmentOptions = {
  window: 10,
  stride: 5,
  maxLength: 10_000,
  idSeparator: "#",
  flattenNewlines: false,
  stripSentences: true,
};

/**
 * The text the chunker splits: newlines flattened (iKAT), stripped, cut to `maxLength` code
 * points. Offset k of it is offset `pyStripStart(raw) + k` of the raw text.
 */
export function prepareText(raw: string, o: SegmentOptions = IKAT): string {
  // Stripped and cut first: `\r` and `\n` are whitespace of one unit each, so turning them into
  // spaces moves neither the strip nor the cut, and a long text is only scanned as far as it is kept.
  const t = firstCodePoints(pyStrip(raw), o.maxLength);
  return o.flattenNewlines ? t.replace(/[\r\n]/g, " ") : t;
}

/** A sentence splitter: start offsets (UTF-16) of the sentences of a prepared text, the first 0, ascending. */
export type SentenceSplitter = (text: string) => number[];

/**
 * Sentence texts from start offsets: each runs to the next start. As spaCy's `Span.text`, a single
 * space before the next sentence is dropped, any longer whitespace run is kept (spaCy makes it a
 * token of the sentence); MS MARCO's preset strips every sentence instead.
 */
export function sentenceTexts(text: string, starts: readonly number[], o: SegmentOptions = IKAT): string[] {
  const out: string[] = [];
  for (let i = 0; i < starts.length; i++) {
    const s = text.slice(starts[i]!, i + 1 < starts.length ? starts[i + 1]! : text.length);
    if (o.stripSentences) out.push(pyStrip(s));
    else {
      let e = s.length;
      while (e > 0 && isPySpace(s.charCodeAt(e - 1))) e--;
      out.push(s.length - e === 1 && s[e] === " " ? s.slice(0, e) : s);
    }
  }
  return out;
}

/** Windows over sentences: starts 0, stride, 2·stride, …; stops after the first window reaching the last sentence. */
export function windowPassages(sentences: readonly string[], o: SegmentOptions = IKAT): string[] {
  const out: string[] = [];
  for (let start = 0; start < sentences.length; start += o.stride) {
    out.push(sentences.slice(start, start + o.window).join(" "));
    if (start + o.window >= sentences.length) break;
  }
  return out;
}

/** A document's passages: prepare, split, window. */
export function segmentDocument(raw: string, split: SentenceSplitter, o: SegmentOptions = IKAT): string[] {
  const text = prepareText(raw, o);
  if (text.length === 0) return [];
  return windowPassages(sentenceTexts(text, split(text), o), o);
}

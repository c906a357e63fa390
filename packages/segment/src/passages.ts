// The official iKAT chunker's method (and MS MARCO's preset): trimmed text → sentences → overlapping windows.

import { isPySpace, pyStrip, pyStripStart } from "@convkit/pycompat";

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
 * Where each sentence's text lies in a prepared text: `[start, end)` pairs of UTF-16 offsets, one
 * pair a sentence, flat. A sentence runs to the next start; as spaCy's `Span.text`, a single space
 * before the next sentence is left out, any longer whitespace run is kept (spaCy makes it a token
 * of the sentence); MS MARCO's preset strips every sentence instead.
 */
function sentenceSpans(text: string, starts: readonly number[], o: SegmentOptions = IKAT): number[] {
  const out: number[] = [];
  for (const [i, a] of starts.entries()) {
    // The last sentence runs to the end of the text.
    const b = starts[i + 1] ?? text.length;
    let e = b;
    while (e > a && isPySpace(text.charCodeAt(e - 1))) e--;
    if (o.stripSentences) {
      let s = a;
      while (s < e && isPySpace(text.charCodeAt(s))) s++;
      out.push(s, e);
    } else out.push(a, b - e === 1 && text.charCodeAt(e) === 32 ? e : b);
  }
  return out;
}

/** The texts of flat `[start, end)` pairs of offsets in `text`. */
function pairTexts(text: string, spans: readonly number[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < spans.length; i += 2) {
    const [a, b] = [spans[i], spans[i + 1]];
    if (a === undefined || b === undefined) break; // i + 1 < spans.length
    out.push(text.slice(a, b));
  }
  return out;
}

/** Sentence texts from start offsets: the text of each of {@link sentenceSpans}. */
export function sentenceTexts(text: string, starts: readonly number[], o: SegmentOptions = IKAT): string[] {
  return pairTexts(text, sentenceSpans(text, starts, o));
}

/**
 * The windows over `n` sentences: `[first, end)` sentence indices, flat; starts 0, stride,
 * 2·stride, …; stops after the first window reaching the last sentence.
 */
function windows(n: number, o: SegmentOptions): number[] {
  const out: number[] = [];
  for (let start = 0; start < n; start += o.stride) {
    out.push(start, Math.min(start + o.window, n));
    if (start + o.window >= n) break;
  }
  return out;
}

/** Windows over sentences, each passage its sentences joined by one space. */
export function windowPassages(sentences: readonly string[], o: SegmentOptions = IKAT): string[] {
  const w = windows(sentences.length, o);
  const out: string[] = [];
  for (let i = 0; i + 1 < w.length; i += 2) {
    const [a, b] = [w[i], w[i + 1]];
    if (a === undefined || b === undefined) break; // i + 1 < w.length
    out.push(sentences.slice(a, b).join(" "));
  }
  return out;
}

/** A document's passages: prepare, split, window. */
export function segmentDocument(raw: string, split: SentenceSplitter, o: SegmentOptions = IKAT): string[] {
  const text = prepareText(raw, o);
  if (text.length === 0) return [];
  return windowPassages(sentenceTexts(text, split(text), o), o);
}

/** A document's passages and where each lies in the raw text. */
export interface LocatedPassages {
  passages: string[];
  /**
   * `[start, end)` of each passage, flat, in code points of the raw text (Python's `raw[start:end]`):
   * from its first sentence's first character to its last sentence's last. The whitespace between
   * its sentences is the document's there, where the passage has one space (and iKAT's newlines
   * flattened): the slice equals the passage when its sentences are one space apart.
   */
  offsets: number[];
}

/** {@link segmentDocument}, with each passage's code point offsets in the raw text. */
export function segmentDocumentLocated(
  raw: string,
  split: SentenceSplitter,
  o: SegmentOptions = IKAT,
): LocatedPassages {
  const text = prepareText(raw, o);
  if (text.length === 0) return { passages: [], offsets: [] };
  const spans = sentenceSpans(text, split(text), o);
  const sentences = pairTexts(text, spans);
  const w = windows(sentences.length, o);
  const passages: string[] = [];
  const offsets: number[] = [];
  // Offset k of the prepared text is offset shift + k of the raw one (see prepareText).
  const shift = pyStripStart(raw);
  // Passage starts ascend, and so do their ends: one counter each walks the raw text once.
  const starts = codePointCounter(raw);
  const ends = codePointCounter(raw);
  for (let i = 0; i + 1 < w.length; i += 2) {
    const [a, b] = [w[i], w[i + 1]];
    if (a === undefined || b === undefined) break; // i + 1 < w.length
    passages.push(sentences.slice(a, b).join(" "));
    // From the first sentence's start to the last one's end (a window holds at least one).
    const [from, to] = [spans[2 * a], spans[2 * b - 1]];
    if (from === undefined || to === undefined)
      throw new RangeError(`window [${a}, ${b}) of ${spans.length / 2} sentences`);
    offsets.push(starts(shift + from), ends(shift + to));
  }
  return { passages, offsets };
}

/**
 * Code points of `s` before a UTF-16 offset, for ascending offsets: a surrogate pair counts once,
 * a lone surrogate once (as Python counts them).
 */
function codePointCounter(s: string): (unit: number) => number {
  let unit = 0;
  let points = 0;
  return (to) => {
    for (; unit < to; unit++) {
      const c = s.charCodeAt(unit);
      const low = c >= 0xdc00 && c < 0xe000;
      const prev = unit > 0 ? s.charCodeAt(unit - 1) : 0;
      if (!(low && prev >= 0xd800 && prev < 0xdc00)) points++;
    }
    return points;
  };
}

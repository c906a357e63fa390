// Sentence splitters for the chunker: ICU (Intl.Segmenter, fed in pieces), spaCy's rule-based sentencizer, and convkit's heuristic.
import { InputError, UsageError } from "@convkit/io";
import type { SpacyPipeline } from "@convkit/spacy";
import type { SentenceSplitter } from "./passages.js";

const SPACE = /\s/u;

/**
 * ICU's sentence segmenter. `Intl.Segmenter` is quadratic in string length on Node 20, so the text
 * is fed in windows of `piece` characters: all segments but the window's last are kept, and the
 * next window starts where that last one began (a boundary ICU found with context on both sides).
 * A single segment filling a window is cut at the window's end.
 */
export function icuSplitter(piece = 4096): SentenceSplitter {
  const seg = new Intl.Segmenter("en", { granularity: "sentence" });
  return (text) => {
    const starts: number[] = [];
    let pos = 0;
    while (pos < text.length) {
      const end = Math.min(text.length, pos + piece);
      const parts = [...seg.segment(text.slice(pos, end))];
      const last = parts.at(-1);
      if (end === text.length || parts.length === 1 || last === undefined) {
        for (const p of parts) starts.push(pos + p.index);
        pos = end;
      } else {
        // The last part may be cut by the piece's end: the next piece starts with it.
        for (const p of parts) if (p !== last) starts.push(pos + p.index);
        pos += last.index;
      }
    }
    // Past leading whitespace; kept when in the text and after the start before it.
    const out: number[] = [];
    let prev: number | undefined;
    for (const s0 of starts) {
      const s = skipSpace(text, s0);
      if (s < text.length && (prev === undefined || s > prev)) out.push(s);
      prev = s;
    }
    return out;
  };
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && SPACE.test(text.charAt(i))) i++;
  return i;
}

/** Sentence-final characters (spaCy's sentencizer list, its Latin and most used Unicode ones). */
const TERMINATORS = new Set([..."!.?։؟۔܀܁܂।॥၊။።፧፨‼‽⁇⁈⁉⸮⸼꓿꘎꘏﹒﹖﹗！．？｡。"]);

/** spaCy's `Token.is_punct`: every character in a Unicode punctuation category. */
const PUNCT_ONLY = /^\p{P}+$/u;
const PUNCT = /\p{P}/u;

/** Abbreviations spaCy's English tokenizer keeps whole with their period (a selection of its exceptions). */
const ABBREVIATIONS = new Set(
  (
    "mr. mrs. ms. dr. prof. st. mt. jr. sr. inc. ltd. co. corp. vs. etc. e.g. i.e. a.m. p.m. no. " +
    "jan. feb. mar. apr. jun. jul. aug. sep. sept. oct. nov. dec. gov. sen. rep. gen. col. lt. sgt. " +
    "ave. blvd. rd. dept. est. fig. approx. u.s. u.k. ph.d."
  ).split(" "),
);

/** Whitespace as `\s` has it, by char code (the regex only above ASCII). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && SPACE.test(String.fromCharCode(c)));
}

/** ASCII letter or digit: a chunk that starts and ends with one is a single plain token (the common case). */
function isAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
}

/** A whitespace-separated chunk cut into spaCy-like tokens: [start, end) pairs (prefix/suffix punctuation split off). */
function chunkTokens(text: string, a: number, b: number, out: number[]): void {
  if (isAlnum(text.charCodeAt(a)) && isAlnum(text.charCodeAt(b - 1))) {
    out.push(a, b);
    return;
  }
  // Prefixes: opening punctuation.
  while (a < b - 1 && /[\p{Ps}\p{Pi}"'`]/u.test(text.charAt(a))) {
    out.push(a, a + 1);
    a++;
  }
  const suffix: number[] = [];
  for (;;) {
    if (b - a <= 1) break;
    const c = text.charAt(b - 1);
    // An ellipsis is one token ("..." or "…"), as spaCy's LIST_ELLIPSES makes it.
    if (c === "." && b - a >= 3 && text[b - 2] === ".") {
      let e = b - 1;
      while (e > a && text[e - 1] === ".") e--;
      if (e === a) break;
      suffix.push(e, b);
      b = e;
    } else if (c === "…") {
      suffix.push(b - 1, b);
      b--;
    } else if (c === ".") {
      const body = text.slice(a, b).toLowerCase();
      if (ABBREVIATIONS.has(body) || /^([a-z]\.)+$/i.test(body)) break;
      const p = text.charAt(b - 2);
      const twoUpper = b - a >= 3 && /\p{Lu}/u.test(p) && /\p{Lu}/u.test(text.charAt(b - 3));
      if (!(/[0-9\p{Ll}%²\-+]/u.test(p) || PUNCT.test(p) || twoUpper)) break;
      suffix.push(b - 1, b);
      b--;
    } else if (TERMINATORS.has(c) || /[\p{Pe}\p{Pf}"',;:]/u.test(c)) {
      suffix.push(b - 1, b);
      b--;
    } else break;
  }
  out.push(a, b);
  for (let i = suffix.length - 2; i >= 0; i -= 2) out.push(suffix[i]!, suffix[i + 1]!);
}

/** Tokens of a text as [start, end) pairs: whitespace-separated chunks, punctuation peeled off their edges. */
export function spacyLikeTokens(text: string): number[] {
  const out: number[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) break;
    let j = i + 1;
    while (j < n && !isSpace(text.charCodeAt(j))) j++;
    chunkTokens(text, i, j, out);
    i = j;
  }
  return out;
}

const chunkToks: number[] = [];

/** Every character a final or ellipsis token holds: the sentence-final ones and `…`. */
const MARKS = new RegExp(
  `[${[...TERMINATORS, "…"].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}]`,
  "g",
);

/**
 * Sentence starts by the sentencizer's rule over {@link spacyLikeTokens}, chunk by chunk: a plain
 * word (an ASCII letter or digit at both ends: one token, neither final nor punctuation) is
 * decided on the spot, and only the other chunks are cut into tokens. With `ellipses`, also the
 * heuristic's rule for ellipses and runs of final marks.
 */
function ruleStarts(text: string, ellipses: boolean): number[] {
  const starts = [0];
  let seenPeriod = false;
  let seenEllipsis = false;
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!seenPeriod && !seenEllipsis) {
      // Nothing pending: only a chunk holding a final mark (or an ellipsis) can change that, so
      // jump to the next one (a native scan) and back to the start of its chunk.
      MARKS.lastIndex = i;
      const m = MARKS.exec(text);
      if (m === null) break;
      let a = m.index;
      while (a > i && !isSpace(text.charCodeAt(a - 1))) a--;
      i = a;
    }
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) break;
    let j = i + 1;
    while (j < n && !isSpace(text.charCodeAt(j))) j++;
    if (isAlnum(text.charCodeAt(i)) && isAlnum(text.charCodeAt(j - 1))) {
      if (seenPeriod || seenEllipsis) {
        const c = text.charCodeAt(i);
        if (i > 0 && (seenPeriod || (c >= 65 && c <= 90))) starts.push(i);
        seenPeriod = false;
        seenEllipsis = false;
      }
      i = j;
      continue;
    }
    const tok = chunkToks;
    tok.length = 0;
    chunkTokens(text, i, j, tok);
    for (let k = 0; k < tok.length; k += 2) {
      const a = tok[k]!;
      if (!seenPeriod && !seenEllipsis && isAlnum(text.charCodeAt(a))) continue; // a word, nothing pending
      // spaCy tests the token's whole text: an ellipsis or "?!" token is not in the list.
      const t = text.slice(a, tok[k + 1]!);
      const final = TERMINATORS.has(t);
      const ellipsis = ellipses && !final && /^(\.{2,}|…+|[!?]{2,})$/u.test(t);
      if ((seenPeriod || seenEllipsis) && !final && !ellipsis && !PUNCT_ONLY.test(t)) {
        if (a > 0 && (seenPeriod || /^\p{Lu}/u.test(t))) starts.push(a);
        seenPeriod = false;
        seenEllipsis = false;
      } else if (final) seenPeriod = true;
      else if (ellipsis) seenEllipsis = true;
    }
    i = j;
  }
  return starts;
}

/**
 * A port of spaCy's rule-based `sentencizer`: after a token made of a sentence-final character,
 * the next token that is neither punctuation nor sentence-final starts a sentence. Tokens come
 * from {@link spacyLikeTokens}, faithful to spaCy's tokenizer where `.`/`!`/`?` are concerned
 * (abbreviations and initials keep their period; a period after a lowercase letter, a digit or
 * two capitals is split off).
 */
export const sentencizerSplitter: SentenceSplitter = (text) => ruleStarts(text, false);

/**
 * convkit's default: the sentencizer's rule on the same tokens, plus what a statistical splitter
 * does with ellipses: an ellipsis (`...`, `…`) or a run of sentence-final marks (`?!`) followed by
 * a capitalized word ends the sentence (spaCy's sentencizer never splits there; its statistical
 * `senter`, which made the official passages, usually does).
 */
export const heuristicSplitter: SentenceSplitter = (text) => ruleStarts(text, true);

/** The splitters by name, the default first. */
export const SPLITTERS: Record<string, SentenceSplitter> = {
  heuristic: heuristicSplitter,
  sentencizer: sentencizerSplitter,
  // Built on first use: ICU's segmenter costs ~15 ms to create, in every pool thread.
  icu: (text) => {
    icu ??= icuSplitter();
    return icu(text);
  },
};
let icu: SentenceSplitter | undefined;

/** Every splitter name: the rule-based ones (the default first), then `spacy`, which needs a model folder. */
export const SPLITTER_NAMES: readonly string[] = [...Object.keys(SPLITTERS), "spacy"];

/** How a user gets the model that made the official iKAT passages. */
export const SPACY_MODEL_HINT =
  "download the en_core_web_sm 3.4.1 wheel (the version TREC iKAT pins), unzip it and pass --spacy-model en_core_web_sm/en_core_web_sm-3.4.1 (or set CONVKIT_SPACY_MODEL)";

/** @convkit/spacy, imported on first use (its modules cost every thread ~50 ms to load). */
let spacyModule: typeof import("@convkit/spacy") | undefined;

/**
 * A splitter by name, its code and model loaded: call once per thread before {@link splitterFor}.
 * `spacy` is spaCy's statistical sentence recognizer run from the pipeline folder `spacyModel`
 * (loaded once per thread): with the iKAT preset, the official method.
 */
export async function loadSplitter(
  name: string,
  spacyModel?: string,
  cacheShare?: number,
): Promise<SentenceSplitter> {
  if (name === "spacy") spacyModule ??= await import("@convkit/spacy");
  return splitterFor(name, spacyModel, cacheShare);
}

/**
 * Checks a splitter name and, for `spacy`, its model folder, without loading the model: what the
 * main thread of a pooled run does (the workers load it; the main thread would only hold it).
 */
export async function checkSplitter(name: string, spacyModel?: string): Promise<void> {
  if (name !== "spacy") {
    splitterFor(name, spacyModel);
    return;
  }
  if (!spacyModel)
    throw new UsageError(`the spacy splitter needs a spaCy pipeline folder: ${SPACY_MODEL_HINT}`);
  spacyModule ??= await import("@convkit/spacy");
  spacyModule.checkPipelineFolder(spacyModel);
}

/**
 * The loaded spaCy pipeline of the `spacy` splitter (after {@link loadSplitter}); `cacheShare`: its
 * share of the default cache sizes (1/N in each of N worker threads of one job).
 */
export function spacyPipelineOf(spacyModel: string | undefined, cacheShare?: number): SpacyPipeline {
  if (!spacyModel)
    throw new UsageError(`the spacy splitter needs a spaCy pipeline folder: ${SPACY_MODEL_HINT}`);
  if (!spacyModule) throw new Error("the spacy splitter is used before loadSplitter");
  return spacyModule.spacyPipeline(spacyModel, { cacheShare });
}

/**
 * What the spacy splitter throws for a text spaCy refuses (a lone surrogate: spaCy raises
 * UnicodeEncodeError on it) as bad input at `file` and `line`, the text named by `what`, its
 * offset shifted by `shift` from the text spaCy got to the text as read. Anything else is
 * returned as it is.
 */
export function refusedTextError(e: unknown, file: string, line: number, what: string, shift = 0): unknown {
  if (!spacyModule || !(e instanceof spacyModule.LoneSurrogateError)) return e;
  return new InputError(
    file,
    { line },
    `${what} without a lone surrogate (spaCy cannot encode one as UTF-8)`,
    `\\u${e.unit.toString(16)} at UTF-16 offset ${e.offset + shift}`,
  );
}

/** A splitter by name, synchronously: the rule-based ones, and `spacy` once {@link loadSplitter} ran in this thread. */
export function splitterFor(name: string, spacyModel?: string, cacheShare?: number): SentenceSplitter {
  if (name === "spacy") {
    const pipeline = spacyPipelineOf(spacyModel, cacheShare);
    return (text) => pipeline.sentenceStarts(text);
  }
  const split = SPLITTERS[name];
  if (!split)
    throw new UsageError(`unknown splitter ${JSON.stringify(name)} (one of ${SPLITTER_NAMES.join(", ")})`);
  return split;
}

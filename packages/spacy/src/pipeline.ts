// A loaded spaCy pipeline as the iKAT chunker runs it: `spacy.load(DIR, exclude=[all but senter])`,
// `enable_pipe("senter")`, then `nlp(text)`: tokens, trailing spaces, sentence starts, sentences.

import { isHighSurrogate, isLowSurrogate, translatePythonRegex } from "@convkit/pyregex";
import { elementAt } from "./checked.js";
import { loadPipelineFolder } from "./folder.js";
import { ENTRY_CACHE_LIMIT, Senter } from "./senter.js";
import { CACHE_LIMIT, LEXICON_LIMIT, SpacyTokenizer, type TokenizedText } from "./tokenizer.js";

/** What spaCy gives for one text. */
export interface SpacyDoc {
  /** Token texts (`[t.text for t in doc]`). */
  tokens: string[];
  /** `1` where a token is followed by a space (`t.whitespace_`), else `0`. */
  ws: string;
  /** `1` where a token starts a sentence (`t.is_sent_start`), else `0`. */
  sent: string;
  /** UTF-16 offset of each token in the text (`t.idx`, in JavaScript units). */
  starts: number[];
  /** `[s.text for s in doc.sents]`. */
  sentences: string[];
}

/**
 * A text spaCy refuses: one with a lone surrogate (JSON's "\ud800" escapes make them), which
 * spaCy's StringStore cannot encode as UTF-8 when it hashes the token that holds it: `nlp(text)`
 * and `nlp.make_doc(text)` raise UnicodeEncodeError. convkit's hashing would silently encode it
 * as U+FFFD and go on, so the text is refused here instead, whole, before any token is made.
 */
export class LoneSurrogateError extends Error {
  constructor(
    /** UTF-16 offset of the first lone surrogate in the text. */
    readonly offset: number,
    /** That code unit. */
    readonly unit: number,
  ) {
    super(
      `the text has a lone surrogate \\u${unit.toString(16)} at UTF-16 offset ${offset}, which spaCy cannot encode as UTF-8 (UnicodeEncodeError)`,
    );
    this.name = "LoneSurrogateError";
  }
}

/** The offset of the first lone surrogate of a text that is not well-formed UTF-16. */
function firstLoneSurrogate(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (!isHighSurrogate(c) && !isLowSurrogate(c)) continue;
    if (isHighSurrogate(c) && isLowSurrogate(text.charCodeAt(i + 1))) i++;
    else return i;
  }
  return -1;
}

/** How a pipeline sizes its caches. */
export interface PipelineOptions {
  /**
   * The share of the default cache sizes this pipeline takes (default 1): each of N threads of
   * one job takes 1/N, so that a job's caches take about the same memory at any thread count.
   * Caches never change a result, only how often work is done again.
   */
  cacheShare?: number;
}

/** The smallest cache a share leaves (the senter keeps 8,192 of its entries when it makes room). */
const MIN_CACHE = 16_384;

/** `limit` times `share`, at least {@link MIN_CACHE}. */
const shareOf = (limit: number, share: number) => Math.max(MIN_CACHE, Math.round(limit * share));

/** A spaCy pipeline folder's tokenizer and senter, ready to run. Not thread-safe: one per thread. */
export class SpacyPipeline {
  /** `meta.json`'s name and version, e.g. `en_core_web_sm-3.8.0`. */
  readonly name: string;
  private readonly tokenizer: SpacyTokenizer;
  private readonly senter: Senter;
  /** Lexicon entries before the tokenizer starts afresh. */
  private readonly lexiconLimit: number;
  /** Senter entries before it makes room. */
  private readonly entryLimit: number;

  private constructor(dir: string, options: PipelineOptions) {
    const data = loadPipelineFolder(dir);
    const share = options.cacheShare ?? 1;
    this.name = data.name;
    this.lexiconLimit = shareOf(LEXICON_LIMIT, share);
    this.entryLimit = shareOf(ENTRY_CACHE_LIMIT, share);
    this.tokenizer = new SpacyTokenizer(data.tokenizer, `${dir}/tokenizer`, {
      cacheLimit: shareOf(CACHE_LIMIT, share),
      lexiconLimit: this.lexiconLimit,
    });
    this.senter = new Senter(data.senter, this.tokenizer.lexicon, data.lexemeNorm);
  }

  /** Loads a pipeline folder (e.g. `en_core_web_sm-3.4.1/` from the model's wheel); bad folders are one InputError. */
  static load(dir: string, options: PipelineOptions = {}): SpacyPipeline {
    return new SpacyPipeline(dir, options);
  }

  /**
   * The text's tokens; caches renewed first when they have grown past their bound. A text with a
   * lone surrogate is a {@link LoneSurrogateError}, as spaCy raises on it.
   */
  private tokens(text: string): TokenizedText {
    if (!text.isWellFormed()) {
      const at = firstLoneSurrogate(text);
      throw new LoneSurrogateError(at, text.charCodeAt(at));
    }
    // The senter's records are the larger memory (448 bytes a key): when they are full, only they
    // start afresh. The lexicon (and the chunk cache keyed by its entries) goes on, so the words
    // seen so far are not tokenized again by the affix rules, the costly part of an unseen chunk.
    if (this.tokenizer.lexicon.size > this.lexiconLimit) {
      this.tokenizer.renew();
      this.senter.clear();
    } else if (this.senter.cachedEntries > this.entryLimit) this.senter.makeRoom();
    return this.tokenizer.tokenize(text);
  }

  /** Tokens, spaces and sentence starts of a text, as `nlp(text)` gives them. */
  doc(text: string): SpacyDoc {
    const t = this.tokens(text);
    const sent = this.senter.predict(t);
    return {
      tokens: this.tokenizer.texts(t),
      ws: Array.from(t.spacy.subarray(0, t.length)).join(""),
      sent: Array.from(sent).join(""),
      starts: Array.from(t.start.subarray(0, t.length)),
      sentences: this.sentenceSpans(text, t, sent),
    };
  }

  /** Tokens and trailing spaces only (`nlp.make_doc(text)`), without the senter. */
  tokenize(text: string): TokenizedText {
    return this.tokens(text);
  }

  /** UTF-16 offsets where sentences start (the first token's offset first); empty for a text without tokens. */
  sentenceStarts(text: string): number[] {
    const t = this.tokens(text);
    const sent = this.senter.predict(t);
    const out: number[] = [];
    for (let i = 0; i < t.length; i++) if (sent[i] === 1) out.push(elementAt(t.start, i));
    return out;
  }

  /** `[s.text for s in doc.sents]`: each sentence from its first token to the end of its last, trailing space excluded. */
  sentences(text: string): string[] {
    const t = this.tokens(text);
    return this.sentenceSpans(text, t, this.senter.predict(t));
  }

  private sentenceSpans(text: string, t: TokenizedText, sent: Uint8Array): string[] {
    const entries = this.tokenizer.lexicon.entries;
    const out: string[] = [];
    let from = 0;
    for (let i = 1; i <= t.length; i++) {
      if (i < t.length && sent[i] !== 1) continue;
      const last = i - 1;
      const end = elementAt(t.start, last) + elementAt(entries, elementAt(t.lex, last)).orth.length;
      out.push(text.slice(elementAt(t.start, from), end));
      from = i;
    }
    return out;
  }
}

/**
 * Checks a pipeline folder as {@link SpacyPipeline.load} would (files, architecture, weights,
 * patterns) without building it: for a thread that hands the work to others.
 */
export function checkPipelineFolder(dir: string): void {
  const data = loadPipelineFolder(dir);
  const r = data.tokenizer;
  for (const [name, p] of [
    ["prefix_search", r.prefixSearch],
    ["suffix_search", r.suffixSearch],
    ["infix_finditer", r.infixFinditer],
    ["token_match", r.tokenMatch],
    ["url_match", r.urlMatch],
  ] as const)
    if (p !== null) translatePythonRegex(p, `${dir}/tokenizer (${name})`);
}

const loaded = new Map<string, SpacyPipeline>();

/** A pipeline loaded once per folder, cache share and thread (workers share nothing, so each loads its own). */
export function spacyPipeline(dir: string, options: PipelineOptions = {}): SpacyPipeline {
  const key = `${options.cacheShare ?? 1}\0${dir}`;
  let p = loaded.get(key);
  if (!p) {
    p = SpacyPipeline.load(dir, options);
    loaded.set(key, p);
  }
  return p;
}

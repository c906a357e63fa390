// The two text pipelines behind ClariQ's and Qulac's numbers, with the sentence splitter as an input.
import { porterStem } from "./porter.js";
import { ENGLISH_STOPWORDS } from "./stopwords.js";
import { wordTokenize } from "./tokenize.js";

/**
 * Splits a text into sentences before tokenization. NLTK's `word_tokenize(text)` runs Punkt first
 * (not available here); the default keeps the text whole, as `preserve_line=True` does. The two
 * differ only on multi-sentence inputs, where Punkt's splits can change how final periods and
 * quotes are tokenized (a period ending an inner sentence becomes its own token).
 */
export type SentenceSplitter = (text: string) => string[];

const whole: SentenceSplitter = (t) => [t];

function tokens(text: string, sentences: SentenceSplitter): string[] {
  const out: string[] = [];
  for (const s of sentences(text)) for (const t of wordTokenize(s)) out.push(t);
  return out;
}

/** ClariQ's BM25 baseline: tokenize → drop stopwords (case-sensitive) → Porter stem. */
export function clariqTerms(text: string, sentences: SentenceSplitter = whole): string[] {
  const out: string[] = [];
  for (const t of tokens(text, sentences)) if (!ENGLISH_STOPWORDS.has(t)) out.push(porterStem(t));
  return out;
}

const LETTER = /\p{L}/u;

/** token → its Qulac term, or null when dropped: one lookup per token instead of a regex test, a stem lookup and a stopword lookup. */
const qulacTerm = new Map<string, string | null>();

/** A token's Qulac term (null: dropped), cached. */
function qulacTermOf(t: string): string | null {
  let v = qulacTerm.get(t);
  if (v === undefined) {
    const s = LETTER.test(t) ? porterStem(t) : null;
    v = s === null || ENGLISH_STOPWORDS.has(s) ? null : s;
    if (qulacTerm.size < 500_000) qulacTerm.set(t, v); // bounded: numbers and typos never repeat
  }
  return v;
}

/** Qulac's query likelihood: lowercase → tokenize → keep tokens with a letter → stem → drop stopwords. */
export function qulacTerms(text: string, sentences: SentenceSplitter = whole): string[] {
  const out: string[] = [];
  for (const t of tokens(text.toLowerCase(), sentences)) {
    const v = qulacTermOf(t);
    if (v !== null) out.push(v);
  }
  return out;
}

/**
 * {@link qulacTerms} of many texts as term numbers: `terms[id]` is the term, numbered as met. Each
 * distinct token is looked up once (token → number), which is what a per-topic index wants.
 */
export class QulacVocabulary {
  /** The terms by number. */
  readonly terms: string[] = [];
  private readonly byToken = new Map<string, number>(); // -1: dropped
  private readonly byTerm = new Map<string, number>();
  private buffer = new Int32Array(1024);

  /** The term numbers of a text, in order. */
  termIds(text: string, sentences: SentenceSplitter = whole): Int32Array {
    const toks = tokens(text.toLowerCase(), sentences);
    if (this.buffer.length < toks.length) this.buffer = new Int32Array(toks.length * 2);
    const out = this.buffer;
    let n = 0;
    for (const t of toks) {
      let id = this.byToken.get(t);
      if (id === undefined) {
        const v = qulacTermOf(t);
        if (v === null) id = -1;
        else {
          id = this.byTerm.get(v);
          if (id === undefined) {
            id = this.terms.length;
            this.terms.push(v);
            this.byTerm.set(v, id);
          }
        }
        this.byToken.set(t, id);
      }
      if (id >= 0) out[n++] = id;
    }
    return out.slice(0, n);
  }
}

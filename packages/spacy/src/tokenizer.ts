// spaCy's rule-based tokenizer (spacy/tokenizer.pyx, 3.x) from a pipeline's serialized rules:
// whitespace splitting where only a single ' ' is absorbed, special cases, prefix/suffix peeling,
// token_match / url_match, infixes, and the final phrase-matcher pass that applies special cases
// spanning affixes. spaCy's chunk cache only saves work (it never changes a result), so convkit keeps
// its own, larger one. The splitting and the cache run in WebAssembly (wasm/chunks.ts, over the
// text's code units); a chunk the cache does not hold comes back here for the affix rules, which
// are regular expressions.

import { compileInfixFinder, compileMatch, compilePythonRegex, compileSuffixSearch } from "@convkit/pyregex";
import { ChunkKernel, type TokenizedText } from "./chunk-kernel.js";
import type { TokenizerRules } from "./folder.js";
import { Lexicon } from "./lexicon.js";
import { MatchBuffers, TokenSink } from "./token-buffers.js";

export type { TokenizedText } from "./chunk-kernel.js";

/**
 * A node of the special cases' trie: the patterns continuing with each next token text, by the
 * text (`next`) and by its number among the texts that continue patterns (`nextWord`), and whether one
 * ends here.
 */
interface PatternNode {
  next: Map<string, PatternNode>;
  nextWord: Map<number, PatternNode>;
  ends: boolean;
}

/**
 * Chunks per cache generation (any size gives the same tokens; chunks used again survive in the
 * next generation). On diverse text a miss (the affix rules, several regular expressions) costs
 * about 2.5 µs: on the benchmark's 26.5 MiB of real text 65,536 sent 385K chunks through the rules,
 * 131,072 340K (the lexicon's renewal at as many entries bounds what a larger one could keep), for
 * 4 MiB more a generation (32-byte slots at half load).
 */
export const CACHE_LIMIT = 131_072;

/**
 * Lexicon entries before a pipeline starts the tokenizer afresh (its strings and index are small
 * beside the senter's records, and a renewal sends every word through the affix rules again); the
 * lexicon's index is made this size at once (`lexiconLimit`), so that it never leaves the smaller
 * tables of its growth behind in the kernel's memory.
 */
export const LEXICON_LIMIT = 131_072;

/**
 * The longest window (in units) of a chunk's affix peeling that is looked up in the chunk cache. A
 * cached window only ends the peeling early (its tokens are the ones the peeling would reach), so
 * skipping the lookup changes no token; but each lookup hashes the whole window, and a run of
 * thousands of punctuation marks peeled one at a time would hash quadratically many units. Words
 * inside punctuation are shorter than this.
 */
const PEEL_CACHE_UNITS = 64;

/** The tokenizer of one pipeline. Not thread-safe; one per worker. */
export class SpacyTokenizer {
  readonly lexicon: Lexicon;
  /** The text being tokenized, its pieces, tokens and every chunk table. */
  private readonly kernel: ChunkKernel;
  /** A piece as {@link ChunkKernel.piece} gives it. */
  private readonly pieceBuffer = new Int32Array(3);
  private readonly rules: TokenizerRules;
  private readonly prefixRe: RegExp | null;
  /** `suffix_search`: the length of a string's suffix (0: none, or no rule). */
  private readonly findSuffix: (s: string) => number;
  /** `infix_finditer`: the infixes of a string as flat [start, end) pairs (none without the rule). */
  private readonly findInfixes: (s: string) => number[];
  /** `token_match` and `url_match`: whether a string matches at its start (false without the rule). */
  private readonly tokenMatch: (s: string) => boolean;
  private readonly urlMatch: (s: string) => boolean;
  /**
   * Special cases: chunk → lexicon entries of its tokens. The kernel keeps them as chunks too, and
   * seeds each generation of its chunk cache with them (chunk texts → lexicon entries: the special
   * cases, then every chunk tokenized so far; entries carry a special case's NORM, so unlike spaCy's
   * lexeme cache this one may also keep chunks that contained special cases).
   */
  private readonly specials = new Map<string, Int32Array>();
  /**
   * The longest special case's chunk in units: a longer window is none, so it is not hashed to ask
   * (spaCy hashes every window it peels, quadratic on a long punctuation run).
   */
  private readonly longestSpecial: number;
  /** The longest window the peeling asks the kernel about (specials and cached chunks, {@link PEEL_CACHE_UNITS}). */
  private readonly longestPeelLookup: number;
  /** Lengths of the affixes peeled off a chunk, outermost first (see {@link tokenizeSpan}). */
  private prefixLengths = new Int32Array(64);
  private suffixLengths = new Int32Array(64);
  /** Phrase-matcher patterns (special cases containing affixes or spaces) as a trie over token texts. */
  private readonly patterns = new Map<string, PatternNode>();
  /**
   * Where this tokenizer's two notes on each lexicon entry are ({@link Lexicon.notes}; a note in a
   * typed array: every token passes here, and a holey array of objects cost more than the rest of
   * the pass), set by {@link notePatterns}. The first, on the patterns the entry starts: 0 none that
   * could change a token, else 2 × (1 + the index in {@link startNodes} of the trie node of the
   * patterns it starts), + 1 when the one-token pattern of that node is a no-op for this entry. The
   * second, on the patterns it continues: 0 none (as for nearly every token after a pattern's
   * first), else its text's number in {@link patternWords}.
   */
  private readonly patternNotes: number;
  private readonly startNodes: PatternNode[] = [];
  /** Token texts that continue a pattern (after its first token), numbered from 1. */
  private readonly patternWords = new Map<string, number>();
  /** Where tokens go when special cases spanning several of them replace some (reused from text to text). */
  private readonly specialSink = new TokenSink();
  private readonly matchBuffers = new MatchBuffers();

  /**
   * `options.cacheLimit`: chunks per cache generation, the special cases included (default
   * {@link CACHE_LIMIT}; tests make it tiny, to rotate often); `options.lexiconLimit`: the size the
   * lexicon's index is made for (default {@link LEXICON_LIMIT}; it grows past it if need be).
   */
  constructor(
    rules: TokenizerRules,
    where: string,
    options: { cacheLimit?: number; lexiconLimit?: number } = {},
  ) {
    this.rules = rules;
    this.kernel = new ChunkKernel(options.cacheLimit ?? CACHE_LIMIT, options.lexiconLimit ?? LEXICON_LIMIT);
    this.lexicon = new Lexicon(this.kernel);
    this.patternNotes = this.lexicon.claimNotes(2);
    this.prefixRe =
      rules.prefixSearch === null ? null : compilePythonRegex(rules.prefixSearch, `${where} (prefix_search)`);
    this.findSuffix =
      rules.suffixSearch === null
        ? () => 0
        : compileSuffixSearch(rules.suffixSearch, `${where} (suffix_search)`);
    this.findInfixes =
      rules.infixFinditer === null
        ? () => []
        : compileInfixFinder(rules.infixFinditer, `${where} (infix_finditer)`);
    const match = (p: string | null, name: string) =>
      p === null ? () => false : compileMatch(p, `${where} (${name})`);
    this.tokenMatch = match(rules.tokenMatch, "token_match");
    this.urlMatch = match(rules.urlMatch, "url_match");
    this.internSpecials();
    this.longestSpecial = Array.from(rules.exceptions).reduce((m, [chunk]) => Math.max(m, chunk.length), 0);
    this.longestPeelLookup = Math.max(this.longestSpecial, PEEL_CACHE_UNITS);
    for (const [chunk] of rules.exceptions) {
      if (
        rules.fasterHeuristics &&
        this.findPrefix(chunk) === 0 &&
        this.findInfixes(chunk).length === 0 &&
        this.findSuffix(chunk) === 0 &&
        !chunk.includes(" ")
      )
        continue;
      const doc = this.tokenizeAffixes(chunk, false);
      // An empty pattern matches nothing (spaCy's matcher skips it).
      if (doc.length === 0) continue;
      const orths = Array.from(doc.lex.subarray(0, doc.length), (l) => this.lexicon.entries[l]!.orth);
      let node: PatternNode | undefined = this.patterns.get(orths[0]!);
      if (!node) {
        node = { next: new Map(), nextWord: new Map(), ends: false };
        this.patterns.set(orths[0]!, node);
      }
      for (const orth of orths.slice(1)) {
        let word = this.patternWords.get(orth);
        if (word === undefined) {
          word = this.patternWords.size + 1;
          this.patternWords.set(orth, word);
        }
        let next: PatternNode | undefined = node.next.get(orth);
        if (!next) {
          next = { next: new Map(), nextWord: new Map(), ends: false };
          node.next.set(orth, next);
          node.nextWord.set(word, next);
        }
        node = next;
      }
      node.ends = true;
    }
    this.notePatterns();
  }

  private internSpecials(): void {
    this.specials.clear();
    this.kernel.clearChunks();
    for (const [chunk, tokens] of this.rules.exceptions)
      this.specials.set(
        chunk,
        Int32Array.from(tokens, (t) => this.lexicon.getSpecial(t)),
      );
    for (const [chunk, ids] of this.specials) this.kernel.addSpecial(chunk, ids, this.lexicon.lengths);
    // A fresh generation holds the special cases.
    this.kernel.fn.rotate();
    // The entries' pattern notes point into startNodes: they went with the lexicon's last clear.
    this.startNodes.length = 0;
  }

  /**
   * Starts the lexicon afresh (entries renumbered from 0, the chunk cache emptied): what keeps a
   * long run's memory bounded. Tokens stay the same; ids given out before are void.
   */
  renew(): void {
    this.lexicon.clear();
    this.internSpecials();
    this.notePatterns();
  }

  /**
   * Notes on every lexicon entry that can be a pattern's first token or a later one which patterns
   * it starts and continues (see {@link patternNotes}). Each such text is interned first, as a
   * plain entry: an entry added later holds neither text, so its notes, 0, are right as they are,
   * and no new word of a text is looked up among the patterns.
   */
  private notePatterns(): void {
    for (const orth of this.patterns.keys()) this.lexicon.get(orth);
    for (const orth of this.patternWords.keys()) this.lexicon.get(orth);
    const { entries, notes, noteWords } = this.lexicon;
    for (let lex = 0; lex < entries.length; lex++) {
      notes[lex * noteWords + this.patternNotes] = this.patternStartCode(lex);
      notes[lex * noteWords + this.patternNotes + 1] = this.patternWords.get(entries[lex]!.orth) ?? 0;
    }
  }

  /**
   * The tokens of a text, exactly as spaCy's `nlp.make_doc(text)`. The arrays are the tokenizer's
   * own and are overwritten by the next call.
   */
  tokenize(text: string): TokenizedText {
    return this.applySpecialCases(text, this.tokenizeAffixes(text, true));
  }

  /** Token texts (the lexicon entries' orths). */
  texts(t: TokenizedText): string[] {
    return Array.from(t.lex.subarray(0, t.length), (l) => this.lexicon.entries[l]!.orth);
  }

  private findPrefix(s: string): number {
    if (!this.prefixRe) return 0;
    const m = this.prefixRe.exec(s);
    return m ? m[0].length : 0;
  }

  /**
   * spaCy's `_tokenize_affixes`: whitespace runs split the text; after a chunk, a run's first
   * character, if it is ' ', becomes the chunk's trailing space and the rest of the run a token of
   * its own (a leading run is a token whole); each chunk through the cache or the rules. The kernel
   * splits and looks up; the chunks it does not hold come back one at a time.
   */
  private tokenizeAffixes(text: string, withSpecialCases: boolean): TokenizedText {
    const kernel = this.kernel;
    const fn = kernel.fn;
    kernel.loadText(text);
    const piece = this.pieceBuffer;
    let k = fn.scan(text.length, withSpecialCases ? 1 : 0);
    const pieces = kernel.pieces;
    while (k >= 0) {
      kernel.piece(k, piece);
      const a = piece[0]!;
      const end = piece[1]!;
      const b = end < 0 ? ~end : end;
      const before = kernel.tokenCount;
      this.tokenizeSpan(text, a, b, withSpecialCases);
      if (withSpecialCases) k = fn.settleResolve(a, b, piece[2]!, before, end < 0 ? 1 : 0, k);
      else {
        if (end < 0) fn.spaceAfterLast();
        k = k + 1 < pieces ? k + 1 : -1;
      }
    }
    return kernel.tokens();
  }

  /**
   * spaCy's `_tokenize` of the chunk `text[start, end)`: affixes peeled, then the middle attached.
   * What is left of the chunk is the window `[lo, hi)` (offsets in the text), and the peeled affixes
   * are kept as lengths, so that only the regular expressions get strings.
   */
  private tokenizeSpan(text: string, start: number, end: number, withSpecialCases: boolean): void {
    const fn = this.kernel.fn;
    if (end - start > this.prefixLengths.length) {
      this.prefixLengths = new Int32Array(end - start);
      this.suffixLengths = new Int32Array(end - start);
    }
    let prefixes = 0;
    let suffixes = 0;
    let lo = start;
    let hi = end;
    let lastSize = -1;
    while (hi > lo && hi - lo !== lastSize) {
      // What is left after a peel tokenizes as it would as a chunk of its own (the loop looks at
      // the window alone), so a window cached as a chunk ends the peeling: the middle below takes
      // its cached tokens. On real text the word inside punctuation usually is one.
      // A special case's chunk ends it too (both asked in one call).
      if (
        withSpecialCases &&
        hi - lo <= this.longestPeelLookup &&
        fn.endsPeel(lo, hi, lastSize !== -1 ? 1 : 0) !== 0
      )
        break;
      const s = text.slice(lo, hi);
      if (this.tokenMatch(s)) break;
      lastSize = hi - lo;
      const pre = this.findPrefix(s);
      if (pre !== 0 && hi > lo + pre && withSpecialCases && this.isSpecial(lo + pre, hi)) {
        this.prefixLengths[prefixes++] = pre;
        lo += pre;
        break;
      }
      const suf = this.findSuffix(pre === 0 ? s : text.slice(lo + pre, hi));
      if (suf !== 0 && hi - suf > lo && withSpecialCases && this.isSpecial(lo, hi - suf)) {
        this.suffixLengths[suffixes++] = suf;
        hi -= suf;
        break;
      }
      if (pre !== 0 && suf !== 0 && pre + suf <= hi - lo) {
        this.prefixLengths[prefixes++] = pre;
        this.suffixLengths[suffixes++] = suf;
        lo += pre;
        hi -= suf;
      } else if (pre !== 0) {
        this.prefixLengths[prefixes++] = pre;
        lo += pre;
      } else if (suf !== 0) {
        this.suffixLengths[suffixes++] = suf;
        hi -= suf;
      }
    }
    // _attach_tokens
    const lexicon = this.lexicon;
    let p = start;
    for (let k = 0; k < prefixes; k++) {
      lexicon.pushRange(p, p + this.prefixLengths[k]!);
      p += this.prefixLengths[k]!;
    }
    if (hi > lo) {
      if (withSpecialCases && fn.pushCachedRange(lo, hi) !== 0) {
        // The middle was a special case or a chunk seen before.
      } else {
        const s = text.slice(lo, hi);
        if (this.tokenMatch(s) || this.urlMatch(s)) lexicon.pushRange(lo, hi);
        else {
          const infixes = this.findInfixes(s);
          let from = lo;
          for (let k = 0; k < infixes.length; k += 2) {
            const infixStart = lo + infixes[k]!;
            const infixEnd = lo + infixes[k + 1]!;
            if (infixStart === lo) continue;
            if (infixStart !== from) lexicon.pushRange(from, infixStart);
            if (infixStart !== infixEnd) lexicon.pushRange(infixStart, infixEnd);
            from = infixEnd;
          }
          if (from < hi) lexicon.pushRange(from, hi);
        }
      }
    }
    // The suffixes, innermost first: the last one peeled is next to the middle.
    let q = hi;
    for (let k = suffixes - 1; k >= 0; k--) {
      lexicon.pushRange(q, q + this.suffixLengths[k]!);
      q += this.suffixLengths[k]!;
    }
  }

  /** Whether text units [a, b) are a special case's chunk (hashed only when one could be that long). */
  private isSpecial(a: number, b: number): boolean {
    return b - a <= this.longestSpecial && this.kernel.fn.isSpecial(a, b) !== 0;
  }

  /** The first pattern note of a lexicon entry (see {@link patternNotes}). */
  private patternStartCode(lex: number): number {
    const orth = this.lexicon.entries[lex]!.orth;
    const first = this.patterns.get(orth);
    if (!first) return 0;
    const special = first.ends ? this.specials.get(orth) : undefined;
    const noOp = special !== undefined && special.length === 1 && special[0] === lex;
    if (noOp && first.next.size === 0) return 0;
    this.startNodes.push(first);
    return 2 * this.startNodes.length + (noOp ? 1 : 0);
  }

  /** spaCy's `_apply_special_cases`: special cases found by the phrase matcher over token texts replace their tokens. */
  private applySpecialCases(text: string, doc: TokenizedText): TokenizedText {
    if (this.patterns.size === 0) return doc;
    const entries = this.lexicon.entries;
    const orthOf = (i: number) => entries[doc.lex[i]!]!.orth;
    const notes = this.lexicon.notes;
    const stride = this.lexicon.noteWords;
    const startNote = this.patternNotes;
    const wordNote = startNote + 1;
    // Matches as [start, end) token spans: every pattern at every start, as spaCy's PhraseMatcher.
    // A one-token match whose special case is that very token changes nothing and, being the
    // shortest, takes no token from a longer match: it is not collected (spaces and dashes are
    // such patterns in the English rules, and common).
    // Flat [start, end) pairs in typed arrays, as is all below: a run of thousands of matches (a run
    // of apostrophes, each pair of them a special case) made as many small arrays and Set entries,
    // whose collection grew faster than the text.
    const m = this.matchBuffers;
    let count = 0;
    let longest = 0;
    for (let i = 0; i < doc.length; i++) {
      const code = notes[doc.lex[i]! * stride + startNote]!;
      if (code === 0) continue;
      let node: PatternNode | undefined = this.startNodes[(code >> 1) - 1];
      const firstIsNoOp = (code & 1) === 1;
      for (let j = i + 1; node !== undefined; j++) {
        if (node.ends && !(firstIsNoOp && j === i + 1)) {
          if (count === m.start.length) m.grow(count * 2);
          m.start[count] = i;
          m.end[count++] = j;
          if (j - i > longest) longest = j - i;
        }
        if (j === doc.length) break;
        const word = notes[doc.lex[j]! * stride + wordNote]!;
        node = word === 0 ? undefined : node.nextWord.get(word);
      }
    }
    if (count === 0) return doc;
    // Longest first, then leftmost (a counting sort by length: of one length they were found
    // leftmost first); a span is kept unless its first or last token is taken.
    const at = new Int32Array(longest + 2);
    for (let k = 0; k < count; k++) at[longest - (m.end[k]! - m.start[k]!) + 1]!++;
    for (let l = 1; l <= longest + 1; l++) at[l]! += at[l - 1]!;
    const order = m.order(count);
    for (let k = 0; k < count; k++) order[at[longest - (m.end[k]! - m.start[k]!)]!++] = k;
    const { seen, keptEnd } = m.tokens(doc.length);
    for (let o = 0; o < count; o++) {
      const k = order[o]!;
      const s0 = m.start[k]!;
      const e = m.end[k]!;
      // Kept spans do not overlap: a token inside one, taken by a longer span, would make that
      // span lie strictly inside this one.
      if (seen[s0] === 0 && seen[e - 1] === 0) keptEnd[s0] = e;
      seen.fill(1, s0, e);
    }
    // Only kept spans whose text (with its inner spaces) is a special case change anything; they
    // are in order of their start. The tokens go to the sink from the first such span on.
    const out = this.specialSink;
    out.length = 0;
    let i = 0;
    let replaced = false;
    for (let s0 = 0; s0 < doc.length; s0++) {
      const e = keptEnd[s0]!;
      if (e === 0) continue;
      const last = e - 1;
      const special = this.specials.get(text.slice(doc.start[s0]!, doc.start[last]! + orthOf(last).length));
      if (!special) continue;
      replaced = true;
      for (; i < s0; i++) {
        out.push(doc.lex[i]!, doc.start[i]!);
        out.spacy[out.length - 1] = doc.spacy[i]!;
      }
      let idx = doc.start[s0]!;
      for (let k = 0; k < special.length; k++) {
        out.push(special[k]!, idx);
        idx += entries[special[k]!]!.orth.length;
      }
      out.spacy[out.length - 1] = doc.spacy[e - 1]!;
      i = e;
    }
    if (!replaced) return doc;
    for (; i < doc.length; i++) {
      out.push(doc.lex[i]!, doc.start[i]!);
      out.spacy[out.length - 1] = doc.spacy[i]!;
    }
    return out;
  }
}

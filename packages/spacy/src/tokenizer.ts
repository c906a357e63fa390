// spaCy's rule-based tokenizer (spacy/tokenizer.pyx, 3.x) from a pipeline's serialized rules:
// whitespace splitting where only a single ' ' is absorbed, special cases, prefix/suffix peeling,
// token_match / url_match, infixes, and the final phrase-matcher pass that applies special cases
// spanning affixes. spaCy's chunk cache only saves work (it never changes a result), so convkit keeps
// its own, larger one.
import { isPySpace } from "@convkit/io";
import type { SpecialToken, TokenizerRules } from "./folder.js";
import { compilePythonRegex } from "./pyregex.js";

/** Tokens of one text: parallel arrays, `lex` indexing the tokenizer's lexicon. */
export interface TokenizedText {
  length: number;
  /** Lexicon entry of each token (its text, and a special case's NORM where one was set). */
  lex: Int32Array;
  /** UTF-16 offset of each token in the text. */
  start: Int32Array;
  /** 1 where a single space follows the token (spaCy's `whitespace_`). */
  spacy: Uint8Array;
}

/** A lexicon entry: a token text, plus the NORM a special case gave it (undefined: the lexeme's own). */
export interface LexiconEntry {
  orth: string;
  norm: string | undefined;
}

/** Interned token texts (and special-case norm variants) → small ints; what the senter keys its caches by. */
export class Lexicon {
  readonly entries: LexiconEntry[] = [];
  private readonly byKey = new Map<string, number>();

  /** The entry of a plain token text. */
  get(orth: string): number {
    let id = this.byKey.get(orth);
    if (id === undefined) {
      id = this.entries.length;
      this.entries.push({ orth, norm: undefined });
      this.byKey.set(orth, id);
    }
    return id;
  }

  /** The entry of a special case's token (its NORM, if the rule sets one, makes it a separate entry). */
  getSpecial(t: SpecialToken): number {
    if (t.norm === undefined) return this.get(t.orth);
    const key = `${t.orth}\u0000${t.norm}`;
    let id = this.byKey.get(key);
    if (id === undefined) {
      id = this.entries.length;
      this.entries.push({ orth: t.orth, norm: t.norm });
      this.byKey.set(key, id);
    }
    return id;
  }

  get size(): number {
    return this.entries.length;
  }

  /** Forgets every entry (ids are reused from 0). */
  clear(): void {
    this.entries.length = 0;
    this.byKey.clear();
  }
}

/** Growable token buffers for one text. */
class TokenSink {
  lex = new Int32Array(256);
  start = new Int32Array(256);
  spacy = new Uint8Array(256);
  length = 0;

  push(lex: number, start: number): void {
    if (this.length === this.lex.length) this.grow();
    this.lex[this.length] = lex;
    this.start[this.length] = start;
    this.spacy[this.length] = 0;
    this.length++;
  }

  private grow(): void {
    const n = this.lex.length * 2;
    const lex = new Int32Array(n);
    lex.set(this.lex);
    const start = new Int32Array(n);
    start.set(this.start);
    const spacy = new Uint8Array(n);
    spacy.set(this.spacy);
    this.lex = lex;
    this.start = start;
    this.spacy = spacy;
  }
}

/** Chunk cache size: entries kept before the cache is cleared (any size gives the same tokens). */
const CACHE_LIMIT = 200_000;

/** The tokenizer of one pipeline. Not thread-safe; one per worker. */
export class SpacyTokenizer {
  readonly lexicon = new Lexicon();
  private readonly rules: TokenizerRules;
  private readonly prefixRe: RegExp | null;
  private readonly suffixRe: RegExp | null;
  private readonly infixRe: RegExp | null;
  private readonly tokenMatchRe: RegExp | null;
  private readonly urlMatchRe: RegExp | null;
  /** Special cases: chunk → lexicon entries of its tokens. */
  private readonly specials = new Map<string, Int32Array>();
  /** Chunk texts → lexicon entries (results without special cases only, as spaCy caches). */
  private readonly cache = new Map<string, Int32Array>();
  /** Phrase-matcher patterns (special cases containing affixes or spaces), by their first token's text. */
  private readonly patterns = new Map<string, string[][]>();
  /** Lexicon entries whose text starts some pattern. */
  private readonly patternStarts = new Set<number>();

  constructor(rules: TokenizerRules, where: string) {
    this.rules = rules;
    const re = (p: string | null, name: string, extra = "") =>
      p === null ? null : compilePythonRegex(p, `${where} (${name})`, extra);
    this.prefixRe = re(rules.prefixSearch, "prefix_search");
    this.suffixRe = re(rules.suffixSearch, "suffix_search");
    this.infixRe = re(rules.infixFinditer, "infix_finditer", "g");
    // `match` anchors at the start only; `y` (sticky) at lastIndex 0 does exactly that.
    this.tokenMatchRe = re(rules.tokenMatch, "token_match", "y");
    this.urlMatchRe = re(rules.urlMatch, "url_match", "y");
    for (const [chunk, tokens] of rules.exceptions)
      this.specials.set(
        chunk,
        Int32Array.from(tokens, (t) => this.lexicon.getSpecial(t)),
      );
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
      const orths = Array.from(doc.lex.subarray(0, doc.length), (l) => this.lexicon.entries[l]!.orth);
      const first = orths[0]!;
      const list = this.patterns.get(first) ?? [];
      list.push(orths);
      this.patterns.set(first, list);
    }
    this.internPatternStarts();
  }

  private internSpecials(): void {
    for (const [chunk, tokens] of this.rules.exceptions)
      this.specials.set(
        chunk,
        Int32Array.from(tokens, (t) => this.lexicon.getSpecial(t)),
      );
  }

  private internPatternStarts(): void {
    this.patternStarts.clear();
    for (const first of this.patterns.keys()) this.patternStarts.add(this.lexicon.get(first));
  }

  /**
   * Starts the lexicon afresh (entries renumbered from 0, the chunk cache emptied): what keeps a
   * long run's memory bounded. Tokens stay the same; ids given out before are void.
   */
  renew(): void {
    this.lexicon.clear();
    this.cache.clear();
    this.internSpecials();
    this.internPatternStarts();
  }

  /** The tokens of a text, exactly as spaCy's `nlp.make_doc(text)`. */
  tokenize(text: string): TokenizedText {
    const doc = this.tokenizeAffixes(text, true);
    const out = this.applySpecialCases(text, doc);
    return { length: out.length, lex: out.lex, start: out.start, spacy: out.spacy };
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

  private findSuffix(s: string): number {
    if (!this.suffixRe) return 0;
    const m = this.suffixRe.exec(s);
    return m ? m[0].length : 0;
  }

  /** Python's `finditer`: non-overlapping matches, left to right, as [start, end) pairs. */
  private findInfixes(s: string): number[] {
    const re = this.infixRe;
    if (!re) return [];
    const out: number[] = [];
    re.lastIndex = 0;
    for (let m = re.exec(s); m !== null; m = re.exec(s)) {
      out.push(m.index, m.index + m[0].length);
      if (m[0].length === 0) re.lastIndex = m.index + (s.codePointAt(m.index)! > 0xffff ? 2 : 1);
    }
    return out;
  }

  private matches(re: RegExp | null, s: string): boolean {
    if (!re) return false;
    re.lastIndex = 0;
    return re.test(s);
  }

  /** spaCy's `_tokenize_affixes`: whitespace splitting, then each chunk through the cache or the rules. */
  private tokenizeAffixes(text: string, withSpecialCases: boolean): TokenSink {
    const doc = new TokenSink();
    const n = text.length;
    if (n === 0) return doc;
    let start = 0;
    let inWs = isPySpace(text.charCodeAt(0));
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (isPySpace(c) !== inWs) {
        if (start < i) this.chunk(doc, text, start, i, withSpecialCases);
        if (c === 32) {
          doc.spacy[doc.length - 1] = 1;
          start = i + 1;
        } else start = i;
        inWs = !inWs;
      }
    }
    if (start < n) {
      this.chunk(doc, text, start, n, withSpecialCases);
      doc.spacy[doc.length - 1] = text.charCodeAt(n - 1) === 32 && !inWs ? 1 : 0;
    }
    return doc;
  }

  /** One whitespace-delimited chunk: special case, cache, or the affix rules. */
  private chunk(doc: TokenSink, text: string, a: number, b: number, withSpecialCases: boolean): void {
    const span = text.slice(a, b);
    if (this.specialsAndCache(doc, span, a, withSpecialCases)) return;
    const before = doc.length;
    this.tokenizeSpan(doc, span, a, withSpecialCases);
    // Entries carry a special case's NORM, so unlike spaCy's lexeme cache this one may also keep
    // chunks that contained special cases.
    if (withSpecialCases) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(span, doc.lex.slice(before, doc.length));
    }
  }

  /** spaCy's `_try_specials_and_cache`: pushes the chunk's tokens and returns true on a hit. */
  private specialsAndCache(doc: TokenSink, span: string, at: number, withSpecialCases: boolean): boolean {
    // Results cached with special cases on are only reused with them on.
    const hit = withSpecialCases ? (this.specials.get(span) ?? this.cache.get(span)) : undefined;
    if (!hit) return false;
    const entries = this.lexicon.entries;
    for (let k = 0; k < hit.length; k++) {
      doc.push(hit[k]!, at);
      at += entries[hit[k]!]!.orth.length;
    }
    return true;
  }

  /** spaCy's `_tokenize`: affixes peeled, then the middle attached. */
  private tokenizeSpan(doc: TokenSink, span: string, at: number, withSpecialCases: boolean): void {
    const prefixes: string[] = [];
    const suffixes: string[] = [];
    let s = span;
    let lastSize = -1;
    while (s.length > 0 && s.length !== lastSize) {
      if (this.matches(this.tokenMatchRe, s)) break;
      if (withSpecialCases && this.specials.has(s)) break;
      lastSize = s.length;
      const pre = this.findPrefix(s);
      let prefix = "";
      let minusPre = "";
      if (pre !== 0) {
        prefix = s.slice(0, pre);
        minusPre = s.slice(pre);
        if (minusPre.length > 0 && withSpecialCases && this.specials.has(minusPre)) {
          s = minusPre;
          prefixes.push(prefix);
          break;
        }
      }
      const suf = this.findSuffix(s.slice(pre));
      let suffix = "";
      let minusSuf = "";
      if (suf !== 0) {
        suffix = s.slice(s.length - suf);
        minusSuf = s.slice(0, s.length - suf);
        if (minusSuf.length > 0 && withSpecialCases && this.specials.has(minusSuf)) {
          s = minusSuf;
          suffixes.push(suffix);
          break;
        }
      }
      if (pre !== 0 && suf !== 0 && pre + suf <= s.length) {
        s = s.slice(pre, s.length - suf);
        prefixes.push(prefix);
        suffixes.push(suffix);
      } else if (pre !== 0) {
        s = minusPre;
        prefixes.push(prefix);
      } else if (suf !== 0) {
        s = minusSuf;
        suffixes.push(suffix);
      }
    }
    // _attach_tokens
    const lexicon = this.lexicon;
    for (const p of prefixes) {
      doc.push(lexicon.get(p), at);
      at += p.length;
    }
    if (s.length > 0) {
      if (this.specialsAndCache(doc, s, at, withSpecialCases)) at += s.length;
      else if (this.matches(this.tokenMatchRe, s) || this.matches(this.urlMatchRe, s)) {
        doc.push(lexicon.get(s), at);
        at += s.length;
      } else {
        const infixes = this.findInfixes(s);
        if (infixes.length === 0) {
          doc.push(lexicon.get(s), at);
          at += s.length;
        } else {
          let start = 0;
          for (let k = 0; k < infixes.length; k += 2) {
            const infixStart = infixes[k]!;
            const infixEnd = infixes[k + 1]!;
            if (infixStart === 0) continue;
            if (infixStart !== start) doc.push(lexicon.get(s.slice(start, infixStart)), at + start);
            if (infixStart !== infixEnd)
              doc.push(lexicon.get(s.slice(infixStart, infixEnd)), at + infixStart);
            start = infixEnd;
          }
          if (start < s.length) doc.push(lexicon.get(s.slice(start)), at + start);
          at += s.length;
        }
      }
    }
    for (let k = suffixes.length - 1; k >= 0; k--) {
      doc.push(lexicon.get(suffixes[k]!), at);
      at += suffixes[k]!.length;
    }
  }

  /** spaCy's `_apply_special_cases`: special cases found by the phrase matcher over token texts replace their tokens. */
  private applySpecialCases(text: string, doc: TokenSink): TokenSink {
    if (this.patterns.size === 0) return doc;
    const entries = this.lexicon.entries;
    const orthOf = (i: number) => entries[doc.lex[i]!]!.orth;
    // Matches as [start, end) token spans.
    const found: [number, number][] = [];
    for (let i = 0; i < doc.length; i++) {
      const lex = doc.lex[i]!;
      const e = entries[lex]!;
      if (!this.patternStarts.has(e.norm === undefined ? lex : this.lexicon.get(e.orth))) continue;
      for (const p of this.patterns.get(e.orth)!) {
        if (i + p.length > doc.length) continue;
        let k = 1;
        while (k < p.length && orthOf(i + k) === p[k]) k++;
        if (k === p.length) found.push([i, i + p.length]);
      }
    }
    if (found.length === 0) return doc;
    // Longest first, then leftmost; a span is kept unless its first or last token is taken.
    found.sort((x, y) => y[1] - y[0] - (x[1] - x[0]) || x[0] - y[0]);
    const seen = new Set<number>();
    const kept: [number, number][] = [];
    for (const [s, e] of found) {
      if (!seen.has(s) && !seen.has(e - 1)) kept.push([s, e]);
      for (let t = s; t < e; t++) seen.add(t);
    }
    kept.sort((x, y) => x[0] - y[0]);
    const byStart = new Map(kept.map((k) => [k[0], k[1]]));
    const out = new TokenSink();
    let i = 0;
    while (i < doc.length) {
      const end = byStart.get(i);
      if (end === undefined) {
        out.push(doc.lex[i]!, doc.start[i]!);
        out.spacy[out.length - 1] = doc.spacy[i]!;
        i++;
        continue;
      }
      const last = end - 1;
      const spanText = text.slice(doc.start[i]!, doc.start[last]! + orthOf(last).length);
      const special = this.specials.get(spanText);
      if (!special) {
        for (let t = i; t < end; t++) {
          out.push(doc.lex[t]!, doc.start[t]!);
          out.spacy[out.length - 1] = doc.spacy[t]!;
        }
      } else {
        let idx = doc.start[i]!;
        for (let k = 0; k < special.length; k++) {
          out.push(special[k]!, idx);
          idx += entries[special[k]!]!.orth.length;
        }
        out.spacy[out.length - 1] = doc.spacy[last]!;
      }
      i = end;
    }
    return out;
  }
}

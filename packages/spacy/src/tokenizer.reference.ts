// spaCy 3.x's `Tokenizer.__call__` (spacy/tokenizer.pyx) ported plainly: the reference that
// tokenizer.ts's fast paths (the hashing whitespace scan, the chunk cache, cached special cases,
// the phrase-matcher trie) are tested against (tokenizer.diff.test.ts). No cache, no hashing, no
// reused buffers: each step reads as the Cython does. Not exported from the package.
import { isPySpace } from "@convkit/pycompat";
import { compilePythonRegex, isHighSurrogate, isLowSurrogate } from "@convkit/pyregex";
import { elementAt } from "./checked.js";
import type { SpecialToken, TokenizerRules } from "./folder.js";

/** One token as spaCy's Doc has it. */
export interface ReferenceToken {
  text: string;
  /** UTF-16 offset in the text (spaCy's `idx`, which counts code points). */
  start: number;
  /** spaCy's `whitespace_ === " "`. */
  spaceAfter: boolean;
  /** The NORM a special case set (undefined: the lexeme's own). */
  norm?: string;
}

/** A token before it has a place in a Doc. */
type Piece = Pick<ReferenceToken, "text" | "norm">;

const pieceOf = (t: SpecialToken): Piece =>
  t.norm === undefined ? { text: t.orth } : { text: t.orth, norm: t.norm };

/** `find_prefix` / `find_suffix`: the length of `re.search`'s match, 0 for none. */
function found(re: RegExp | null, s: string): number {
  return re?.exec(s)?.[0].length ?? 0;
}

/** `re.match`: at the start only. */
function matches(re: RegExp | null, s: string): boolean {
  if (!re) return false;
  re.lastIndex = 0;
  return re.test(s);
}

/** `Doc.push_back`: the token's idx follows the previous token's idx, length and space. */
function push(doc: ReferenceToken[], p: Piece): void {
  const prev = doc.at(-1);
  const start = prev ? prev.start + prev.text.length + (prev.spaceAfter ? 1 : 0) : 0;
  doc.push({ ...p, start, spaceAfter: false });
}

export class ReferenceTokenizer {
  private readonly prefixRe: RegExp | null;
  private readonly suffixRe: RegExp | null;
  private readonly infixRe: RegExp | null;
  /** The infix pattern, sticky, refusing an empty match (see findInfix). */
  private readonly infixNonEmptyRe: RegExp | null;
  private readonly tokenMatchRe: RegExp | null;
  private readonly urlMatchRe: RegExp | null;
  /** `_rules` / `_specials`: chunk → its tokens. */
  private readonly specials: Map<string, SpecialToken[]>;
  /** `_special_matcher`'s patterns (token texts), by their first token's text. */
  private readonly patterns = new Map<string, string[][]>();

  constructor(rules: TokenizerRules) {
    const re = (p: string | null, name: string, extra = "") =>
      p === null ? null : compilePythonRegex(p, `reference (${name})`, extra);
    this.prefixRe = re(rules.prefixSearch, "prefix_search");
    this.suffixRe = re(rules.suffixSearch, "suffix_search");
    this.infixRe = re(rules.infixFinditer, "infix_finditer", "g");
    this.infixNonEmptyRe =
      this.infixRe &&
      new RegExp(`(?=([^]*))(?:${this.infixRe.source})(?!\\1)`, `${this.infixRe.flags}y`.replace("g", ""));
    this.tokenMatchRe = re(rules.tokenMatch, "token_match", "y");
    this.urlMatchRe = re(rules.urlMatch, "url_match", "y");
    this.specials = new Map(rules.exceptions);
    // add_special_case, in sorted order: the matcher gets the rules that contain affixes or spaces
    // (every rule without faster_heuristics), tokenized without special cases.
    for (const [chunk] of rules.exceptions) {
      if (
        rules.fasterHeuristics &&
        found(this.prefixRe, chunk) === 0 &&
        this.findInfix(chunk).length === 0 &&
        found(this.suffixRe, chunk) === 0 &&
        !chunk.includes(" ")
      )
        continue;
      const orths = this.tokenizeAffixes(chunk, false).map((t) => t.text);
      // PhraseMatcher.add skips an empty pattern.
      const [first] = orths;
      if (first === undefined) continue;
      const list = this.patterns.get(first) ?? [];
      list.push(orths);
      this.patterns.set(first, list);
    }
  }

  /** `nlp.tokenizer(text)`. */
  tokenize(text: string): ReferenceToken[] {
    return this.applySpecialCases(this.tokenizeAffixes(text, true));
  }

  /**
   * `list(infix_finditer(s))` as [start, end] pairs. Python 3.7+: after an empty match, a non-empty
   * one may start at the same place (the lookahead captures the rest, `(?!\1)` refuses to end there).
   */
  private findInfix(s: string): [number, number][] {
    const [re, nonEmpty] = [this.infixRe, this.infixNonEmptyRe];
    if (!re || !nonEmpty) return [];
    const out: [number, number][] = [];
    for (let pos = 0; pos <= s.length; ) {
      re.lastIndex = pos;
      const m = re.exec(s);
      if (!m) break;
      out.push([m.index, m.index + m[0].length]);
      pos = m.index + m[0].length;
      if (m[0].length > 0) continue;
      nonEmpty.lastIndex = pos;
      const n = nonEmpty.exec(s);
      // No longer match: on by one code point (a surrogate pair is two units).
      const pair = isHighSurrogate(s.charCodeAt(pos)) && isLowSurrogate(s.charCodeAt(pos + 1));
      const step = n ? n[0].length : pos < s.length && pair ? 2 : 1;
      if (n) out.push([pos, pos + step]);
      pos += step;
    }
    return out;
  }

  /**
   * `_tokenize_affixes`: runs of space and non-space characters; a run of space that starts with
   * ' ' gives that ' ' to the token before it, the rest of the run is a token.
   */
  private tokenizeAffixes(text: string, withSpecialCases: boolean): ReferenceToken[] {
    const doc: ReferenceToken[] = [];
    if (text.length === 0) return doc;
    let start = 0;
    let inWs = isPySpace(text.charCodeAt(0));
    let i = 0;
    for (; i < text.length; i++) {
      const uc = text.charCodeAt(i);
      if (isPySpace(uc) !== inWs) {
        if (start < i) for (const p of this.chunk(text.slice(start, i), withSpecialCases)) push(doc, p);
        if (uc === 0x20) {
          elementAt(doc, doc.length - 1).spaceAfter = true;
          start = i + 1;
        } else start = i;
        inWs = !inWs;
      }
    }
    if (start < i) {
      for (const p of this.chunk(text.slice(start), withSpecialCases)) push(doc, p);
      elementAt(doc, doc.length - 1).spaceAfter = text.endsWith(" ") && !inWs;
    }
    return doc;
  }

  /** `_try_specials_and_cache` (the specials; there is no cache here), else `_tokenize`. */
  private chunk(span: string, withSpecialCases: boolean): Piece[] {
    const special = withSpecialCases ? this.specials.get(span) : undefined;
    if (special) return special.map(pieceOf);
    const prefixes: string[] = [];
    const suffixes: string[] = [];
    const middle = this.splitAffixes(span, prefixes, suffixes, withSpecialCases);
    return this.attachTokens(middle, prefixes, suffixes, withSpecialCases);
  }

  /** `_split_affixes`: prefixes and suffixes peeled off until none is left, a token_match, or a special case. */
  private splitAffixes(s: string, prefixes: string[], suffixes: string[], withSpecialCases: boolean): string {
    const isSpecial = (x: string) => withSpecialCases && this.specials.has(x);
    let lastSize = 0;
    while (s.length > 0 && s.length !== lastSize) {
      if (matches(this.tokenMatchRe, s)) break;
      if (isSpecial(s)) break;
      lastSize = s.length;
      const preLen = found(this.prefixRe, s);
      const prefix = s.slice(0, preLen);
      const minusPre = s.slice(preLen);
      if (preLen !== 0 && minusPre.length > 0 && isSpecial(minusPre)) {
        prefixes.push(prefix);
        return minusPre;
      }
      const sufLen = found(this.suffixRe, s.slice(preLen));
      // Python's s[-n:] and s[:-n].
      const suffix = s.slice(s.length - sufLen);
      const minusSuf = s.slice(0, s.length - sufLen);
      if (sufLen !== 0 && minusSuf.length > 0 && isSpecial(minusSuf)) {
        suffixes.push(suffix);
        return minusSuf;
      }
      if (preLen !== 0 && sufLen !== 0 && preLen + sufLen <= s.length) {
        s = s.slice(preLen, s.length - sufLen);
        prefixes.push(prefix);
        suffixes.push(suffix);
      } else if (preLen !== 0) {
        s = minusPre;
        prefixes.push(prefix);
      } else if (sufLen !== 0) {
        s = minusSuf;
        suffixes.push(suffix);
      }
    }
    return s;
  }

  /** `_attach_tokens`: prefixes, the middle (a special case, a token or URL match, or split at its infixes), suffixes. */
  private attachTokens(
    s: string,
    prefixes: string[],
    suffixes: string[],
    withSpecialCases: boolean,
  ): Piece[] {
    const out: Piece[] = prefixes.map((text) => ({ text }));
    if (s) {
      const special = withSpecialCases ? this.specials.get(s) : undefined;
      if (special) out.push(...special.map(pieceOf));
      else if (matches(this.tokenMatchRe, s) || matches(this.urlMatchRe, s)) out.push({ text: s });
      else {
        const matches = this.findInfix(s);
        let start = 0;
        for (const [infixStart, infixEnd] of matches) {
          if (infixStart === 0) continue;
          if (infixStart !== start) out.push({ text: s.slice(start, infixStart) });
          // An empty infix splits without a token of its own.
          if (infixStart !== infixEnd) out.push({ text: s.slice(infixStart, infixEnd) });
          start = infixEnd;
        }
        if (start < s.length) out.push({ text: s.slice(start) });
      }
    }
    for (const suffix of suffixes.toReversed()) out.push({ text: suffix });
    return out;
  }

  /**
   * `_apply_special_cases`: the phrase matcher finds every pattern at every token; longest spans
   * first (then leftmost) are kept unless their first or last token is taken; a kept span whose
   * text is a rule is replaced by the rule's tokens.
   */
  private applySpecialCases(doc: ReferenceToken[]): ReferenceToken[] {
    const found: [number, number][] = [];
    for (const [i, token] of doc.entries())
      for (const p of this.patterns.get(token.text) ?? [])
        if (p.every((orth, k) => doc[i + k]?.text === orth)) found.push([i, i + p.length]);
    found.sort((a, b) => b[1] - b[0] - (a[1] - a[0]) || a[0] - b[0]);
    const seen = new Set<number>();
    const kept: [number, number][] = [];
    for (const [s, e] of found) {
      if (!seen.has(s) && !seen.has(e - 1)) kept.push([s, e]);
      for (let t = s; t < e; t++) seen.add(t);
    }
    kept.sort((a, b) => a[0] - b[0]);
    const out: ReferenceToken[] = [];
    let i = 0;
    for (const [s, e] of kept) {
      out.push(...doc.slice(i, s));
      // Span.text: the tokens' texts with the spaces between them.
      const spanText = doc
        .slice(s, e)
        .map((t, k) => t.text + (k < e - s - 1 && t.spaceAfter ? " " : ""))
        .join("");
      const rule = this.specials.get(spanText);
      if (!rule) out.push(...doc.slice(s, e));
      else {
        let idx = elementAt(doc, s).start;
        for (const t of rule) {
          out.push({ ...pieceOf(t), start: idx, spaceAfter: false });
          idx += t.orth.length;
        }
        elementAt(out, out.length - 1).spaceAfter = elementAt(doc, e - 1).spaceAfter;
      }
      i = e;
    }
    out.push(...doc.slice(i));
    return out;
  }
}

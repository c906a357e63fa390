// The shape of a translated pattern (pyregex.ts's JS `u` source): the union of its consuming atoms
// (characters, escapes, classes, `.`) outside lookarounds, as a regular expression of one
// character; the characters every match consumes; whether it can match the empty string; and the
// most UTF-16 units a match can span. The tokenizer's affix searches and matches use them to run
// less of spaCy's large patterns: a string with no character of the union has no non-empty match
// (most words hold no infix character), a string without a character every match consumes has no
// match at all (url_match's host needs a '.', which most words lack), and a suffix of at most L
// units can only start in a string's last L units.

import { consumesNoSpace, USER_INFO, type UserInfoSplit, userInfoMatcher } from "./match-userinfo.js";
import {
  END,
  factorEndAnchor,
  topLevelAlternatives,
  translatedFinditer,
  translatePythonRegex,
} from "./pyregex.js";
import { codePointAt, isHighSurrogate, isLowSurrogate } from "./utf16.js";

/**
 * A pattern's consuming atoms (their sources), the characters every match consumes (literal ones
 * only), whether it can match empty, its longest match in units.
 */
interface Parsed {
  atoms: string[];
  required: Set<string>;
  nullable: boolean;
  longest: number;
}

const NOTHING: Parsed = { atoms: [], required: new Set(), nullable: true, longest: 0 };

/** The shape of `source`, or null when it holds what this parser does not take apart. */
function parse(source: string): Parsed | null {
  try {
    const parser = new Parser(source);
    const parsed = parser.disjunction();
    return parser.atEnd ? parsed : null;
  } catch {
    return null;
  }
}

/** A top-level term of a pattern that may match nothing (`(?:…)?`, `x*`): its source span and the characters a non-empty match of it consumes. */
interface OptionalTerm {
  from: number;
  to: number;
  required: Set<string>;
}

class Parser {
  private i = 0;
  /** Groups (and lookarounds) the parser is inside. */
  private depth = 0;
  /** The top-level optional terms whose matches consume some literal character, in order. */
  readonly optionalTerms: OptionalTerm[] = [];
  constructor(private readonly s: string) {}

  get atEnd(): boolean {
    return this.i === this.s.length;
  }

  /** Disjunction, up to an unmatched `)` or the end. */
  disjunction(): Parsed {
    const atoms: string[] = [];
    let required: Set<string> | undefined;
    let nullable = false;
    let longest = 0;
    for (;;) {
      const alt = this.alternative();
      atoms.push(...alt.atoms);
      // Required by every alternative.
      required =
        required === undefined ? alt.required : new Set([...required].filter((c) => alt.required.has(c)));
      nullable ||= alt.nullable;
      longest = Math.max(longest, alt.longest);
      if (this.s[this.i] !== "|") return { atoms, required, nullable, longest };
      this.i++;
    }
  }

  private alternative(): Parsed {
    const atoms: string[] = [];
    const required = new Set<string>();
    let nullable = true;
    let longest = 0;
    while (this.i < this.s.length && this.s[this.i] !== "|" && this.s[this.i] !== ")") {
      const term = this.term();
      atoms.push(...term.atoms);
      // Required by any term.
      for (const c of term.required) required.add(c);
      nullable &&= term.nullable;
      longest += term.longest;
    }
    return { atoms, required, nullable, longest };
  }

  private term(): Parsed {
    const s = this.s;
    const from = this.i;
    const c = s.charAt(this.i);
    let atom: Parsed;
    if (c === "^" || c === "$") {
      this.i++;
      return NOTHING;
    }
    if (c === "\\" && (s[this.i + 1] === "b" || s[this.i + 1] === "B")) {
      this.i += 2;
      return NOTHING;
    }
    if (c === "(") {
      const lookaround = /^\(\?(?:=|!|<=|<!)/.exec(s.slice(this.i, this.i + 4));
      const group = lookaround ?? /^\(\?(?::|<[A-Za-z_$][\w$]*>)/.exec(s.slice(this.i, this.i + 64));
      this.i += group ? group[0].length : 1;
      this.depth++;
      const inner = this.disjunction();
      this.depth--;
      if (s[this.i] !== ")") throw new Error("unbalanced group");
      this.i++;
      // A lookaround consumes nothing, whatever it looks at.
      if (lookaround) return NOTHING;
      atom = inner;
    } else if (c === "[")
      atom = { atoms: [this.classSource()], required: new Set(), nullable: false, longest: 2 };
    else if (c === "\\") {
      const e = this.escapeSource();
      // An escape of one BMP character is one unit; a class escape (\p{…}, \d, …) may match two.
      const bmp =
        /^\\(?:u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|c[A-Za-z]|[^pPdDwWsSu])$/.test(e) ||
        /^\\u\{[0-9A-Fa-f]{1,4}\}$/.test(e);
      atom = { atoms: [e], required: escapedCharacter(e), nullable: false, longest: bmp ? 1 : 2 };
    } else if (c === "*" || c === "+" || c === "?" || c === "{" || c === ")" || c === "|" || c === "]")
      throw new Error(`unexpected ${c}`);
    else {
      const cp = codePointAt(s, this.i);
      const ch = String.fromCodePoint(cp);
      this.i += ch.length;
      // `.` may match an astral character.
      atom = {
        atoms: [ch],
        required: new Set(ch === "." ? [] : [ch]),
        nullable: false,
        longest: ch === "." ? 2 : ch.length,
      };
    }
    const [min, max] = this.quantifier();
    if (this.depth === 0 && min === 0 && atom.required.size > 0)
      this.optionalTerms.push({ from, to: this.i, required: atom.required });
    return {
      atoms: atom.atoms,
      required: min === 0 ? new Set() : atom.required,
      nullable: min === 0 || atom.nullable,
      longest: atom.longest * max,
    };
  }

  /** A quantifier's least and most repetitions ([1, 1] when there is none). */
  private quantifier(): [number, number] {
    const s = this.s;
    let bounds: [number, number];
    const c = s[this.i];
    if (c === "*" || c === "+" || c === "?") {
      bounds = [c === "+" ? 1 : 0, c === "?" ? 1 : Number.POSITIVE_INFINITY];
      this.i++;
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.i));
      if (!m) throw new Error("bad quantifier");
      const min = Number(m[1]);
      bounds = [min, m[2] === undefined ? min : m[3] ? Number(m[3]) : Number.POSITIVE_INFINITY];
      this.i += m[0].length;
    } else return [1, 1];
    if (s[this.i] === "?") this.i++;
    return bounds;
  }

  private classSource(): string {
    const s = this.s;
    const from = this.i;
    this.i++;
    while (s[this.i] !== "]") {
      if (this.i >= s.length) throw new Error("unterminated class");
      this.i += s[this.i] === "\\" ? 2 : 1;
    }
    this.i++;
    return s.slice(from, this.i);
  }

  private escapeSource(): string {
    const s = this.s;
    const from = this.i;
    const c = s[this.i + 1];
    if (c === undefined) throw new Error("trailing backslash");
    if (/[1-9k]/.test(c)) throw new Error("backreference");
    const m = /^\\(?:u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|[pP]\{[^}]*\}|c[A-Za-z])/.exec(
      s.slice(this.i, this.i + 40),
    );
    this.i += m ? m[0].length : 1 + String.fromCodePoint(codePointAt(s, this.i + 1)).length;
    return s.slice(from, this.i);
  }
}

/** The one character an escape stands for (`\\.`, `\\u002E`, `\\x2E`, `\\u{2E}`), or none for a class escape or control. */
function escapedCharacter(e: string): Set<string> {
  const hex = /^\\(?:u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2})|u\{([0-9A-Fa-f]+)\})$/.exec(e);
  if (hex) {
    // Exactly one of the three groups took part in the match.
    const digits = hex[1] ?? hex[2] ?? hex[3];
    if (digits === undefined) throw new Error(`no hex digits in ${e}`);
    return new Set([String.fromCodePoint(Number.parseInt(digits, 16))]);
  }
  // An identity escape of punctuation (`u` mode allows no other).
  return /^\\[\^$\\.*+?()[\]{}|/-]$/.test(e) ? new Set([e.charAt(1)]) : new Set();
}

/**
 * A one-character regular expression (flags `flags`, `y` added when `sticky`) matching every
 * character a match of any of `shapes` (the alternatives of a pattern) can consume, or null when
 * one can match the empty string (an empty match needs no character) or was not taken apart.
 */
function consumedCharacters(shapes: (Parsed | null)[], flags: string, sticky: boolean): RegExp | null {
  const atoms = new Set<string>();
  for (const p of shapes) {
    if (p === null || p.nullable) return null;
    for (const a of p.atoms) atoms.add(a);
  }
  if (atoms.size === 0) return null;
  return new RegExp(`(?:${[...atoms].join("|")})`, flags.replace(/[gy]/g, "") + (sticky ? "y" : ""));
}

/**
 * Python's `re.compile(pattern).search` for spaCy's `suffix_search` (every alternative anchored at
 * the end: `A$|B$|…`), as the length of the match (0 for none). Every match ends the string (or
 * comes before a final newline), so the search is for its leftmost start. The alternatives whose
 * matches span at most L units can only start in the last L units: they are searched from there
 * on; the rest (`\.\.+`) over the whole string, and the leftmost start of the two wins. A string
 * ending with a newline, or a pattern not of this form, gets the plain search.
 */
export function compileSuffixSearch(pattern: string, where: string): (s: string) => number {
  const t = translatePythonRegex(pattern, where);
  const full = new RegExp(factorEndAnchor(t.source), t.flags);
  const plain = (s: string) => full.exec(s)?.[0].length ?? 0;
  const alternatives = topLevelAlternatives(t.source);
  if (!alternatives.every((a) => a.endsWith(END))) return plain;
  const shapes: Parsed[] = [];
  for (const a of alternatives) {
    const p = parse(a);
    if (p === null) return plain;
    shapes.push(p);
  }
  const isBounded = shapes.map((p) => Number.isFinite(p.longest));
  const bounded = alternatives.filter((_, k) => isBounded[k] === true);
  const longest = Math.max(0, ...shapes.map((p) => p.longest).filter(Number.isFinite));
  const unbounded = alternatives.filter((_, k) => isBounded[k] === false);
  const regex = (alts: string[], flags: string) =>
    alts.length === 0 ? null : new RegExp(factorEndAnchor(alts.join("|")), t.flags + flags);
  const tail = regex(bounded, "g");
  const anywhere = regex(unbounded, "g");
  const last = consumedCharacters(shapes, t.flags, true);
  // A match of an unbounded alternative consumes only characters one of its atoms can, up to the
  // end: it starts within the string's last run of them, so it is searched for from that run's
  // start, not over the whole string (which peeling a long run of other punctuation one mark at a
  // time would do at every step).
  const runOf = consumedCharacters(
    shapes.filter((p) => !Number.isFinite(p.longest)),
    t.flags,
    true,
  );
  return (s) => {
    const n = s.length;
    if (n === 0 || s.charCodeAt(n - 1) === 0x0a) return plain(s);
    // A non-empty match's last character is one a suffix can consume (a surrogate pair is one).
    if (last !== null) {
      const pair = n >= 2 && isLowSurrogate(s.charCodeAt(n - 1)) && isHighSurrogate(s.charCodeAt(n - 2));
      last.lastIndex = pair ? n - 2 : n - 1;
      if (!last.test(s)) return 0;
    }
    let start = n + 1;
    if (anywhere !== null) {
      anywhere.lastIndex = runOf === null ? 0 : lastRunStart(s, runOf);
      start = anywhere.exec(s)?.index ?? start;
    }
    if (tail !== null) {
      let from = Math.max(0, n - longest);
      // Not between the halves of a surrogate pair (Python's positions are code points).
      if (from > 0 && isLowSurrogate(s.charCodeAt(from)) && isHighSurrogate(s.charCodeAt(from - 1))) from--;
      if (from < start) {
        tail.lastIndex = from;
        const m = tail.exec(s);
        if (m !== null && m.index < start) start = m.index;
      }
    }
    return start > n ? 0 : n - start;
  };
}

/**
 * Where the run of characters `one` (a sticky one-character expression) matches that ends the
 * string starts (a surrogate pair is one character).
 */
function lastRunStart(s: string, one: RegExp): number {
  let i = s.length;
  while (i > 0) {
    const at =
      i >= 2 && isLowSurrogate(s.charCodeAt(i - 1)) && isHighSurrogate(s.charCodeAt(i - 2)) ? i - 2 : i - 1;
    one.lastIndex = at;
    if (!one.test(s)) break;
    i = at;
  }
  return i;
}

/**
 * Python's `re.compile(pattern).finditer` (compilePythonFinditer's flat [start, end) pairs), each
 * search beginning at the next character a match can consume: a match starts with one, so a
 * string without one (most words hold no infix character) is not searched at all, and the
 * pattern's lookbehinds are not tried at every position before it. A pattern that can match empty
 * is searched everywhere.
 */
export function compileInfixFinder(pattern: string, where: string): (s: string) => number[] {
  const t = translatePythonRegex(pattern, where);
  const any = consumedCharacters([parse(t.source)], t.flags, false);
  if (any === null) return translatedFinditer(t);
  const next = new RegExp(any.source, `${any.flags}g`);
  return translatedFinditer(t, (s, from) => {
    next.lastIndex = from;
    return next.exec(s)?.index ?? s.length + 1;
  });
}

/**
 * Python's `re.compile(pattern).match(s) is not None` (spaCy's `token_match` and `url_match`),
 * asking first whether the string holds every literal character each match consumes: url_match's
 * host needs a '.', which most words lack.
 */
export function compileMatch(pattern: string, where: string): (s: string) => boolean {
  const t = translatePythonRegex(pattern, where);
  // `match` anchors at the start only; `y` (sticky) at lastIndex 0 does exactly that.
  const re = new RegExp(factorEndAnchor(t.source), `${t.flags}y`);
  const plain = (s: string) => {
    re.lastIndex = 0;
    return re.test(s);
  };
  // Literal characters match only themselves (IGNORECASE is spelled out in the source as classes).
  const parser = new Parser(t.source);
  let shape: Parsed | null = null;
  try {
    shape = parser.disjunction();
  } catch {}
  if (shape === null || !parser.atEnd || t.flags.includes("i")) return plain;
  const required = [...shape.required];
  const optional = parser.optionalTerms;
  // An optional term whose every non-empty match consumes a character the string lacks matches
  // nothing there: the pattern without it matches the same strings. url_match's user-info part
  // (`(?:\S+(?::\S*)?@)?`) backtracks over every ':' of a long string without an '@' (quadratic, as
  // in Python); without it the match is linear.
  const variants = new Map<number, RegExp>();
  const without = (mask: number): RegExp => {
    let re = variants.get(mask);
    if (re === undefined) {
      let source = "";
      let at = 0;
      optional.forEach((term, k) => {
        if ((mask & (1 << k)) === 0) return;
        source += t.source.slice(at, term.from);
        at = term.to;
      });
      re = new RegExp(factorEndAnchor(source + t.source.slice(at)), `${t.flags}y`);
      variants.set(mask, re);
    }
    return re;
  };
  if (required.length === 0 && optional.length === 0) return plain;
  const userInfo = userInfoSplit(t.source, t.flags, optional);
  const scanned = userInfo === null ? null : userInfoMatcher(userInfo.split);
  // The mask bit of the user-info term (none without one).
  const userInfoBit = userInfo === null ? 0 : 1 << userInfo.k;
  return (s) => {
    for (const c of required) if (!s.includes(c)) return false;
    let mask = 0;
    // Up to 30 terms in the mask; a pattern with more keeps the rest.
    for (let k = 0; k < Math.min(optional.length, 30); k++)
      for (const c of optional[k]!.required)
        if (!s.includes(c)) {
          mask |= 1 << k;
          break;
        }
    // With an '@' (and so the user-info term kept), that term is decided by a scan.
    if (scanned !== null && (mask & userInfoBit) === 0) return scanned(s);
    if (mask === 0) return plain(s);
    const re = without(mask);
    re.lastIndex = 0;
    return re.test(s);
  };
}

/**
 * spaCy's user-info term (match-userinfo.ts) among a whole-string pattern's optional terms, with
 * what deciding it by a scan needs: a prefix that may match empty and takes no whitespace, and a
 * rest ending with the end anchor. Null when the pattern is not of that form.
 */
function userInfoSplit(
  source: string,
  flags: string,
  optional: OptionalTerm[],
): { k: number; split: UserInfoSplit } | null {
  const k = optional.findIndex((term) => source.slice(term.from, term.to) === USER_INFO);
  const term = optional[k];
  if (term === undefined || k >= 30) return null;
  // A top-level alternation would not split at the term.
  if (topLevelAlternatives(source).length !== 1) return null;
  const [prefix, rest] = [source.slice(0, term.from), source.slice(term.to)];
  const [p, r] = [parse(prefix), parse(rest)];
  if (p === null || r === null || !p.nullable || r.atoms.length === 0 || !rest.endsWith(END)) return null;
  if (!consumesNoSpace(p.atoms, flags)) return null;
  return {
    k,
    split: {
      rest,
      without: new RegExp(factorEndAnchor(prefix + rest), `${flags}y`),
      restAtom: new RegExp(`^(?:${r.atoms.join("|")})$`, flags),
      flags,
    },
  };
}

// Python `re` patterns (str patterns, Python 3) translated once into JavaScript RegExps that match
// the same strings at the same places. spaCy stores its tokenizer rules as Python pattern source;
// the escapes, classes and anchors below are where the two dialects differ.
import { InputError, messageOf } from "@convkit/io";
import { codePointAt, isHighSurrogate, isLowSurrogate } from "./utf16.js";

/** Python's `str.isspace()` set, which `\s` means in a Python str pattern (JS `\s` has U+FEFF and lacks U+001C–U+001F, U+0085). */
const PY_SPACE = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
/** The complement of {@link PY_SPACE} as ranges (usable inside a class). */
const PY_NON_SPACE =
  "\\0-\\x08\\x0e-\\x1b\\x21-\\x84\\x86-\\x9f\\xa1-\\u167f\\u1681-\\u1fff\\u200b-\\u2027\\u202a-\\u202e\\u2030-\\u205e\\u2060-\\u2fff\\u3001-\\u{10ffff}";
/** Python's `\w` in a str pattern: `str.isalnum()` or `_` (letters, every numeric character, underscore). */
const PY_WORD = "\\p{L}\\p{N}_";
/** Python's `\d` in a str pattern: Unicode decimal digits. */
const PY_DIGIT = "\\p{Nd}";

/** Characters that must be escaped to stand for themselves in a JS `u` pattern. */
const JS_SYNTAX = new Set([..."^$\\.*+?()[]{}|/-"]);

/** A translated pattern: the JS source and flags (`u`; IGNORECASE is spelled out in the source). */
export interface TranslatedPattern {
  source: string;
  flags: string;
}

/**
 * Translates a Python 3 `re` pattern (str, default flags) into JS `u`-mode source with the same
 * meaning: `\w \d \s \S \b` with Python's Unicode sets, `$` as "end, or before a final newline",
 * `.` as "anything but newline", `\UXXXXXXXX`, `(?P<n>…)`, `{,n}`, `{,}`, literal `{`/`]`/`[`
 * where Python takes them literally, and global inline flags (`(?u)`, `(?i)`). Under `(?i)` each
 * letter and class lists the characters Python's sre accepts for it ({@link caseExtras}) rather
 * than leaving it to JS's `i` flag, which would also fold case in `\w`, `\W`, `\b` and `\B` (JS
 * counts U+0345 as a word character there, as its folding makes it ι). Constructs JS cannot
 * express the same way (scoped flags, atomic groups, possessive quantifiers, backreferences, `\W`
 * inside a class) are refused rather than approximated. `where` names the pattern in the error.
 */
export function translatePythonRegex(pattern: string, where: string): TranslatedPattern {
  let ignoreCase = false;
  let out = "";
  let i = 0;
  const n = pattern.length;
  const fail = (what: string): never => {
    throw new InputError(where, { offset: i }, "a Python regular expression convkit can translate", what);
  };
  // Global inline flags: Python 3.11 allows them only at the start.
  for (;;) {
    const m = /^\(\?([aiLmsux]+)\)/.exec(pattern.slice(i));
    if (!m) break;
    // The flags: what sits between `(?` and `)`.
    for (const f of m[0].slice(2, -1)) {
      if (f === "i") ignoreCase = true;
      else if (f !== "u") fail(`the inline flag (?${f})`);
    }
    i += m[0].length;
  }
  /** A character outside a class (`js`, standing for `cp`), with its other cases under IGNORECASE. */
  const letter = (js: string, cp: number): string => {
    const extras = ignoreCase ? caseExtras([[cp, cp]]) : "";
    return extras === "" ? js : `[${js}${extras}]`;
  };
  /** One member of a class at `i`: its JS form, and the code point it stands for (none for `\d` and the like). */
  const classAtom = (): [string, number | undefined] => {
    if (pattern[i] === "\\") {
      const [js, len, cp] = translateEscape(pattern, i, true, fail);
      i += len;
      return [js, cp];
    }
    const cp = codePointAt(pattern, i);
    const ch = String.fromCodePoint(cp);
    i += ch.length;
    return [JS_SYNTAX.has(ch) ? `\\${ch}` : ch, cp];
  };
  /** The class at `pattern[i] === "["`, read as sre_parse reads it. */
  const characterClass = (): string => {
    i++;
    const negate = pattern[i] === "^";
    if (negate) i++;
    const first = i;
    let members = "";
    /** The characters the class names, as ranges (a single one as [c, c]), what case applies to. */
    const named: [number, number][] = [];
    let items = 0;
    for (;;) {
      if (i >= n) fail("an unclosed character class");
      // A `]` right after `[` or `[^` is a literal in Python.
      if (pattern[i] === "]" && i > first) break;
      items++;
      const [lo, loCp] = classAtom();
      // `a-z` is a range; a `-` first or last in the class is a literal `-`.
      if (pattern[i] === "-" && i + 1 < n && pattern[i + 1] !== "]") {
        i++;
        const [hi, hiCp] = classAtom();
        if (loCp === undefined || hiCp === undefined)
          return fail("a character range with a class escape as an end");
        if (hiCp < loCp) fail("a character range out of order");
        members += `${lo}-${hi}`;
        named.push([loCp, hiCp]);
      } else {
        members += lo;
        if (loCp !== undefined) named.push([loCp, loCp]);
      }
    }
    i++;
    // One character alone is sre_parse's LITERAL (NOT_LITERAL), which sre lowercases; in a larger
    // class, CPython 3.11's sre_compile keeps an uppercase astral member as written and compares it
    // with lowercased characters, so never matches it, where later versions do (gh-126505).
    if (ignoreCase && items > 1) {
      const upperAstral = named.find(([a, b]) => a === b && a > 0xffff && lowercase(a) !== a);
      if (upperAstral)
        fail(
          `U+${upperAstral[0].toString(16).toUpperCase()} in a (?i) character class (CPython versions disagree on what it matches)`,
        );
    }
    return `[${negate ? "^" : ""}${members}${ignoreCase ? caseExtras(named) : ""}]`;
  };
  while (i < n) {
    const c = pattern.charAt(i);
    if (c === "\\") {
      const [js, len, cp] = translateEscape(pattern, i, false, fail);
      out += cp === undefined ? js : letter(js, cp);
      i += len;
      continue;
    }
    switch (c) {
      case "[":
        out += characterClass();
        continue;
      case "$":
        out += "(?=\\n?$)";
        i++;
        continue;
      case ".":
        out += "[^\\n]";
        i++;
        continue;
      case "(": {
        const rest = pattern.slice(i, i + 4);
        if (rest.startsWith("(?P<")) {
          out += "(?<";
          i += 4;
        } else if (rest.startsWith("(?P=")) {
          // A reference to a group that did not take part fails in Python, matches empty in JS.
          fail("a backreference");
        } else if (rest.startsWith("(?#")) {
          const end = pattern.indexOf(")", i);
          if (end < 0) fail("an unclosed comment");
          i = end + 1;
        } else if (
          rest.startsWith("(?:") ||
          rest.startsWith("(?=") ||
          rest.startsWith("(?!") ||
          rest.startsWith("(?<=") ||
          rest.startsWith("(?<!") ||
          !rest.startsWith("(?")
        ) {
          const len = rest.startsWith("(?<") ? 4 : rest.startsWith("(?") ? 3 : 1;
          out += pattern.slice(i, i + len);
          i += len;
        } else fail(`the group ${JSON.stringify(rest)}`);
        continue;
      }
      case "{": {
        const m = /^\{(\d*)(,?)(\d*)\}/.exec(pattern.slice(i));
        // `{m}`, `{m,}`, `{,n}`, `{m,n}` and (Python 3.11) `{,}`; anything else is a literal `{`.
        if (m && (m[1] !== "" || m[2] === ",")) {
          out += m[2] ? `{${m[1] || "0"},${m[3]}}` : `{${m[1]}}`;
          i += m[0].length;
          if (pattern[i] === "+") fail("a possessive quantifier");
        } else {
          out += "\\{";
          i++;
        }
        continue;
      }
      case "}":
      case "]":
        out += `\\${c}`;
        i++;
        continue;
      case "*":
      case "+":
      case "?":
        out += c;
        i++;
        if (pattern[i] === "+") fail("a possessive quantifier");
        continue;
      default: {
        const cp = codePointAt(pattern, i);
        const ch = String.fromCodePoint(cp);
        out += ch === "/" ? "\\/" : letter(ch, cp);
        i += ch.length;
      }
    }
  }
  try {
    new RegExp(out, "u");
  } catch (e) {
    fail(`a pattern JavaScript rejects (${messageOf(e)})`);
  }
  return { source: out, flags: "u" };
}

/** Python's, and sre's, simple lowercase of a character: the first of `str.lower()` (İ → i). */
function lowercase(cp: number): number {
  return codePointAt(String.fromCodePoint(cp).toLowerCase(), 0);
}

/** `\u{…}`: a code point spelled so that it means itself anywhere in a `u` pattern. */
const codePoint = (cp: number) => `\\u{${cp.toString(16)}}`;

/** i, I, İ and ı: one letter for sre (İ lowercases to i, and its fix-up table pairs i with ı), three for JS. */
const DOTTED_DOTLESS_I = [0x49, 0x69, 0x130, 0x131];

let casedText: string | undefined;

/**
 * Every character some case mapping changes (Changes_When_Casemapped), as one string: the
 * characters case-insensitive matching can add to a letter (checked once against every code
 * point: none outside it folds with one in it). Built on first use (~0.1 s).
 */
function casedCharacters(): string {
  if (casedText === undefined) {
    const cwcm = /\p{CWCM}/u;
    const parts: string[] = [];
    for (let cp = 0; cp < 0x110000; cp = cp === 0xd7ff ? 0xe000 : cp + 1) {
      const ch = String.fromCodePoint(cp);
      if (cwcm.test(ch)) parts.push(ch);
    }
    casedText = parts.join("");
  }
  return casedText;
}

/**
 * What IGNORECASE adds to the characters `named` (ranges): every character Python's sre accepts
 * for one of them and not one itself, spelled for a class. sre compares lowercases and adds its
 * `_EXTRA_CASES` (ſ for s, ϐ for β, …); JS's `iu` folding gives the same sets on every character
 * CPython 3.11 knows except i, I, İ and ı, which sre takes as one letter (checked against CPython
 * in the tests), so that folding, plus that letter, is the oracle here. Characters newer than the
 * running CPython's Unicode version fold as Node's Unicode says, as `\w` classifies them.
 */
function caseExtras(named: readonly [number, number][]): string {
  if (named.length === 0) return "";
  const ranges = spellRanges(named);
  const found = new Set<number>();
  for (const m of casedCharacters().matchAll(new RegExp(`[${ranges}]`, "giu")))
    found.add(codePointAt(m[0], 0));
  if (DOTTED_DOTLESS_I.some((c) => found.has(c))) for (const c of DOTTED_DOTLESS_I) found.add(c);
  const added = [...found].filter((cp) => !named.some(([a, b]) => a <= cp && cp <= b)).sort((a, b) => a - b);
  // Runs as ranges: `(?i)[a-z]` adds A-Z, not 26 characters.
  const runs: [number, number][] = [];
  for (const cp of added) {
    const last = runs.at(-1);
    if (last !== undefined && cp === last[1] + 1) last[1] = cp;
    else runs.push([cp, cp]);
  }
  return spellRanges(runs);
}

/** Ranges spelled for a class: `\u{a}` for one character, `\u{a}-\u{b}` for more. */
function spellRanges(ranges: readonly [number, number][]): string {
  return ranges.map(([a, b]) => (a === b ? codePoint(a) : `${codePoint(a)}-${codePoint(b)}`)).join("");
}

/**
 * One escape sequence at `pattern[i] === "\\"`: its JS form, its length in the Python source,
 * and the code point it stands for when it stands for one character.
 */
function translateEscape(
  pattern: string,
  i: number,
  inClass: boolean,
  fail: (what: string) => never,
): [string, number, number?] {
  const e = pattern[i + 1];
  if (e === undefined) return fail("a trailing backslash");
  switch (e) {
    case "d":
      return [inClass ? PY_DIGIT : `[${PY_DIGIT}]`, 2];
    case "D":
      return ["\\P{Nd}", 2];
    case "w":
      return [inClass ? PY_WORD : `[${PY_WORD}]`, 2];
    case "W":
      if (inClass) fail("\\W inside a character class");
      return [`[^${PY_WORD}]`, 2];
    case "s":
      return [inClass ? PY_SPACE : `[${PY_SPACE}]`, 2];
    case "S":
      return [inClass ? PY_NON_SPACE : `[^${PY_SPACE}]`, 2];
    case "b":
      if (inClass) return ["\\x08", 2, 8];
      return [`(?:(?<=[${PY_WORD}])(?![${PY_WORD}])|(?<![${PY_WORD}])(?=[${PY_WORD}]))`, 2];
    case "B":
      if (inClass) fail("\\B inside a character class");
      // Python before 3.14: never in an empty string (sre checks that first).
      return [
        `(?:(?<=[${PY_WORD}])(?=[${PY_WORD}])|(?<![${PY_WORD}])(?![${PY_WORD}])(?:(?<=[^])|(?=[^])))`,
        2,
      ];
    case "A":
      return ["^", 2];
    case "Z":
      return ["$", 2];
    case "a":
      return ["\\x07", 2, 7];
    case "f":
    case "n":
    case "r":
    case "t":
    case "v":
      return [`\\${e}`, 2, "\f\n\r\t\v".charCodeAt("fnrtv".indexOf(e))];
    case "x": {
      const h = /^[0-9a-fA-F]{2}/.exec(pattern.slice(i + 2));
      if (!h) return fail("\\x without two hex digits");
      return [`\\x${h[0]}`, 4, Number.parseInt(h[0], 16)];
    }
    case "u": {
      const h = /^[0-9a-fA-F]{4}/.exec(pattern.slice(i + 2));
      if (!h) return fail("\\u without four hex digits");
      return [`\\u{${h[0]}}`, 6, Number.parseInt(h[0], 16)];
    }
    case "U": {
      const h = /^[0-9a-fA-F]{8}/.exec(pattern.slice(i + 2));
      if (!h) return fail("\\U without eight hex digits");
      const cp = Number.parseInt(h[0], 16);
      if (cp > 0x10ffff) fail(`\\U${h[0]}, past the last code point`);
      return [`\\u{${cp.toString(16)}}`, 10, cp];
    }
    case "0": {
      // Up to two more octal digits.
      const o = pattern.slice(i + 2, i + 4).replace(/[^0-7].*$/s, "");
      const cp = Number.parseInt(`0${o}`, 8);
      return [`\\u{${cp.toString(16)}}`, 2 + o.length, cp];
    }
    default:
      // Backreferences (and Python's three-digit octal escapes): refused, see (?P=…).
      if (/[1-9]/.test(e)) fail(`the escape \\${e} (a backreference or octal escape)`);
      if (/[A-Za-z]/.test(e)) fail(`the escape \\${e}`);
      {
        // Any other escaped character stands for itself (an astral one is two units here).
        const cp = codePointAt(pattern, i + 1);
        const ch = String.fromCodePoint(cp);
        // `-` is a syntax character only inside a class (JS rejects `\-` outside one).
        if (ch === "-" && !inClass) return ["-", 2, cp];
        return [JS_SYNTAX.has(ch) ? `\\${ch}` : ch, 1 + ch.length, cp];
      }
  }
}

/** What Python's `$` becomes: the end, or before a newline that ends the string. */
export const END = "(?=\\n?$)";

/** The top-level alternatives of a JS pattern source (escapes, classes and groups kept whole). */
export function topLevelAlternatives(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === "|" && depth === 0) {
      out.push(source.slice(start, i));
      start = i + 1;
    }
  }
  out.push(source.slice(start));
  return out;
}

/**
 * `A$|B$|…` (spaCy's suffix patterns, every alternative anchored at the end) as `(?:A|B|…)$`: the
 * same matches in the same order of trial (each way through A, then B, each followed by the
 * anchor), but V8 runs the factored form about a quarter faster.
 */
export function factorEndAnchor(source: string): string {
  const alternatives = topLevelAlternatives(source);
  if (alternatives.length < 2 || !alternatives.every((a) => a.endsWith(END) && !a.endsWith(`\\${END}`)))
    return source;
  return `(?:${alternatives.map((a) => a.slice(0, -END.length)).join("|")})${END}`;
}

/** Compiles a translated pattern; `sticky`/`global` add `y`/`g`. */
export function compilePythonRegex(pattern: string, where: string, extra = ""): RegExp {
  const t = translatePythonRegex(pattern, where);
  return new RegExp(factorEndAnchor(t.source), t.flags + extra);
}

/**
 * Python's `re.compile(pattern).finditer`: a function giving the matches of a string, left to
 * right and non-overlapping, as flat [start, end) pairs of UTF-16 offsets. After an empty match
 * at p, Python 3.7+ (sre's `must_advance`) first takes the first non-empty match starting at p in
 * backtracking order (`a*|b` on "b": (0,0), (0,1), (1,1)), and only without one searches on from
 * the next character. JS's exec would give the empty match again, so that step runs the pattern
 * sticky at p with every empty way through it refused at its end: a capture holds the text after
 * p, and a match is empty exactly when the text after its end is that text again (`(?!\1$)`; a
 * shorter rest fails the comparison at once). The capture scans the rest of the string, so a
 * pattern matching empty at most places of a long string costs quadratic time (spaCy's infix
 * patterns never match empty).
 */
export function compilePythonFinditer(pattern: string, where: string): (s: string) => number[] {
  return translatedFinditer(translatePythonRegex(pattern, where));
}

/**
 * {@link compilePythonFinditer} of a pattern already translated. `firstStart`, when given, is where
 * the first match at or after an offset can start at the earliest (past the string's end: none
 * there), for a pattern that knows the characters its matches start with; the search begins there.
 */
export function translatedFinditer(
  t: TranslatedPattern,
  firstStart?: (s: string, from: number) => number,
): (s: string) => number[] {
  const search = new RegExp(t.source, `${t.flags}g`);
  // The capture shifts the pattern's own groups by one: harmless, backreferences are refused.
  const nonEmpty = new RegExp(`(?=([^]*))(?:${t.source})(?!\\1$)`, `${t.flags}y`);
  return (s) => {
    const out: number[] = [];
    let from = 0;
    while (from <= s.length) {
      if (firstStart !== undefined) {
        from = firstStart(s, from);
        if (from > s.length) break;
      }
      search.lastIndex = from;
      const m = search.exec(s);
      if (m === null) break;
      const start = m.index;
      // V8 (11.3, Node 20) may try, and match at, the middle of a surrogate pair when a pattern
      // starts with a lookaround; Python's positions are code points: look on from the next one.
      if (start > 0 && isLowSurrogate(s.charCodeAt(start)) && isHighSurrogate(s.charCodeAt(start - 1))) {
        from = start + 1;
        continue;
      }
      out.push(start, start + m[0].length);
      from = start + m[0].length;
      if (m[0].length > 0) continue;
      nonEmpty.lastIndex = start;
      const longer = nonEmpty.exec(s);
      if (longer !== null) {
        out.push(start, start + longer[0].length);
        from = start + longer[0].length;
      } else if (start === s.length) break;
      else from = start + (codePointAt(s, start) > 0xffff ? 2 : 1);
    }
    return out;
  };
}

// Python `re` patterns (str patterns, Python 3) translated once into JavaScript RegExps that match
// the same strings at the same places. spaCy stores its tokenizer rules as Python pattern source;
// the escapes, classes and anchors below are where the two dialects differ.
import { InputError } from "@convkit/io";

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

/** A translated pattern: the JS source and flags (`u`, plus `i` when the Python pattern set IGNORECASE). */
export interface TranslatedPattern {
  source: string;
  flags: string;
}

/**
 * Translates a Python 3 `re` pattern (str, default flags) into JS `u`-mode source with the same
 * meaning: `\w \d \s \S \b` with Python's Unicode sets, `$` as "end, or before a final newline",
 * `.` as "anything but newline", `\UXXXXXXXX`, `(?P<n>…)`, `{,n}`, `{,}`, literal `{`/`]`/`[`
 * where Python takes them literally, and global inline flags (`(?u)`, `(?i)`; JS folds case by
 * Unicode's simple case folding, Python by lowercasing: they differ on a few letters such as ı
 * and İ). Constructs JS cannot express the same way (scoped flags, atomic groups, possessive
 * quantifiers, backreferences, `\W` inside a class) are refused rather than approximated.
 * `where` names the pattern in the error.
 */
export function translatePythonRegex(pattern: string, where: string): TranslatedPattern {
  let flags = "u";
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
    for (const f of m[1]!) {
      if (f === "i") flags += flags.includes("i") ? "" : "i";
      else if (f !== "u") fail(`the inline flag (?${f})`);
    }
    i += m[0].length;
  }
  let inClass = false;
  let classStart = 0;
  while (i < n) {
    const c = pattern[i]!;
    if (c === "\\") {
      const [js, len] = translateEscape(pattern, i, inClass, fail);
      out += js;
      i += len;
      continue;
    }
    if (inClass) {
      if (c === "]" && i > classStart) {
        inClass = false;
        out += "]";
      } else if (c === "[" || c === "]") out += `\\${c}`;
      else if (c === "-" && (i === classStart || pattern[i + 1] === "]")) out += "\\-";
      else out += literal(c);
      i++;
      continue;
    }
    switch (c) {
      case "[": {
        out += "[";
        i++;
        if (pattern[i] === "^") {
          out += "^";
          i++;
        }
        inClass = true;
        classStart = i;
        // A `]` right after `[` or `[^` is a literal in Python.
        if (pattern[i] === "]") {
          out += "\\]";
          i++;
        }
        continue;
      }
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
      default:
        out += c === "/" ? "\\/" : c;
        i++;
    }
  }
  if (inClass) fail("an unclosed character class");
  try {
    new RegExp(out, flags);
  } catch (e) {
    fail(`a pattern JavaScript rejects (${(e as Error).message})`);
  }
  return { source: out, flags };
}

/** A character inside a class, unescaped in the Python source: `-` stays the range operator, other syntax characters are escaped. */
function literal(c: string): string {
  return c !== "-" && JS_SYNTAX.has(c) ? `\\${c}` : c;
}

/** One escape sequence at `pattern[i] === "\\"`: its JS form and its length in the Python source. */
function translateEscape(
  pattern: string,
  i: number,
  inClass: boolean,
  fail: (what: string) => never,
): [string, number] {
  const e = pattern[i + 1];
  if (e === undefined) fail("a trailing backslash");
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
      if (inClass) return ["\\x08", 2];
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
      return ["\\x07", 2];
    case "f":
    case "n":
    case "r":
    case "t":
    case "v":
      return [`\\${e}`, 2];
    case "x": {
      const h = /^[0-9a-fA-F]{2}/.exec(pattern.slice(i + 2));
      if (!h) fail("\\x without two hex digits");
      return [`\\x${h![0]}`, 4];
    }
    case "u": {
      const h = /^[0-9a-fA-F]{4}/.exec(pattern.slice(i + 2));
      if (!h) fail("\\u without four hex digits");
      return [`\\u{${h![0]}}`, 6];
    }
    case "U": {
      const h = /^[0-9a-fA-F]{8}/.exec(pattern.slice(i + 2));
      if (!h) fail("\\U without eight hex digits");
      return [`\\u{${Number.parseInt(h![0], 16).toString(16)}}`, 10];
    }
    case "0": {
      const o = /^[0-7]{0,2}/.exec(pattern.slice(i + 2))![0];
      return [`\\u{${Number.parseInt(`0${o}`, 8).toString(16)}}`, 2 + o.length];
    }
    default:
      // Backreferences (and Python's three-digit octal escapes): refused, see (?P=…).
      if (/[1-9]/.test(e!)) fail(`the escape \\${e} (a backreference or octal escape)`);
      if (/[A-Za-z]/.test(e!)) fail(`the escape \\${e}`);
      {
        // Any other escaped character stands for itself (an astral one is two units here).
        const cp = pattern.codePointAt(i + 1)!;
        const ch = String.fromCodePoint(cp);
        // `-` is a syntax character only inside a class (JS rejects `\-` outside one).
        if (ch === "-" && !inClass) return ["-", 2];
        return [JS_SYNTAX.has(ch) ? `\\${ch}` : ch, 1 + ch.length];
      }
  }
}

/** Compiles a translated pattern; `sticky`/`global` add `y`/`g`. */
export function compilePythonRegex(pattern: string, where: string, extra = ""): RegExp {
  const t = translatePythonRegex(pattern, where);
  return new RegExp(t.source, t.flags + extra);
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
  const t = translatePythonRegex(pattern, where);
  const search = new RegExp(t.source, `${t.flags}g`);
  // The capture shifts the pattern's own groups by one: harmless, backreferences are refused.
  const nonEmpty = new RegExp(`(?=([^]*))(?:${t.source})(?!\\1$)`, `${t.flags}y`);
  return (s) => {
    const out: number[] = [];
    let from = 0;
    while (from <= s.length) {
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
      else from = start + (s.codePointAt(start)! > 0xffff ? 2 : 1);
    }
    return out;
  };
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c < 0xdc00;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c < 0xe000;

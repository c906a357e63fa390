// Python `re` patterns translated to JavaScript: the same matches as CPython's `re` on the same
// strings (python3 is run here, as on every CI machine), and refusals for what JS cannot mean.

import { codePoint, codePointSpans, python, requires, rng } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { compilePythonFinditer, compilePythonRegex, translatePythonRegex } from "./pyregex.js";

/** search() span and finditer() spans of each pattern on each string, in code points, by CPython. */
const PY = `
import json, re, sys
d = json.load(sys.stdin)
out = []
for p in d["patterns"]:
    r = re.compile(p)
    row = []
    for s in d["strings"]:
        m = r.search(s)
        row.append([[m.start(), m.end()] if m else None, [[x.start(), x.end()] for x in r.finditer(s)]])
    out.append(row)
print(json.dumps(out))
`;

/**
 * CPython's (?i) matches. Each cased character as a literal and in a negated class with another
 * member (what that leaves of the string: its matches would be nearly all of it), over the string
 * of cased characters; class escapes and ranges over every character CPython knows.
 */
const PY_CASES = `
import json, re, _sre, unicodedata
from re._casefix import _EXTRA_CASES
known = [c for c in range(0x110000) if not 0xd800 <= c < 0xe000 and unicodedata.category(chr(c)) != "Cn"]
cased = sorted({c for c in known if _sre.unicode_iscased(c) or chr(c).lower() != chr(c) or chr(c).upper() != chr(c)}
               | set(_EXTRA_CASES) | {k for v in _EXTRA_CASES.values() for k in v})
cased_s = "".join(map(chr, cased))
all_s = "".join(map(chr, known))
found, left, whole = {}, {}, {}
for c in cased:
    e = re.escape(chr(c))
    found["(?i)" + e] = [ord(m) for m in re.findall("(?i)" + e, cased_s)]
    left["(?i)[^" + e + "0]"] = [ord(m) for m in re.sub("(?i)[^" + e + "0]", "", cased_s)]
for p in [r"(?i)\\w", r"(?i)\\W", r"(?i)[\\wk]", r"(?i)[^\\wk]", r"(?i)\\b.", r"(?i)\\B.", r"(?i)[\\dK]",
          r"(?i)[a-z]", r"(?i)[\\u0100-\\u017f]", r"(?i)[\\u0370-\\u03ff]", r"(?i)[^\\u0400-\\u04ff]",
          r"(?i)[\\u1c80-\\u1c88]", r"(?i)[\\u2100-\\u2200]", r"(?i)[\\U00010400-\\U0001044f]",
          r"(?i)[\\uff00-\\U00010fff]"]:
    whole[p] = [ord(m) for m in re.findall(p, all_s)]
print(json.dumps({"cased": cased, "known": known, "found": found, "left": left, "whole": whole}))
`;

function jsSpans(pattern: string, s: string): [[number, number] | null, [number, number][]] {
  const search = compilePythonRegex(pattern, "test");
  const m = search.exec(s);
  const flat = compilePythonFinditer(pattern, "test")(s);
  const spans = codePointSpans(s, flat);
  return [m ? [codePoint(s, m.index), codePoint(s, m.index + m[0].length)] : null, spans];
}

/** Characters where Python's and JavaScript's classes differ, and plain ones. */
const ALPHABET = [
  ..."aZé ß_9٣²½-.,;:'\"()[]{}?!$€%&*+/\\|<>=^~`@#",
  "\u00a0",
  "\u2003",
  "\u001c",
  "\u0085",
  "\ufeff",
  "\u200b",
  "\n",
  "\t",
  "Σ",
  "ς",
  "日",
  "\u0301",
  "😀",
  "𝔘",
  "K",
  "ſ",
];

function randomStrings(n: number, seed: number): string[] {
  const r = rng(seed);
  return Array.from({ length: n }, () =>
    Array.from({ length: Math.floor(r() * 12) }, () => ALPHABET[Math.floor(r() * ALPHABET.length)]!).join(""),
  );
}

describe("Python regular expressions in JavaScript", () => {
  const patterns = [
    "\\w+",
    "\\W",
    "\\d+",
    "\\D",
    "\\s+",
    "\\S+",
    "[\\w\\-\\.]+",
    "[\\s\\d]+",
    "[^\\S]",
    "a$",
    ".$",
    "^.",
    "\\b\\w",
    "\\B.",
    "[]a]+",
    "[^]a]",
    "x{,2}y",
    "\\.{2,}",
    "{a}",
    "(?i)[a-z]+",
    "(?i)ß|σ",
    "(?<=[0-9])[+\\-\\*^](?=[0-9-])",
    "(?<!\\w)'|'$",
    "\\U0001F600|\\u00e9|\\x41",
    "[\\u00A6-\\u00B0\\U0001F300-\\U0001F6FF]",
    "\\'\\\"\\#\\&\\~",
    "\\Aa|b\\Z",
    "(?u)^(?:[\\w+\\-.]{2,}://)?\\S+$",
    "(?#comment)a+",
    "x{,}y",
    "e\\-mail|\\-+",
    "a]|]b",
    // Empty matches, and what may start where one was (finditer's must_advance).
    "a*|b",
    "|a",
    "a|",
    "\\b|\\w+",
    "(?<=\\.)|\\.+",
    "x*",
    "\\W*?",
    // Every alternative anchored at the end (spaCy's suffixes): compiled as one group before the anchor.
    "a$|b$|\\.\\.+$",
    "(?<=[0-9])%$|'s$|s$|\\'$",
    "ab$|a$|b$",
    "a$|a\\n$",
  ];
  const strings = [
    ...randomStrings(600, 5),
    "a\n",
    "x\n\n",
    "'word'",
    '"q"',
    "1+2",
    "3-4",
    "AbC",
    "ẞ",
    "😀é",
    "1%\n",
    "it's",
    "ab..",
    "",
  ];

  requires("python3").it("search and finditer give CPython's spans on random strings", () => {
    const py = JSON.parse(python(PY, JSON.stringify({ patterns, strings }))) as [
      [number, number] | null,
      [number, number][],
    ][][];
    const bad: string[] = [];
    patterns.forEach((p, i) => {
      strings.forEach((s, j) => {
        if (JSON.stringify(jsSpans(p, s)) !== JSON.stringify(py[i]![j]))
          bad.push(`${p} on ${JSON.stringify(s)}`);
      });
    });
    expect(bad).toEqual([]);
  });

  it("finditer: after an empty match, a longer match may start at the same place (Python 3.7+)", () => {
    // [pattern, string, Python's spans as UTF-16 offsets], each checked with CPython 3.11.
    const cases: [string, string, number[]][] = [
      ["a*|b", "b", [0, 0, 0, 1, 1, 1]],
      ["|a", "aa", [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]],
      ["a|", "aa", [0, 1, 1, 2, 2, 2]],
      ["b*|a", "ab", [0, 0, 0, 1, 1, 2, 2, 2]],
      ["a*", "baaa", [0, 0, 1, 4, 4, 4]],
      ["a??", "aa", [0, 0, 0, 1, 1, 1, 1, 2, 2, 2]],
      ["\\b|\\w+", "ab cd", [0, 0, 0, 2, 2, 2, 3, 3, 3, 5, 5, 5]],
      ["\\B|-", "a-b--c", [1, 2, 3, 4, 4, 4, 4, 5]],
      ["(?=a)|a", "aa", [0, 0, 0, 1, 1, 1, 1, 2]],
      ["(?<=a)|b", "abab", [1, 1, 1, 2, 3, 3, 3, 4]],
      ["(?<=\\.)|\\.+", "a..b.", [1, 3, 3, 3, 4, 5, 5, 5]],
      ["$|\\W*", "a.b$", [0, 0, 1, 2, 2, 2, 3, 4, 4, 4]],
      // An astral character is one step (two UTF-16 units), and may be what the longer match takes.
      ["x*", "😀a😀", [0, 0, 2, 2, 3, 3, 5, 5]],
      ["|😀", "😀", [0, 0, 0, 2, 2, 2]],
      ["|\\w\\w", "😀ab", [0, 0, 2, 2, 2, 4, 4, 4]],
      // Never inside a surrogate pair (V8 11.3 tries there when a pattern starts with a lookaround).
      ["\\B|-", "a😀", [3, 3]],
      ["(?<![a])[^b]", "a😀", [0, 1]],
      // Python 3.11's \B never matches in an empty string.
      ["\\B|-", "", []],
      ["\\B", " ", [0, 0, 1, 1]],
    ];
    for (const [p, s, spans] of cases)
      expect(compilePythonFinditer(p, "t")(s), `${p} on ${s}`).toEqual(spans);
  });

  it("global inline flags are read; (?i) is spelled out; Python's $ and . keep their meaning", () => {
    expect(translatePythonRegex("(?u)(?i)abc", "t")).toEqual({
      source: "[a\\u{41}][b\\u{42}][c\\u{43}]",
      flags: "u",
    });
    expect(translatePythonRegex("(?i)[^h-j]", "t").source).toBe("[^h-j\\u{48}-\\u{4a}\\u{130}-\\u{131}]");
    expect(translatePythonRegex("a$", "t").source).toBe("a(?=\\n?$)");
    expect(translatePythonRegex("a.b", "t").source).toBe("a[^\\n]b");
  });

  it("(?i) matches what Python's sre matches: i, I, İ and ı as one letter, \\w and \\b without case", () => {
    // [pattern, characters it fullmatches, characters it does not], each checked with CPython 3.11.
    const cases: [string, string, string][] = [
      ["(?i)i", "IiİıI", "jK"],
      ["(?i)İ", "Iiİı", "j"],
      ["(?i)ı", "Iiİı", "j"],
      ["(?i)\\x49", "Iiİı", "j"],
      ["(?i)[a-z]", "İıſKAz", "é"],
      ["(?i)[h-j]", "hHİıjJ", "k"],
      ["(?i)[\\u0100-\\u017f]", "IiİıſsSĀā", "é"],
      ["(?i)[^i]", "jK", "Iiİı"],
      ["(?i)[^\\u0130]", "j", "Iiİı"],
      ["(?i)\\w", "ιΙa_", "\u0345"],
      ["(?i)\\W", "\u0345", "ιΙa_"],
      ["(?i)[\\wi]", "ιİ", "\u0345"],
      ["(?i)[^\\w]", "\u0345", "ι"],
      ["(?i)x\\b.", "", ""],
      // Where JavaScript's `iu` folding already agrees (kept so the expansion does not lose them).
      ["(?i)ß", "ßẞ", "sS"],
      ["(?i)k", "kKK", "j"],
      ["(?i)µ", "µμΜ", "m"],
      ["(?i)σ", "σςΣ", "s"],
      ["(?i)\\U00010400", "𐐀𐐨", "𐐁"],
    ];
    for (const [p, yes, no] of cases) {
      const t = translatePythonRegex(p, "t");
      const full = new RegExp(`^(?:${t.source})$`, t.flags);
      for (const c of yes) expect(full.test(c), `${p} on U+${c.codePointAt(0)!.toString(16)}`).toBe(true);
      for (const c of no) expect(full.test(c), `${p} on U+${c.codePointAt(0)!.toString(16)}`).toBe(false);
    }
    // \b sees U+0345 as Python does (not a word character), and a longer pattern keeps its case.
    expect(compilePythonRegex("(?i)x\\b.", "t").test("X\u0345")).toBe(true);
    expect(compilePythonRegex("(?i)[\\u0130-\\u0131]+$", "t").exec("iIİı")?.index).toBe(0);
  });

  requires("python3").it(
    "(?i): CPython's matches for every cased character, alone and in classes, and around \\w",
    () => {
      // Only characters CPython knows (not Cn in its unicodedata): newer ones are beyond its Unicode
      // version, as they are for \w.
      const py = JSON.parse(python(PY_CASES)) as {
        cased: number[];
        known: number[];
        found: Record<string, number[]>;
        left: Record<string, number[]>;
        whole: Record<string, number[]>;
      };
      const text = (cps: number[]) => cps.map((c) => String.fromCodePoint(c)).join("");
      const cased = text(py.cased);
      const known = text(py.known);
      /** The characters a pattern matches, as code points (every pattern here matches one at a time). */
      const matched = (p: string, s: string) => {
        const flat = compilePythonFinditer(p, "t")(s);
        return Array.from({ length: flat.length / 2 }, (_, k) => s.codePointAt(flat[2 * k]!)!);
      };
      // An uppercase astral letter in a class is refused (CPython versions disagree there): listed apart.
      const refused: string[] = [];
      const refusedHere = (p: string) => {
        try {
          translatePythonRegex(p, "t");
          return false;
        } catch (e) {
          if (!/CPython versions disagree/.test((e as Error).message)) throw e;
          refused.push(p);
          return true;
        }
      };
      const bad: string[] = [];
      for (const [p, want] of Object.entries(py.found))
        if (matched(p, cased).join() !== want.join()) bad.push(p);
      for (const [p, want] of Object.entries(py.left)) {
        if (refusedHere(p)) continue;
        const hit = new Set(matched(p, cased));
        if (py.cased.filter((c) => !hit.has(c)).join() !== want.join()) bad.push(p);
      }
      const upperAstral = py.cased
        .map((c) => String.fromCodePoint(c))
        .filter((c) => c.length === 2 && c.toLowerCase() !== c);
      expect(refused.sort()).toEqual(upperAstral.map((c) => `(?i)[^${c}0]`).sort());
      for (const [p, want] of Object.entries(py.whole))
        if (matched(p, known).join() !== want.join()) bad.push(p);
      expect(py.cased.length).toBeGreaterThan(2500);
      expect(bad).toEqual([]);
    },
  );

  it("constructs JavaScript cannot mean the same way are refused with one clear error", () => {
    for (const p of [
      "(?i:a)",
      "a++",
      "(?>a)",
      "[\\W]",
      "\\N{DASH}",
      "(?x)a",
      "[a",
      "(a)?\\1b",
      "(?P<q>a)(?P=q)",
      "\\101",
      "\\U00110000",
      // CPython 3.11 matches nothing with an uppercase astral letter in a (?i) class; 3.12.8+ does.
      "(?i)[\\U00010400x]",
    ])
      expect(() => translatePythonRegex(p, "tokenizer"), p).toThrow(
        /^tokenizer:byte \d+: expected a Python regular expression/,
      );
  });
});

// Python `re` patterns translated to JavaScript: the same matches as CPython's `re` on the same
// strings (python3 is run here, as on every CI machine), and refusals for what JS cannot mean.

import { python, requires, rng } from "@convkit/test-helpers";
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

/** A UTF-16 offset as a code point offset. */
function cp(s: string, i: number): number {
  return [...s.slice(0, i)].length;
}

function jsSpans(pattern: string, s: string): [[number, number] | null, [number, number][]] {
  const search = compilePythonRegex(pattern, "test");
  const m = search.exec(s);
  const flat = compilePythonFinditer(pattern, "test")(s);
  const spans: [number, number][] = [];
  for (let k = 0; k < flat.length; k += 2) spans.push([cp(s, flat[k]!), cp(s, flat[k + 1]!)]);
  return [m ? [cp(s, m.index), cp(s, m.index + m[0].length)] : null, spans];
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

  it("global inline flags become JS flags; Python's $ and . keep their meaning", () => {
    expect(translatePythonRegex("(?u)(?i)abc", "t")).toEqual({ source: "abc", flags: "ui" });
    expect(translatePythonRegex("a$", "t").source).toBe("a(?=\\n?$)");
    expect(translatePythonRegex("a.b", "t").source).toBe("a[^\\n]b");
  });

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
    ])
      expect(() => translatePythonRegex(p, "tokenizer"), p).toThrow(
        /^tokenizer:byte \d+: expected a Python regular expression/,
      );
  });
});

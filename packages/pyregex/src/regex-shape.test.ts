// The tokenizer's shortcuts through spaCy-style affix patterns (regex-shape.ts) against CPython's
// `re` (python3 runs here, as on every CI machine): the suffix search's length, the infix finder's
// spans and the whole-string match equal `re.search`, `re.finditer` and `re.match` on seeded random strings, the patterns built
// to reach every path (bounded and unbounded alternatives, lookbehinds, astral characters, a final
// newline, patterns that match empty).
import { codePointSpans, python, requires, rng } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { compileInfixFinder, compileMatch, compileSuffixSearch } from "./regex-shape.js";

const PY = `
import json, re, sys
d = json.load(sys.stdin)
print(json.dumps({
  "suffix": [[(lambda m: [m.start(), m.end()] if m else None)(re.search(p, s)) for s in d["strings"]] for p in d["suffixes"]],
  "infix": [[[[m.start(), m.end()] for m in re.finditer(p, s)] for s in d["strings"]] for p in d["infixes"]],
  "match": [[re.match(p, s) is not None for s in d["strings"]] for p in d["matches"]],
}))
`;

const ALPHABET = [..."ab1.'s%km-,!?:()", "😀", "é", "\u00a0", "\n", "…", "’", "Σ"];
/** Rich in what spaCy's URL pattern's user-info part, host and path take, and what they do not. */
const URL_ALPHABET = [..."a:@./:@.a1Z-_#?", "\t", "\n", "\u3000", "é", "😀"];

function randomStrings(n: number, seed: number, alphabet = ALPHABET): string[] {
  const r = rng(seed);
  return Array.from({ length: n }, () =>
    Array.from(
      { length: Math.floor(r() * (r() < 0.1 ? 40 : 10)) },
      () => alphabet[Math.floor(r() * alphabet.length)]!,
    ).join(""),
  );
}

describe("affix searches through a pattern's shape", () => {
  const suffixes = [
    // spaCy's form: every alternative anchored at the end, one of them unbounded.
    "'s$|'S$|\\.\\.+$|…$|,$|(?<=[0-9])%$|(?<=[0-9])(?:km|m|k)$|(?<=[a-z])\\.$|[\\U0001F600-\\U0001F64F]$",
    // All bounded; a class and `.` that may take an astral character.
    "[😀a]$|.$|ab$",
    // An alternative that matches empty (at the end), and one taking a final newline.
    "(?<=b)$|\\n$|s$",
    // Repetitions with bounds, and a lazy one.
    "a{2,3}$|(?:1\\.){1,2}$|b+?$",
    // A class that may take an astral character, repeated: its matches span up to 4 units.
    "[😀é]{2}$|x$",
    // Not every alternative anchored: the plain search.
    "a|b$",
  ];
  const infixes = [
    "\\.\\.+|…|(?<=[0-9])[+\\-\\*^](?=[0-9-])|(?<=[a-z])\\.(?=[A-Z])|(?<=[a-zA-Z]),(?=[a-zA-Z])|(?<=[a-z])(?:-|--)(?=[a-z])",
    "[😀]|(?<=a)'",
    // Matches empty: always run.
    "(?<=a)(?=b)|-",
  ];
  // Whole-string matches (token_match, url_match): characters every match consumes, or not.
  const matches = [
    // A host of labels and a dot: every match holds a '.'.
    "(?:[a-z]+:)?(?:[a-z0-9]+\\.)+[a-z]{2,}$",
    // Required by every alternative: a, '.', b; by one alternative only: nothing.
    "a\\.b|b\\.a",
    "a|b\\.",
    "ab|ab*",
    // Optional, looked at, or repeated zero times: not required.
    "(?:\\.)?ab",
    "(?=.*\\.)ab",
    "(?:km){0}s",
    // A dot spelled as an escape; `.` itself, which stands for any character.
    "\\x2e{1,2}s",
    "a.b",
    // spaCy's URL pattern's form: the user-info part decided by a scan of the '@'s
    // (match-userinfo.ts), with a rest that takes some whitespace (\u3000) or none, and a prefix
    // that may take whitespace (then not scanned).
    "(?u)^(?:(?:[\\w\\+\\-\\.]{2,})://)?(?:\\S+(?::\\S*)?@)?(?:(?:[a-z0-9\\u3000][a-z0-9_-]{0,3})?[a-z0-9]\\.)+(?:[a-z]{2,3})(?::\\d{2,5})?(?:[/?#]\\S*)?$",
    "^(?:\\S+(?::\\S*)?@)?(?:[a-z]+\\.)+[a-z]{2}(?:[/?#]\\S*)?$",
    // A rest without the path: characters before the '@' it cannot take.
    "^(?:\\S+(?::\\S*)?@)?(?:[a-z]+\\.)+[a-z]{2}$",
    "^(?:a\\s)?(?:\\S+(?::\\S*)?@)?(?:[a-z\\u3000]+\\.)+[a-z]{2}(?:[/?#]\\S*)?$",
  ];
  const strings = [
    ...randomStrings(3000, 7),
    ...randomStrings(3000, 8, URL_ALPHABET),
    "a@b.co/a@b.co/\t",
    "a@b.co/a@b.co/",
    "a:b@c:d@e.co:80/x",
    "http://a:b@c.co",
    "a@\u3000.co",
    "a a@b.co",
    "a\u3000@b.co",
    "x:@ab.co",
    "x:@ab.co\n",
    "b.co/x@y",
    "http://b.co/@",
    "",
    "\n",
    "a\n",
    "1km",
    "1.1.",
    "ab..",
    "😀😀",
    "aab",
    "a.b",
    "ab.ab",
    "a1b",
  ];

  requires("python3").it("give CPython's search length, finditer spans and match on random strings", () => {
    const py = JSON.parse(python(PY, JSON.stringify({ suffixes, infixes, matches, strings }))) as {
      suffix: ([number, number] | null)[][];
      infix: [number, number][][][];
      match: boolean[][];
    };
    const bad: string[] = [];
    suffixes.forEach((p, i) => {
      const search = compileSuffixSearch(p, "test");
      strings.forEach((s, j) => {
        const want = py.suffix[i]![j]!;
        const got = search(s);
        // CPython's span in code points as a length in UTF-16 units (an empty match and none: 0).
        const units = (k: number) => [...s].slice(0, k).join("").length;
        const wantLength = want === null ? 0 : units(want[1]) - units(want[0]);
        if (got !== wantLength)
          bad.push(`suffix ${p} on ${JSON.stringify(s)}: ${got}, CPython ${wantLength}`);
      });
    });
    infixes.forEach((p, i) => {
      const finder = compileInfixFinder(p, "test");
      strings.forEach((s, j) => {
        const flat = finder(s);
        const spans = codePointSpans(s, flat);
        if (JSON.stringify(spans) !== JSON.stringify(py.infix[i]![j]))
          bad.push(`infix ${p} on ${JSON.stringify(s)}`);
      });
    });
    matches.forEach((p, i) => {
      const match = compileMatch(p, "test");
      strings.forEach((s, j) => {
        if (match(s) !== py.match[i]![j]) bad.push(`match ${p} on ${JSON.stringify(s)}: ${match(s)}`);
      });
    });
    // Every pattern matched some string and missed some other: the comparison reached both ways.
    for (const row of py.match) expect(new Set(row).size).toBe(2);
    expect(bad).toEqual([]);
  });

  it("skip a string that holds nothing a match can consume, and only then", () => {
    // A pattern whose every match needs a '-': a word without one is not searched at all, so a
    // shortcut that skipped too much would show here as a missing infix.
    const finder = compileInfixFinder("(?<=[a-z])-(?=[a-z])", "test");
    expect(finder("well-known")).toEqual([4, 5]);
    expect(finder("wellknown")).toEqual([]);
    // Lookbehind characters are not consumed: a pattern that can match empty is always searched.
    expect(compileInfixFinder("(?<=a)(?=b)", "test")("ab")).toEqual([1, 1]);
    // Every match of this one consumes a '.': a string without one is refused before the pattern runs.
    const host = compileMatch("(?:[a-z]+\\.)+[a-z]{2,}$", "test");
    expect(["example.com", "example", "a.b.cd", "e.g"].map(host)).toEqual([true, false, true, false]);
    const suffix = compileSuffixSearch("\\.\\.+$|(?<=[0-9])%$|s$", "test");
    expect(["a....", "10%", "cats", "cat", "%", "1.."].map(suffix)).toEqual([4, 1, 1, 0, 0, 2]);
  });
});

// Differential test: SpacyTokenizer's fast paths (the whitespace scan that hashes chunks as it goes,
// the two-generation chunk cache with rotation and promotion, cached special cases, multi-token
// cache hits, the phrase matcher's per-entry start cache, the faster_heuristics skip, the reused
// buffers) against ReferenceTokenizer, the plain port of spaCy's Tokenizer.__call__, on seeded
// random texts and synthetic English-like rules. Public behaviour only: token texts, UTF-16 starts,
// trailing spaces and special-case NORMs, with caches cold, warm, tiny, reordered and renewed.
// No ../shared (the real en_core_web_sm rules: tokenizer.diff.shared.test.ts).
import { rng } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import type { TokenizerRules } from "./folder.js";
import {
  mismatchesAcrossCaches,
  randomText,
  syntheticRules,
  tokenizerStrings,
  tokenStrings,
} from "./testdata/tokenizer-cases.js";
import { SpacyTokenizer } from "./tokenizer.js";
import { type ReferenceToken, ReferenceTokenizer } from "./tokenizer.reference.js";

/** spaCy 3.8.16's Tokenizer with the synthetic rules (faster_heuristics on): tokenStrings joined by spaces. */
const SPACY_CASES: [text: string, tokens: string][] = [
  [
    '(don\'t) "New York" a. m. e.g.: US$10 10a.m. gonna',
    '"("@0 "do"@1="do" "n\'t"@3="not" ")"@6_ "\\""@8 "New York"@9="new york" "\\""@17_ "a."@19 " "@21 "m."@22_ "e.g."@25 ":"@29_ "US$"@31 "10"@34_ "10"@37 "a.m."@39_ "gon"@44="going" "na"@47="to"',
  ],
  [
    "Visit https://www.example.com/a/b?c=1, or mail user@mail.example.com. #hashtag :smile:! 3.14km",
    '"Visit"@0_ "https://www.example.com/a/b?c=1"@6 ","@37_ "or"@39_ "mail"@42_ "user@mail.example.com"@47 "."@68_ "#hashtag"@70_ ":smile:!"@79_ "3.14"@88 "km"@92',
  ],
  [
    "  leading\t\n ws  and\u00a0nbsp\u3000ideo  ",
    '"  "@0 "leading"@2 "\\t\\n "@9 "ws"@12_ " "@15 "and"@16 "\\u00a0"@19 "nbsp"@20 "\\u3000"@24 "ideo"@25_ " "@30',
  ],
  [
    "x-ray-ish Dr.No o.O:) \ud83d\ude42\ud83d\ude42! \ud83d\ude00\ud83d\ude00 3x4 5-6 a,b abc.Def \ud835\udd18\ud835\udd2b\ud835\udd26.",
    '"x-ray"@0 "-"@5 "ish"@6_ "Dr."@10 "No"@13_ "o.O"@16 ":)"@19_ "\\ud83d\\ude42"@22 "\\ud83d\\ude42"@24="smiles" "!"@26_ "\\ud83d\\ude00"@28 "\\ud83d\\ude00"@30_ "3"@33 "x"@34 "4"@35_ "5"@37 "-"@38 "6"@39_ "a"@41 ","@42 "b"@43_ "abc"@45 "."@48 "Def"@49_ "\\ud835\\udd18\\ud835\\udd2b\\ud835\\udd26."@53',
  ],
  [
    "'cause it's \u2019\u2019 NASA. U.S. etc... gonna-win\t\n",
    '"\'cause"@0_="because" "it"@7 "\'s"@9_ "\\u2019\\u2019"@12_="\\"" "NASA"@15 "."@19_ "U.S."@21_ "etc"@26 "..."@29_ "gonna"@33 "-"@38 "win"@39 "\\t"@42 "\\n"@43',
  ],
];

/** The text the tokens spell, with their trailing spaces. */
const spelled = (tokens: readonly ReferenceToken[]) =>
  tokens.map((t) => t.text + (t.spaceAfter ? " " : "")).join("");

const TEXTS = 3000;

describe("SpacyTokenizer against the plain reference (synthetic rules, seeded texts)", () => {
  it("the reference gives spaCy's tokens on hand-picked texts, and so does the tokenizer", () => {
    const rules = syntheticRules(true);
    const reference = new ReferenceTokenizer(rules);
    const tokenizer = new SpacyTokenizer(rules, "synthetic");
    for (const [text, want] of SPACY_CASES) {
      expect(tokenStrings(reference.tokenize(text)).join(" "), `reference: ${text}`).toBe(want);
      expect(tokenizerStrings(tokenizer, text).join(" "), `tokenizer: ${text}`).toBe(want);
    }
  });

  it("the reference splits at infixes as Python 3.7+'s finditer: a non-empty match may follow an empty one in place", () => {
    // spaCy 3.8.16's Tokenizer(Vocab(), infix_finditer=re.compile(pattern).finditer). tokenizer.ts
    // moves on one character after an empty match instead (spaCy English's infixes never match empty).
    const cases: [pattern: string, text: string, tokens: string[]][] = [
      ["(?=-)|-", "x-b a--b", ["x", "-", "b", "a", "-", "-", "b"]],
      ["(?<=a)|b", "abax", ["a", "b", "a", "x"]],
      ["(?=b)|b+|(?<=x)", "xbbax\ud83d\ude00b", ["x", "bb", "ax", "\ud83d\ude00", "b"]],
    ];
    for (const [infixFinditer, text, tokens] of cases) {
      const rules: TokenizerRules = {
        prefixSearch: null,
        suffixSearch: null,
        infixFinditer,
        tokenMatch: null,
        urlMatch: null,
        fasterHeuristics: true,
        exceptions: [],
      };
      expect(new ReferenceTokenizer(rules).tokenize(text).map((t) => t.text)).toEqual(tokens);
    }
  });

  for (const fasterHeuristics of [true, false]) {
    it(`every token of ${TEXTS} texts, caches cold, warm, tiny, reordered and renewed (faster_heuristics ${fasterHeuristics})`, () => {
      const rules = syntheticRules(fasterHeuristics);
      const reference = new ReferenceTokenizer(rules);
      const r = rng(fasterHeuristics ? 0x70cd1f : 0x70cd2f);
      // Mostly short texts, a few long ones (past the token buffers' first size).
      const texts = Array.from({ length: TEXTS }, (_, i) => randomText(r, i % 100 === 0 ? 600 : 24));
      const want = texts.map((text) => {
        const tokens = reference.tokenize(text);
        // Every character is in a token or a token's trailing space.
        if (spelled(tokens) !== text)
          throw new Error(`the reference loses characters of ${JSON.stringify(text)}`);
        return tokenStrings(tokens);
      });
      const specials = rules.exceptions.length;
      // The default cache, and generations that hold the special cases and 1, 4 or 64 chunks more.
      const bad = mismatchesAcrossCaches(
        rules,
        texts,
        want,
        [undefined, specials + 1, specials + 4, specials + 64],
        r,
      );
      expect(bad.length, bad.slice(0, 3).join("\n")).toBe(0);
    });
  }

  it("the texts reach the paths: special cases with NORMs and spaces, token and URL matches, infixes, long runs", () => {
    const reference = new ReferenceTokenizer(syntheticRules(true));
    const r = rng(0x70cd1f);
    const docs = Array.from({ length: TEXTS }, (_, i) =>
      reference.tokenize(randomText(r, i % 100 === 0 ? 600 : 24)),
    );
    const tokens = docs.flat();
    const some = (what: string, test: (t: ReferenceToken) => boolean) =>
      expect(tokens.filter(test).length, what).toBeGreaterThan(10);
    some("NORMs", (t) => t.norm !== undefined);
    some("a special case with a space, one token", (t) => t.text === "New York");
    // "a. m." is found by the matcher as a . m . and becomes a. + " " + m.
    expect(
      docs.filter((d) =>
        d.some((t, i) => t.text === "a." && d[i + 1]?.text === " " && d[i + 2]?.start === t.start + 3),
      ).length,
      "a special case of three tokens found by the matcher",
    ).toBeGreaterThan(10);
    // "-" is neither a prefix nor a suffix here: between letters, it was split off as an infix.
    expect(
      docs.filter((d) =>
        d.some(
          (t, i) =>
            t.text === "-" &&
            /[a-z]$/i.test(d[i - 1]?.text ?? "") &&
            !d[i - 1]!.spaceAfter &&
            /^[a-z]/i.test(d[i + 1]?.text ?? ""),
        ),
      ).length,
      "infixes",
    ).toBeGreaterThan(10);
    some("token_match", (t) => t.text.startsWith(":") && t.text.length > 3 && t.text.endsWith(":"));
    some("url_match", (t) => t.text.includes("://") || /^\w+@/.test(t.text));
    some("whitespace tokens", (t) => /^[\s\u0085]+$/.test(t.text) && t.text !== " ");
    some("astral characters", (t) => /[\u{10000}-\u{10ffff}]/u.test(t.text));
    some("long runs", (t) => t.text.length > 30);
  });
});

import { describe, expect, it } from "vitest";
import {
  firstCodePoints,
  IKAT,
  MSMARCO,
  prepareText,
  segmentDocument,
  sentenceTexts,
  windowPassages,
} from "./passages.js";
import { heuristicSplitter, icuSplitter, sentencizerSplitter } from "./splitters.js";

const splitters = { heuristic: heuristicSplitter, sentencizer: sentencizerSplitter, icu: icuSplitter() };

describe("the official chunker's rule (test vectors)", () => {
  for (const [name, split] of Object.entries(splitters)) {
    it(`${name}: empty and whitespace-only text give no passages`, () => {
      expect(segmentDocument("", split)).toEqual([]);
      expect(segmentDocument(" \n\r\t\u3000 ", split)).toEqual([]);
    });
    it(`${name}: a title line and two sentences give one passage, the newline a space`, () => {
      expect(segmentDocument("Best pizza in Rome\nWe tried 12 places. Here is the winner.", split)).toEqual([
        "Best pizza in Rome We tried 12 places. Here is the winner.",
      ]);
    });
    it(`${name}: N sentences give the official windows`, () => {
      const doc = (n: number) => Array.from({ length: n }, (_, k) => `This is sentence ${k + 1}.`).join(" ");
      const span = (a: number, b: number) =>
        Array.from({ length: b - a + 1 }, (_, k) => `This is sentence ${a + k}.`).join(" ");
      expect(segmentDocument(doc(10), split)).toEqual([span(1, 10)]);
      expect(segmentDocument(doc(11), split)).toEqual([span(1, 10), span(6, 11)]);
      expect(segmentDocument(doc(15), split)).toEqual([span(1, 10), span(6, 15)]);
      expect(segmentDocument(doc(16), split)).toEqual([span(1, 10), span(6, 15), span(11, 16)]);
      expect(segmentDocument(doc(21), split).length).toBe(4);
      expect(segmentDocument(doc(3), split)).toEqual([span(1, 3)]);
    });
  }
  it("text is cut to 10,000 code points, not UTF-16 units", () => {
    expect(prepareText("a".repeat(10_001))).toBe("a".repeat(10_000));
    const emoji = "\u{1F600}".repeat(10_001);
    const cut = prepareText(emoji);
    expect([...cut].length).toBe(10_000);
    expect(cut.length).toBe(20_000);
    expect(firstCodePoints("ab\u{1F600}c", 3)).toBe("ab\u{1F600}");
  });
  it("\\r\\n becomes two spaces; Python's whitespace set is stripped", () => {
    expect(prepareText("\u2003 a\r\nb \x1c")).toBe("a  b");
    expect(prepareText(" a\r\nb ", MSMARCO)).toBe("a\r\nb");
  });
  it("a sentence keeps inner whitespace runs; only a single trailing space is dropped (spaCy's Span.text)", () => {
    const t = "One.  Two. Three.";
    expect(sentenceTexts(t, [0, 6, 11])).toEqual(["One.  ", "Two.", "Three."]);
    expect(sentenceTexts(t, [0, 6, 11], MSMARCO)).toEqual(["One.", "Two.", "Three."]);
  });
  it("windows and stride are options", () => {
    const s = ["a", "b", "c", "d", "e"];
    expect(windowPassages(s, { ...IKAT, window: 2, stride: 2 })).toEqual(["a b", "c d", "e"]);
    expect(windowPassages(s, { ...IKAT, window: 3, stride: 1 })).toEqual(["a b c", "b c d", "c d e"]);
  });
});

describe("text preparation against a literal reading of the rule", () => {
  // Python's order, literally: every \r and \n to a space, strip Python's whitespace, then the first
  // n code points (JS's string iterator counts a lone surrogate as one, as Python does).
  const PY_SPACE = /^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu;
  const literal = (raw: string, n: number, flatten: boolean) =>
    [...(flatten ? raw.replace(/[\r\n]/g, " ") : raw).replace(PY_SPACE, "")].slice(0, n).join("");
  const atoms = [
    "a",
    "b. ",
    "\r",
    "\n",
    "\r\n",
    " ",
    "\t",
    "\u3000",
    "\u00a0",
    "\u2003",
    "\x1c",
    "\u{1F600}",
    "é",
    "\uD800",
    "\uDC00",
    "\uD83D",
  ];
  let seed = 9;
  const rnd = () => {
    seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return seed / 2 ** 32;
  };
  it("strip and cut first, flatten after: the same text as flatten, strip, cut (5,000 random texts)", () => {
    for (let i = 0; i < 5000; i++) {
      let raw = "";
      const len = Math.floor(rnd() * 60);
      for (let k = 0; k < len; k++) raw += atoms[Math.floor(rnd() * atoms.length)];
      const n = Math.floor(rnd() * 70);
      for (const o of [IKAT, MSMARCO]) {
        const opts = { ...o, maxLength: n };
        expect(prepareText(raw, opts), JSON.stringify([raw, n])).toBe(literal(raw, n, o.flattenNewlines));
      }
    }
  });
  it("firstCodePoints: pairs count once, lone surrogates once each, with or without any surrogate", () => {
    for (const s of [
      "abc",
      "a\u{1F600}b",
      "\uD800x\u{1F600}",
      "x\uDC00\uD800",
      "\u{1F600}\u{1F600}",
      "\uD800",
    ]) {
      for (let n = 0; n <= s.length + 1; n++) expect(firstCodePoints(s, n)).toBe([...s].slice(0, n).join(""));
    }
  });
});

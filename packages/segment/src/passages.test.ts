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

// segmentDocumentLocated: each passage's [start, end) in code points of the raw text, for Python's
// text[start:end]. Documents seeded, with accents, CJK and emoji (surrogate pairs).
import { rng } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { IKAT, MSMARCO, type SegmentOptions, segmentDocument, segmentDocumentLocated } from "./passages.js";
import { heuristicSplitter, icuSplitter, sentencizerSplitter } from "./splitters.js";

const WORDS = [
  "café",
  "río",
  "über",
  "日本語",
  "文章",
  "😀",
  "𝒜𝒷𝒸",
  "naïve",
  "plain",
  "word",
  "👍🏽",
  "Ünïcödé",
];

/** Seeded sentences, `sep` between them, whitespace around the whole. */
function doc(seed: number, sentences: number, sep: () => string): string {
  const r = rng(seed);
  const pick = () => WORDS[Math.floor(r() * WORDS.length)]!;
  const s = Array.from({ length: sentences }, (_, k) => {
    const n = 2 + Math.floor(r() * 6);
    return `${k % 2 ? "Word" : "Then"} ${Array.from({ length: n }, pick).join(" ")}.`;
  });
  let out = "  \n ";
  for (let i = 0; i < s.length; i++) out += (i ? sep() : "") + s[i];
  return `${out} \n`;
}

/** Python's `text[start:end]`: a code point slice. */
const slice = (text: string, a: number, b: number) => Array.from(text).slice(a, b).join("");

const splitters = { heuristic: heuristicSplitter, sentencizer: sentencizerSplitter, icu: icuSplitter() };
const presets: Record<string, SegmentOptions> = { ikat: IKAT, msmarco: MSMARCO };

describe("segmentDocumentLocated", () => {
  for (const [preset, base] of Object.entries(presets))
    for (const [name, split] of Object.entries(splitters)) {
      const o = { ...base, window: 4, stride: 2 };
      it(`${preset}, ${name}: one space between sentences: the offsets slice the passage back`, () => {
        for (let seed = 1; seed <= 40; seed++) {
          const text = doc(seed, 3 + (seed % 9), () => " ");
          const { passages, offsets } = segmentDocumentLocated(text, split, o);
          // The same passages as segmentDocument, two offsets each.
          expect(passages).toEqual(segmentDocument(text, split, o));
          expect(offsets.length).toBe(2 * passages.length);
          expect(passages.length).toBeGreaterThan(0);
          passages.forEach((p, k) => {
            expect(slice(text, offsets[2 * k]!, offsets[2 * k + 1]!)).toBe(p);
          });
        }
      });
      it(`${preset}, ${name}: other whitespace between sentences: the slice is the passage but for it`, () => {
        const seps = [" ", "  ", "\n", "\n\n", " \r\n\t"];
        for (let seed = 1; seed <= 40; seed++) {
          const r = rng(seed + 1000);
          const text = doc(seed, 3 + (seed % 9), () => seps[Math.floor(r() * seps.length)]!);
          const { passages, offsets } = segmentDocumentLocated(text, split, o);
          const squeeze = (s: string) => s.replace(/\s+/g, " ");
          passages.forEach((p, k) => {
            const got = slice(text, offsets[2 * k]!, offsets[2 * k + 1]!);
            expect(squeeze(got)).toBe(squeeze(p));
            // It starts and ends with the passage's own characters (iKAT's newlines are spaces).
            const flat = o.flattenNewlines ? got.replace(/[\r\n]/g, " ") : got;
            expect(flat[0]).toBe(p[0]);
            expect(Array.from(flat).at(-1)).toBe(Array.from(p).at(-1));
          });
        }
      });
    }

  it("offsets count code points past the cut text's end and a stripped start", () => {
    const text = `\u3000 ${"😀 ".repeat(3)}End.`;
    const { passages, offsets } = segmentDocumentLocated(text, heuristicSplitter, IKAT);
    expect(passages).toEqual(["😀 😀 😀 End."]);
    // After 2 stripped code points; 12 code points in, where UTF-16 units would say 15.
    expect(offsets).toEqual([2, 12]);
    expect(text.length).toBe(15);
  });

  it("empty text: no passages, no offsets", () => {
    expect(segmentDocumentLocated(" \n ", heuristicSplitter, MSMARCO)).toEqual({ passages: [], offsets: [] });
  });
});

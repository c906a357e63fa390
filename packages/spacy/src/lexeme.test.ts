import { rng } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { wordShape } from "./lexeme.js";

const ALPHA = /\p{L}/u;
const UPPER = /\p{Uppercase}/u;
const DECIMAL = /\p{Nd}/u;
const DIGIT_NOT_DECIMAL =
  /[\u00b2\u00b3\u00b9\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u{1f100}-\u{1f10a}]/u;

/** spaCy's `word_shape` written plainly (one string per code point): the reference of the fast one. */
function wordShapeReference(text: string): string {
  const chars = [...text];
  if (chars.length >= 100) return "LONG";
  let shape = "";
  let last = "";
  let seq = 0;
  for (const c of chars) {
    const s = ALPHA.test(c)
      ? UPPER.test(c)
        ? "X"
        : "x"
      : DECIMAL.test(c) || DIGIT_NOT_DECIMAL.test(c)
        ? "d"
        : c;
    if (s === last) seq++;
    else {
      seq = 0;
      last = s;
    }
    if (seq < 4) shape += s;
  }
  return shape;
}

/** Characters of every kind the shape tells apart, astral and lone surrogates among them. */
const ALPHABET = [
  ..."aZ9._-xXd'",
  "é",
  "Ж",
  "ß",
  "²",
  "①",
  "٣",
  "中",
  "€",
  "\u{1d400}",
  "\u{1d41a}",
  "\u{1f600}",
  "\u{1f601}",
  "\u{1f101}",
  "\ud800",
  "\udc00",
];

describe("wordShape", () => {
  it("equals the plain reference on seeded random texts (runs, astral letters, lone surrogates, LONG)", () => {
    const r = rng(20261126);
    const bad: string[] = [];
    for (let i = 0; i < 20_000; i++) {
      const n = Math.floor(r() * r() * 120);
      let text = "";
      for (let k = 0; k < n; k++) {
        // Runs of one character, to reach the cut after four.
        const c = ALPHABET[Math.floor(r() * ALPHABET.length)]!;
        text += c.repeat(1 + Math.floor(r() * r() * 7));
      }
      if (wordShape(text) !== wordShapeReference(text)) bad.push(JSON.stringify(text));
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it("gives spaCy's shapes", () => {
    expect(wordShape("Apple")).toBe("Xxxxx");
    expect(wordShape("2024-11-26")).toBe("dddd-dd-dd");
    expect(wordShape("aaaaaaa")).toBe("xxxx");
    expect(wordShape("!!!!!!")).toBe("!!!!");
    expect(wordShape("x".repeat(100))).toBe("LONG");
    expect(wordShape("")).toBe("");
  });
});

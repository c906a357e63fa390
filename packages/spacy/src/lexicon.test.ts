import { describe, expect, it } from "vitest";
import { Lexicon } from "./lexicon.js";

describe("Lexicon", () => {
  it("gives a text one entry however it is looked up (whole or as a range of the text pushed as a token), in order of first sight", () => {
    const lexicon = new Lexicon();
    lexicon.kernel.loadText("the cat, the hat");
    lexicon.pushRange(0, 3);
    lexicon.pushRange(4, 7);
    expect(lexicon.get("the")).toBe(0);
    lexicon.pushRange(9, 12);
    const tokens = lexicon.kernel.tokens();
    expect(Array.from(tokens.lex.subarray(0, tokens.length))).toEqual([0, 1, 0]);
    expect(Array.from(tokens.start.subarray(0, tokens.length))).toEqual([0, 4, 9]);
    expect(lexicon.entries[1]).toEqual({ orth: "cat", norm: undefined });
    expect(lexicon.lengths[1]).toBe(3);
  });

  it("keeps its entries apart past many growths, and starts afresh on clear", () => {
    const lexicon = new Lexicon();
    const words = Array.from({ length: 20_000 }, (_, i) => `word-${i}-${"x".repeat(i % 17)}`);
    const ids = words.map((w) => lexicon.get(w));
    expect(ids).toEqual(words.map((_, i) => i));
    expect(
      words.every((w, i) => {
        lexicon.kernel.loadText(` ${w} `);
        lexicon.pushRange(1, w.length + 1);
        return lexicon.kernel.tokens().lex[0] === i;
      }),
    ).toBe(true);
    expect(lexicon.entries.map((e) => e.orth)).toEqual(words);
    lexicon.clear();
    expect(lexicon.size).toBe(0);
    expect(lexicon.get(words[5]!)).toBe(0);
  });

  it("gives a special case's NORM an entry of its own", () => {
    const lexicon = new Lexicon();
    const plain = lexicon.get("gonna");
    const special = lexicon.getSpecial({ orth: "gonna", norm: "going to" });
    expect(special).not.toBe(plain);
    expect(lexicon.getSpecial({ orth: "gonna", norm: "going to" })).toBe(special);
    expect(lexicon.getSpecial({ orth: "gonna", norm: undefined })).toBe(plain);
  });
});

import { readFileSync } from "node:fs";
import { requires, shared } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { porterStemUncached } from "./porter.js";
import { ENGLISH_STOPWORDS } from "./stopwords.js";
import { wordTokenize } from "./tokenize.js";

requires("shared").describe("NLTK 3.8 goldens (shared)", () => {
  it("PorterStemmer: every one of the 10,449 words", () => {
    const rows = readFileSync(shared("golden", "nltk", "porter_stems.tsv"), "utf8")
      .split("\n")
      .filter(Boolean)
      .slice(1);
    expect(rows.length).toBe(10449);
    const bad = rows
      .map((l) => l.split("\t") as [string, string])
      .filter(([w, s]) => porterStemUncached(w) !== s);
    expect(bad).toEqual([]);
  });

  it("word_tokenize(preserve_line=True): every one of the 9,712 texts", () => {
    const rows = readFileSync(shared("golden", "nltk", "word_tokenize.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { text: string; tokens: string[] });
    expect(rows.length).toBe(9712);
    const bad = rows
      .filter((r) => JSON.stringify(wordTokenize(r.text)) !== JSON.stringify(r.tokens))
      .map((r) => r.text);
    expect(bad).toEqual([]);
  });

  it("the 179-word English stopword list", () => {
    const words = readFileSync(shared("golden", "nltk", "english_stopwords.txt"), "utf8")
      .split("\n")
      .filter(Boolean);
    expect(words.length).toBe(179);
    expect([...ENGLISH_STOPWORDS]).toEqual(words);
  });
});

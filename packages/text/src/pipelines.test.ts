import { describe, expect, it } from "vitest";
import { clariqTerms, QulacVocabulary, qulacTerms } from "./pipelines.js";
import { porterStem } from "./porter.js";
import { ENGLISH_STOPWORDS } from "./stopwords.js";
import { wordTokenize } from "./tokenize.js";

const TEXTS = [
  "The Running dogs' 3 cats!",
  "Are you looking for a specific web page? yes, the one about Rome",
  'I don\'t know -- 42 hotels in N.Y.C. (maybe) "cheap" ones',
  "Ünïcode Café naïve 😀 résumé's",
];

describe("the text pipelines", () => {
  it("Qulac: lowercase → tokenize → tokens with a letter → stem → drop stopwords (the same twice: cached)", () => {
    expect(qulacTerms(TEXTS[0]!)).toEqual(["run", "dog", "cat"]);
    for (let round = 0; round < 2; round++)
      for (const t of TEXTS) {
        const reference = wordTokenize(t.toLowerCase())
          .filter((x) => /\p{L}/u.test(x))
          .map((x) => porterStem(x))
          .filter((x) => !ENGLISH_STOPWORDS.has(x));
        expect(qulacTerms(t)).toEqual(reference);
      }
  });
  it("ClariQ: tokenize → drop stopwords case-sensitively → stem", () => {
    for (const t of TEXTS)
      expect(clariqTerms(t)).toEqual(
        wordTokenize(t)
          .filter((x) => !ENGLISH_STOPWORDS.has(x))
          .map((x) => porterStem(x)),
      );
    expect(clariqTerms("The dogs")).toEqual(["the", "dog"]);
  });
});

describe("wordTokenize: whitespace and final periods", () => {
  it("splits on Python's str.isspace() set exactly (\\x1c-\\x1f, \\x85, \\u3000 split; \\ufeff does not)", () => {
    expect(wordTokenize("\x1ca\x1fb\x85c\u3000d\u2028e\ufefff\u200bg")).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e\ufefff\u200bg",
    ]);
  });

  it("a final period is split off behind closing brackets and quotes and trailing whitespace, an inner one is not", () => {
    expect(wordTokenize("Go to N.Y. now.")).toEqual(["Go", "to", "N.Y.", "now", "."]);
    expect(wordTokenize("He left.)  \n")).toEqual(["He", "left", ".", ")"]);
    expect(wordTokenize("Done..")).toEqual(["Done", ".."]);
    expect(wordTokenize("😀.")).toEqual(["😀", "."]);
  });
});

describe("QulacVocabulary", () => {
  it("term numbers that spell qulacTerms, numbered in order of first appearance across texts", () => {
    const v = new QulacVocabulary();
    const seen: string[] = [];
    for (const t of [...TEXTS, ...TEXTS]) {
      const ids = v.termIds(t);
      expect([...ids].map((i) => v.terms[i])).toEqual(qulacTerms(t));
      for (const term of qulacTerms(t)) if (!seen.includes(term)) seen.push(term);
    }
    expect(v.terms).toEqual(seen);
  });
});

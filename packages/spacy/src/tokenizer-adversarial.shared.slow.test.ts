// The adversarial inputs (testdata/adversarial.ts: punctuation runs, one long token, URL-like,
// numeric and emoji runs, seeded mixes) through CPython's spaCy at test time and through
// SpacyTokenizer: the same tokens and trailing spaces. Sizes are moderate: spaCy's own tokenizer
// is quadratic on several of them. Runs where `python3 -c 'import spacy'` works.
import { python, requires, rng, spacyModel } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { loadPipelineFolder } from "./folder.js";
import { adversarialInputs, adversarialMix } from "./testdata/adversarial.js";
import { SpacyTokenizer } from "./tokenizer.js";

/** Reads JSON texts, one a line; writes spaCy's tokens and trailing spaces of each. */
const PY = `
import json, sys
import spacy
nlp = spacy.load(sys.argv[1], exclude=["parser", "tagger", "ner", "attribute_ruler", "lemmatizer", "tok2vec", "senter"])
for line in sys.stdin:
    doc = nlp.make_doc(json.loads(line))
    print(json.dumps({"tokens": [t.text for t in doc], "ws": "".join("1" if t.whitespace_ else "0" for t in doc)}))
`;

requires("shared", "spacy").describe(
  "adversarial texts against spaCy itself (shared model; needs spaCy)",
  () => {
    it("tokens and trailing spaces equal spaCy's on every adversarial input and seeded mix", () => {
      const texts: [string, string][] = [];
      for (const n of [1, 2, 3, 7, 64, 65, 1500])
        for (const [name, text] of Object.entries(adversarialInputs(n, rng)))
          texts.push([`${name} ×${n}`, text]);
      const r = rng(0xad5e);
      for (let k = 0; k < 24; k++) texts.push([`mix ${k}`, adversarialMix(r, k < 12 ? 300 : 1500)]);
      // Each text twice, so that the second goes through what the first left in the chunk cache.
      const all = [...texts, ...texts];
      const want = python(PY, `${all.map(([, t]) => JSON.stringify(t)).join("\n")}\n`, [spacyModel()])
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { tokens: string[]; ws: string });
      expect(want.length).toBe(all.length);
      const tokenizer = new SpacyTokenizer(loadPipelineFolder(spacyModel()).tokenizer, "tokenizer");
      const bad: string[] = [];
      all.forEach(([name, text], i) => {
        const doc = tokenizer.tokenize(text);
        const got = {
          tokens: tokenizer.texts(doc),
          ws: Array.from(doc.spacy.subarray(0, doc.length)).join(""),
        };
        if (JSON.stringify(got) !== JSON.stringify(want[i])) bad.push(name);
      });
      expect(bad).toEqual([]);
    });
  },
);

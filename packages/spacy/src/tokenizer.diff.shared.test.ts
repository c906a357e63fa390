// Differential test with en_core_web_sm 3.8.0's real tokenizer rules (shared): SpacyTokenizer's fast
// paths against ReferenceTokenizer, the plain port of spaCy's Tokenizer.__call__, on seeded random
// texts and the project's seed documents (whole, by paragraph, by line), caches default and tiny.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { requires, rng, shared, spacyModel } from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";
import { loadPipelineFolder, type TokenizerRules } from "./folder.js";
import { adversarialInputs, adversarialMix } from "./testdata/adversarial.js";
import { mismatchesAcrossCaches, randomText, tokenStrings } from "./testdata/tokenizer-cases.js";
import { ReferenceTokenizer } from "./tokenizer.reference.js";

requires("shared").describe(
  "SpacyTokenizer against the plain reference (en_core_web_sm 3.8.0's rules)",
  () => {
    let rules: TokenizerRules;
    let reference: ReferenceTokenizer;
    beforeAll(() => {
      rules = loadPipelineFolder(spacyModel()).tokenizer;
      reference = new ReferenceTokenizer(rules);
    });

    /** Every text through tokenizers with the default cache and with tiny generations, twice, shuffled, renewed. */
    function check(texts: string[], seed: number): void {
      const r = rng(seed);
      const want = texts.map((t) => tokenStrings(reference.tokenize(t)));
      const specials = rules.exceptions.length;
      const bad = mismatchesAcrossCaches(rules, texts, want, [undefined, specials + 16, specials + 256], r);
      expect(bad.length, bad.slice(0, 3).join("\n")).toBe(0);
    }

    it("random texts", () => {
      const r = rng(0x5eed);
      check(
        Array.from({ length: 2000 }, (_, i) => randomText(r, i % 100 === 0 ? 600 : 24)),
        1,
      );
    });

    it("adversarial inputs: punctuation runs, long tokens, URL-like and emoji runs, seeded mixes", () => {
      const r = rng(0xad5e);
      check(
        [
          ...[1, 2, 3, 63, 64, 65, 400].flatMap((n) => Object.values(adversarialInputs(n, rng))),
          ...Array.from({ length: 40 }, () => adversarialMix(r, 400)),
        ],
        3,
      );
    });

    it("the seed documents: whole, by paragraph, by line", () => {
      const dir = shared("seeds");
      const docs = readdirSync(dir)
        .sort()
        .map((f) => readFileSync(join(dir, f), "utf8"));
      expect(docs.length).toBeGreaterThan(0);
      check([...docs, ...docs.flatMap((d) => d.split(/\n\n+/)), ...docs.flatMap((d) => d.split("\n"))], 2);
    });
  },
);

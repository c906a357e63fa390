// spaCy 3.8.16's tokens and senter decisions on the 16,489 golden texts (shared), and its
// intermediate values (feature ids, norms, shapes, P(S)) on the 400 debug texts.

import { python, readSpacyGoldens, requires, type SpacyGolden, spacyModel } from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";
import { loadPipelineFolder } from "./folder.js";
import { u64ToString } from "./hashing.js";
import { attributeIds, lexemeNormOf, lexemeStrings } from "./lexeme.js";
import { LoneSurrogateError, SpacyPipeline } from "./pipeline.js";
import { Senter, type SenterOptions } from "./senter.js";
import { SpacyTokenizer } from "./tokenizer.js";

interface Debug {
  id: string;
  tokens: string[];
  norm: string[];
  shape: string[];
  attrs: string[][];
  p_s: number[];
}

// Read from ../shared before the tests (not while the file is collected: without shared/ they are skipped).
let MODEL: string;
let GOLDEN: SpacyGolden[];
let DEBUG: Debug[];

/** The model's tokenizer and a senter built with `options`. */
function parts(options: SenterOptions) {
  const data = loadPipelineFolder(MODEL);
  const tokenizer = new SpacyTokenizer(data.tokenizer, "tokenizer");
  return { data, tokenizer, senter: new Senter(data.senter, tokenizer.lexicon, data.lexemeNorm, options) };
}

requires("shared").describe("spaCy's senter pipeline against spaCy 3.8.16 (shared goldens)", () => {
  let pipeline: SpacyPipeline;
  beforeAll(() => {
    MODEL = spacyModel();
    GOLDEN = readSpacyGoldens();
    DEBUG = readSpacyGoldens<Debug>("senter_debug.jsonl.gz");
    pipeline = SpacyPipeline.load(MODEL);
  });

  it("reads the model folder's name and rules", () => {
    expect(pipeline.name).toBe("en_core_web_sm-3.8.0");
    const data = loadPipelineFolder(MODEL);
    expect(data.tokenizer.exceptions.length).toBe(1347);
    expect(data.lexemeNorm.size).toBe(3510);
    expect(data.senter.width).toBe(16);
    expect(data.senter.embeddings.map((e) => [e.attr, e.rows, e.seed])).toEqual([
      ["NORM", 1000, 8],
      ["PREFIX", 500, 9],
      ["SUFFIX", 500, 10],
      ["SHAPE", 500, 11],
      ["SPACY", 50, 12],
    ]);
  });

  it("tokens and trailing spaces: all 16,489 texts exactly", () => {
    expect(GOLDEN.length).toBe(16_489);
    const bad: string[] = [];
    for (const g of GOLDEN) {
      const d = pipeline.doc(g.text);
      if (JSON.stringify(d.tokens) !== JSON.stringify(g.tokens) || d.ws !== g.ws) bad.push(g.id);
      // Offsets point at the token texts.
      for (let i = 0; i < d.tokens.length; i++)
        if (g.text.slice(d.starts[i], d.starts[i]! + d.tokens[i]!.length) !== d.tokens[i])
          bad.push(`${g.id}@${i}`);
    }
    expect(bad).toEqual([]);
  });

  it("sentence starts and sentence texts: all 16,489 texts exactly, near ties included", () => {
    const bad: string[] = [];
    let near = 0;
    for (const g of GOLDEN) {
      near += g.near.length;
      const d = pipeline.doc(g.text);
      if (d.sent !== g.sent || JSON.stringify(d.sentences) !== JSON.stringify(g.sentences)) bad.push(g.id);
      expect(pipeline.sentences(g.text)).toEqual(d.sentences);
    }
    expect(near).toBe(73);
    expect(bad).toEqual([]);
  });

  it("a pipeline with the smallest caches (a share for many threads) gives the same sentences", () => {
    // 16,384 entries a cache: over the 16,489 texts the senter makes room and the tokenizer starts
    // afresh again and again, between texts of every kind.
    const small = SpacyPipeline.load(MODEL, { cacheShare: 1 / 64 });
    const bad = GOLDEN.filter((g) => JSON.stringify(small.sentences(g.text)) !== JSON.stringify(g.sentences));
    expect(bad.map((g) => g.id)).toEqual([]);
  });

  it("long texts in blocks (here of 7 tokens, with their neighbours) give the same decisions", () => {
    const { tokenizer, senter } = parts({ blockTokens: 7 });
    const bad = GOLDEN.filter((_g, i) => i % 3 === 0).filter(
      (g) => Array.from(senter.predict(tokenizer.tokenize(g.text))).join("") !== g.sent,
    );
    expect(bad.map((g) => g.id)).toEqual([]);
  });

  it("the plain-JavaScript senter (no SIMD) gives the same decisions", () => {
    const { tokenizer, senter } = parts({ simd: false });
    const bad = GOLDEN.filter((_g, i) => i % 4 === 0).filter(
      (g) => Array.from(senter.predict(tokenizer.tokenize(g.text))).join("") !== g.sent,
    );
    expect(bad.map((g) => g.id)).toEqual([]);
  });

  it("feature ids, norms and shapes of the 400 debug texts as doc.to_array gives them; S scores to 1e-4", () => {
    const { data, tokenizer, senter } = parts({ simd: false });
    const byId = new Map(GOLDEN.map((g) => [g.id, g]));
    expect(DEBUG.length).toBe(400);
    const bad: string[] = [];
    let worst = 0;
    for (const r of DEBUG) {
      const t = tokenizer.tokenize(byId.get(r.id)!.text);
      const scores = new Float64Array(2 * t.length);
      senter.predict(t, scores);
      for (let i = 0; i < t.length; i++) {
        const e = tokenizer.lexicon.entries[t.lex[i]!]!;
        const s = lexemeStrings(e.orth, e.norm ?? lexemeNormOf(e.orth, data.lexemeNorm));
        const ids = attributeIds(s);
        const got = [ids.NORM, ids.PREFIX, ids.SUFFIX, ids.SHAPE].map(u64ToString).concat(String(t.spacy[i]));
        if (
          s.norm !== r.norm[i] ||
          s.shape !== r.shape[i] ||
          JSON.stringify(got) !== JSON.stringify(r.attrs[i])
        )
          bad.push(`${r.id}@${i}`);
        worst = Math.max(worst, Math.abs(scores[2 * i + 1]! - r.p_s[i]!) / Math.max(1, Math.abs(r.p_s[i]!)));
      }
    }
    expect(bad).toEqual([]);
    expect(worst).toBeLessThan(1e-4);
  });

  it("a text with a lone surrogate is refused, as spaCy raises UnicodeEncodeError on it (spaCy 3.8.16)", () => {
    // Each text, from JSON with "\ud800"-style escapes, raises in nlp(text) and nlp.make_doc(text).
    for (const [json, offset] of [
      ['"ab \\ud800 cd. Next one."', 3],
      ['"ab\\ud800cd"', 2],
      ['"x \\udc00"', 2],
      ['"\\ud83d\\ude00 ok \\ud800\\ud800"', 6],
      ['"Hello there.  \\udfff"', 14],
    ] as const) {
      const text = JSON.parse(json) as string;
      for (const run of [
        () => pipeline.doc(text),
        () => pipeline.sentences(text),
        () => pipeline.sentenceStarts(text),
        () => pipeline.tokenize(text),
      ]) {
        expect(run, json).toThrow(LoneSurrogateError);
        expect(run, json).toThrow(
          `lone surrogate \\u${text.charCodeAt(offset).toString(16)} at UTF-16 offset ${offset},`,
        );
      }
    }
    // A surrogate pair is one character; the pipeline goes on after a refused text.
    expect(pipeline.doc(JSON.parse('"\\ud83d\\ude00 ok."') as string).tokens).toEqual(["😀", "ok", "."]);
  });
});

requires("shared", "spacy").it(
  "spaCy itself raises UnicodeEncodeError on a text with a lone surrogate",
  () => {
    const py = `
import json, sys, spacy
nlp = spacy.load(sys.argv[1], exclude=["parser", "tagger", "ner", "attribute_ruler", "lemmatizer", "tok2vec"])
nlp.enable_pipe("senter")
out = []
for t in ["ab \\\\ud800 cd. Next one.", "x \\\\udc00", "\\\\ud83d\\\\ude00 ok."]:
    try:
        out.append([s.text for s in nlp(json.loads('"' + t + '"')).sents])
    except UnicodeEncodeError as e:
        out.append(e.reason)
print(json.dumps(out))
`;
    expect(JSON.parse(python(py, undefined, [spacyModel()]))).toEqual([
      "surrogates not allowed",
      "surrogates not allowed",
      ["😀 ok."],
    ]);
  },
);

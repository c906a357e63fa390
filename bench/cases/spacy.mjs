// Bench case: convkit's spaCy port (@convkit/spacy) on the prepared texts of a segment corpus, in
// this process and thread, as bench/py/spacy_senter.py runs spaCy: the texts read, prepared (the
// iKAT preset's cut) and the model loaded outside the timed section; then the tokenizer alone, or
// tokenizer + senter with the sentence texts.
// usage: spacy.mjs WORK MB tokenizer|senter MODEL_DIR
import { readFileSync } from "node:fs";
import { prepareText } from "@convkit/segment";
import { SpacyPipeline } from "@convkit/spacy";
import { corpusPaths } from "../gen-web-corpus.mjs";
import { report } from "./report.mjs";

const [work, mb, mode, model] = process.argv.slice(2);
if (mode !== "tokenizer" && mode !== "senter")
  throw new Error(`mode must be tokenizer or senter, not ${mode}`);
const { input } = corpusPaths(work, mb);
const raw = readFileSync(input);
const texts = [];
for (const line of raw.toString("utf8").split("\n")) {
  if (!line.trim()) continue;
  const t = prepareText(JSON.parse(line)["Clean-Text"]);
  if (t) texts.push(t);
}
const segmentedBytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
const pipeline = SpacyPipeline.load(model);
const t0 = performance.now();
let units = 0;
if (mode === "tokenizer") for (const t of texts) units += pipeline.tokenize(t).length;
else for (const t of texts) units += pipeline.sentences(t).length;
const seconds = (performance.now() - t0) / 1000;
report({
  records: texts.length,
  bytes: raw.length,
  segmentedBytes,
  [mode === "tokenizer" ? "tokens" : "sentences"]: units,
  seconds,
});

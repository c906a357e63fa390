// Bench case: convkit's spaCy port (@convkit/spacy) on a real-text corpus's prepared texts
// (real-MB.texts.jsonl, bench/gen-real-corpus.mjs), in this process and thread, as
// bench/py/spacy_senter.py runs spaCy: the texts read and the model loaded outside the timed
// section; then the tokenizer alone, or tokenizer + senter with the sentence texts. Wall and CPU
// seconds (user+sys, process.cpuUsage) of the timed section.
// usage: spacy.mjs WORK MB tokenizer|senter MODEL_DIR
import { readFileSync } from "node:fs";
import { SpacyPipeline } from "@convkit/spacy";
import { readRealTextsMeta, realTextsPaths } from "../gen-real-corpus.mjs";
import { report } from "./report.mjs";

const [work, mb, mode, model] = process.argv.slice(2);
if (mode !== "tokenizer" && mode !== "senter")
  throw new Error(`mode must be tokenizer or senter, not ${mode}`);
const meta = readRealTextsMeta(work, mb);
if (!meta) throw new Error(`no texts for ${mb} MB in ${work}: run \`segment.mjs ${work} gen ${mb}\` first`);
const texts = [];
for (const line of readFileSync(realTextsPaths(work, mb).texts, "utf8").split("\n"))
  if (line) texts.push(JSON.parse(line).text);
const pipeline = SpacyPipeline.load(model);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let units = 0;
if (mode === "tokenizer") for (const t of texts) units += pipeline.tokenize(t).length;
else for (const t of texts) units += pipeline.sentences(t).length;
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
report({
  records: texts.length,
  textBytes: meta.textBytes,
  [mode === "tokenizer" ? "tokens" : "sentences"]: units,
  seconds,
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
});

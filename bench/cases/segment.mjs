// Bench case: the segment job on the real-text corpus (bench/gen-real-corpus.mjs: SpamAssassin mail
// bodies, State of the Union addresses, Moby-Dick, iKAT documents; every paragraph once, records of
// at most 10,000 code points), ClueWeb22 records as JSONL, into iKAT passages (JSONL + hash TSV)
// with the heuristic splitter or spaCy's senter. Prints docs, passages, input bytes, bytes of the
// prepared texts, wall seconds and CPU seconds (user+sys of the whole process, the pool's workers
// included) of the job.
// `segment.mjs WORK gen MB` writes the corpus and its texts file (when missing or of an older version);
// `segment.mjs WORK THREADS MB [SPLITTER]` runs the job once.
import { mkdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runSegmentation } from "@convkit/segment";
import {
  generateRealCorpus,
  readRealCorpusMeta,
  readRealTextsMeta,
  realCorpusPaths,
  writeRealTexts,
} from "../gen-real-corpus.mjs";
import { report } from "./report.mjs";

const [work, threads, mb, splitter = "heuristic"] = process.argv.slice(2);
mkdirSync(work, { recursive: true });
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const shared = resolve(root, process.env.CONVKIT_SHARED ?? "../shared");
const { input } = realCorpusPaths(work, mb);

if (threads === "gen") {
  // Generation in a process of its own, so that no timed run carries its memory.
  const corpus = readRealCorpusMeta(work, mb) ?? generateRealCorpus(shared, work, mb);
  const texts = readRealTextsMeta(work, mb) ?? writeRealTexts(work, mb);
  process.stdout.write(`${JSON.stringify({ corpus, texts })}\n`);
} else {
  const texts = readRealTextsMeta(work, mb);
  if (!texts) throw new Error(`${input}: run \`segment.mjs ${work} gen ${mb}\` first`);
  const outDir = join(work, `out-${threads}-${mb}-${splitter}`);
  rmSync(outDir, { recursive: true, force: true });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await runSegmentation({
    inputs: [input],
    out: outDir,
    formats: ["jsonl", "hashes"],
    preset: "ikat",
    splitter,
    // The spacy splitter runs the shared model folder (en_core_web_sm 3.8.0).
    spacyModel: splitter === "spacy" ? join(shared, "models", "en_core_web_sm-3.8.0") : undefined,
    threads: Number(threads),
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  rmSync(outDir, { recursive: true, force: true });
  report({
    records: r.docs,
    passages: r.passages,
    bytes: statSync(input).size,
    textBytes: texts.textBytes,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  });
}

// Bench case: segmenting ClueWeb22 records of real web text (bench/gen-web-corpus.mjs: rebuilt iKAT
// documents, seed paragraphs, ClariQ/Qulac texts; mostly a few KB, 1% of 100 KB-1 MB) into iKAT
// passages (JSONL + hash TSV), by default with the heuristic splitter. Prints docs, input bytes,
// bytes of text segmented (what the chunker keeps of each document, measured at generation), time.
// `segment.mjs WORK gen MB` writes the input; `segment.mjs WORK THREADS MB [TAG [SPLITTER]]` runs once;
// `segment.mjs WORK pair MB` runs two 1-thread processes at the same time (each its own output):
// the most two cores give to two independent runs, with no pool between them.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runSegmentation } from "@convkit/segment";
import { corpusPaths, generateWebCorpus, readCorpusMeta } from "../gen-web-corpus.mjs";
import { report } from "./report.mjs";

const [work, threads, mb, tag = "", splitter = "heuristic"] = process.argv.slice(2);
mkdirSync(work, { recursive: true });
const { input } = corpusPaths(work, mb);
const meta = readCorpusMeta(work, mb);

if (threads === "gen") {
  // Generation in a process of its own, so that no timed run carries its memory.
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const shared = resolve(root, process.env.CONVKIT_SHARED ?? "../shared");
  if (!meta) process.stdout.write(`${JSON.stringify(await generateWebCorpus(shared, work, mb))}\n`);
} else if (!meta) {
  throw new Error(`${input}: run \`segment.mjs ${work} gen ${mb}\` first`);
} else if (threads === "pair") {
  // Two independent 1-thread runs at once: what the machine's cores give without any pool.
  const self = fileURLToPath(import.meta.url);
  const one = (t) =>
    new Promise((res, rej) => {
      const c = spawn(process.execPath, [self, work, "1", mb, t, splitter], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      let out = "";
      c.stdout.on("data", (d) => {
        out += d;
      });
      c.on("close", (code) => (code === 0 ? res(JSON.parse(out.trim())) : rej(new Error(`exit ${code}`))));
    });
  // Both start together: the longer of their timed sections is the time the pair took.
  const [a, b] = await Promise.all([one("a"), one("b")]);
  process.stdout.write(
    `${JSON.stringify({
      records: a.records + b.records,
      passages: a.passages + b.passages,
      bytes: a.bytes + b.bytes,
      segmentedBytes: a.segmentedBytes + b.segmentedBytes,
      seconds: Math.max(a.seconds, b.seconds),
      maxRssMiB: Math.max(a.maxRssMiB, b.maxRssMiB),
    })}\n`,
  );
} else {
  const outDir = join(work, `out-${threads}-${mb}${tag}`);
  rmSync(outDir, { recursive: true, force: true });
  const t0 = performance.now();
  const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
  const shared = resolve(root, process.env.CONVKIT_SHARED ?? "../shared");
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
  rmSync(outDir, { recursive: true, force: true });
  report({
    records: r.docs,
    passages: r.passages,
    bytes: statSync(input).size,
    segmentedBytes: meta.segmentedBytes,
    seconds,
  });
}

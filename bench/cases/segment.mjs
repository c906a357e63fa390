// Bench case: the segment job on the real-text corpus (bench/gen-real-corpus.mjs: SpamAssassin mail
// bodies, State of the Union addresses, Moby-Dick, iKAT documents; every paragraph once, records of
// at most 10,000 code points), ClueWeb22 records as JSONL, into iKAT passages (JSONL + hash TSV)
// with the heuristic splitter or spaCy's senter. Prints docs, passages, input bytes, bytes of the
// prepared texts, wall seconds and CPU seconds (user+sys of the whole process, the pool's workers
// included) of the job.
// `segment.mjs WORK gen MB` writes the corpus and its texts file (when missing or of an older version),
// and the corpus's two halves (every other record); `segment.mjs WORK THREADS MB [SPLITTER]` runs the
// job once; `segment.mjs WORK pair MB [SPLITTER]` runs two 1-thread jobs at once, as two processes,
// one on each half: what two cores give when nothing is shared, the ceiling of a 2-thread run here.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
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
/** The pair's inputs: `half0` and `half1`, every other record of the corpus. */
const halfPath = (half) => join(work, `real-${mb}mb.${half}.jsonl`);

if (threads === "gen") {
  // Generation in a process of its own, so that no timed run carries its memory.
  const corpus = readRealCorpusMeta(work, mb) ?? generateRealCorpus(shared, work, mb);
  const texts = readRealTextsMeta(work, mb) ?? writeRealTexts(work, mb);
  // Written each time (the corpus above may be new): a second, against the minutes the bench takes.
  const lines = readFileSync(input, "utf8").split("\n").filter(Boolean);
  for (const k of [0, 1])
    writeFileSync(halfPath(`half${k}`), `${lines.filter((_, i) => i % 2 === k).join("\n")}\n`);
  process.stdout.write(`${JSON.stringify({ corpus, texts })}\n`);
} else if (threads === "pair") {
  const texts = readRealTextsMeta(work, mb);
  if (!texts || !existsSync(halfPath("half1")))
    throw new Error(`${input}: run \`segment.mjs ${work} gen ${mb}\` first`);
  const runs = await Promise.all(
    [0, 1].map(
      (k) =>
        new Promise((done, fail) => {
          const args = [fileURLToPath(import.meta.url), work, `half${k}`, mb, splitter];
          const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
          let out = "";
          child.stdout.on("data", (b) => {
            out += b;
          });
          child.on("close", (code) =>
            code === 0 ? done(JSON.parse(out.trim())) : fail(new Error(`half ${k}: exit ${code}`)),
          );
        }),
    ),
  );
  report({
    records: runs[0].records + runs[1].records,
    passages: runs[0].passages + runs[1].passages,
    bytes: statSync(input).size,
    textBytes: texts.textBytes,
    // Both started together: the pair's time is the slower one's, its CPU and memory both's.
    seconds: Math.max(runs[0].seconds, runs[1].seconds),
    cpuSeconds: runs[0].cpuSeconds + runs[1].cpuSeconds,
    maxRssMiB: runs[0].maxRssMiB + runs[1].maxRssMiB,
  });
} else {
  const texts = readRealTextsMeta(work, mb);
  if (!texts) throw new Error(`${input}: run \`segment.mjs ${work} gen ${mb}\` first`);
  // `halfK`: a pair's process, one thread on its half of the records.
  const half = /^half[01]$/.test(threads) ? halfPath(threads) : undefined;
  const outDir = join(work, `out-${threads}-${mb}-${splitter}`);
  rmSync(outDir, { recursive: true, force: true });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await runSegmentation({
    inputs: [half ?? input],
    out: outDir,
    formats: ["jsonl", "hashes"],
    preset: "ikat",
    splitter,
    // The spacy splitter runs the shared model folder (en_core_web_sm 3.8.0).
    spacyModel: splitter === "spacy" ? join(shared, "models", "en_core_web_sm-3.8.0") : undefined,
    threads: half ? 1 : Number(threads),
  });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  rmSync(outDir, { recursive: true, force: true });
  report({
    records: r.docs,
    passages: r.passages,
    bytes: statSync(half ?? input).size,
    textBytes: texts.textBytes,
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  });
}

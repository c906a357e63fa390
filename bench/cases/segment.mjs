// Bench case: segmenting generated ClueWeb22-like documents (median ~5 KB, a long tail to 1 MB)
// into iKAT passages (JSONL + hash TSV) with the default splitter. Prints docs, input bytes, time.
// `segment.mjs WORK gen MB` writes the input; `segment.mjs WORK THREADS MB` runs once;
// `segment.mjs WORK pair MB` runs two 1-thread processes at the same time (each its own output):
// the most two cores give to two independent runs, with no pool between them.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runSegmentation } from "@convkit/segment";
import { report } from "./report.mjs";

const [work, threads, mb, tag = ""] = process.argv.slice(2);
mkdirSync(work, { recursive: true });
const input = join(work, `docs-${mb}mb.json`);

/** Writes the input once (deterministic), streamed to disk: its size is not bounded by a string's. */
function generate() {
  let s = 99;
  const rnd = () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
  const words =
    "the of and to in is for on that with as are this by be from at or an was it which page site home search news price review city hotel music data".split(
      " ",
    );
  const sentence = () => {
    const n = 5 + Math.floor(rnd() * 20);
    let t = "";
    for (let i = 0; i < n; i++) t += (i ? " " : "") + words[Math.floor(rnd() * words.length)];
    return `${t[0].toUpperCase()}${t.slice(1)}${rnd() < 0.85 ? "." : rnd() < 0.5 ? "?" : ""}`;
  };
  const tmp = `${input}.tmp`;
  const fd = openSync(tmp, "w");
  let chunk = "";
  let bytes = 0;
  let n = 0;
  while (bytes < Number(mb) * 2 ** 20) {
    // Log-normal-ish lengths: median ~5 KB, 1% up to 1 MB.
    const len =
      rnd() < 0.01
        ? 100_000 + rnd() * 900_000
        : Math.exp(Math.log(5000) + (rnd() + rnd() + rnd() - 1.5) * 1.6);
    let text = "";
    while (text.length < len) text += `${sentence()}${rnd() < 0.15 ? "\n" : " "}`;
    const id = `clueweb22-en0000-${String(Math.floor(n / 10000)).padStart(2, "0")}-${String(n % 100000).padStart(5, "0")}`;
    const line = JSON.stringify({
      "ClueWeb22-ID": id,
      URL: `https://example.org/${n}\n`,
      "URL-hash": "0".repeat(32),
      Language: "en",
      "Clean-Text": text,
    });
    chunk += `${line}\n`;
    bytes += line.length + 1;
    n++;
    if (chunk.length > 1 << 24) {
      writeSync(fd, chunk);
      chunk = "";
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
  renameSync(tmp, input);
}

if (threads === "gen") {
  // Generation in a process of its own, so that no timed run carries its memory.
  if (!existsSync(input)) generate();
} else if (!existsSync(input)) {
  throw new Error(`${input}: run \`segment.mjs ${work} gen ${mb}\` first`);
} else if (threads === "pair") {
  // Two independent 1-thread runs at once: what the machine's cores give without any pool.
  const self = fileURLToPath(import.meta.url);
  const one = (t) =>
    new Promise((res, rej) => {
      const c = spawn(process.execPath, [self, work, "1", mb, t], { stdio: ["ignore", "pipe", "inherit"] });
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
      seconds: Math.max(a.seconds, b.seconds),
      maxRssMiB: Math.max(a.maxRssMiB, b.maxRssMiB),
    })}\n`,
  );
} else {
  const outDir = join(work, `out-${threads}-${mb}${tag}`);
  rmSync(outDir, { recursive: true, force: true });
  const t0 = performance.now();
  const r = await runSegmentation({
    inputs: [input],
    out: outDir,
    formats: ["jsonl", "hashes"],
    preset: "ikat",
    splitter: "heuristic",
    threads: Number(threads),
  });
  const seconds = (performance.now() - t0) / 1000;
  rmSync(outDir, { recursive: true, force: true });
  report({ records: r.docs, passages: r.passages, bytes: statSync(input).size, seconds });
}

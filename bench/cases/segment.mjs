// Bench case: segmenting generated ClueWeb22-like documents (median ~5 KB, a long tail to 1 MB)
// into iKAT passages (JSONL + hash TSV) with the default splitter. Prints docs, input bytes, time.
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runSegmentation } from "@convkit/segment";
import { report } from "./report.mjs";

const [work, threads, mb] = process.argv.slice(2);
mkdirSync(work, { recursive: true });
const input = join(work, `docs-${mb}mb.json`);
if (!existsSync(input)) {
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
  const out = [];
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
    out.push(line);
    bytes += line.length + 1;
    n++;
  }
  writeFileSync(input, `${out.join("\n")}\n`);
}
const outDir = join(work, `out-${threads}`);
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
report({
  records: r.docs,
  passages: r.passages,
  bytes: statSync(input).size,
  seconds: (performance.now() - t0) / 1000,
});

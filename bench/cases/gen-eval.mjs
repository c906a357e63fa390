// Bench case: gen:eval over real ClariQ dev contexts (one shard of topics) with generated documents,
// 1,000 per topic of ~800 terms, and graded facet qrels. Prints queries (contexts × candidates × 2).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateEvalDicts } from "@convkit/gen-eval";
import { report } from "./report.mjs";

const [data, qulac, work, threads, shard] = process.argv.slice(2);
mkdirSync(work, { recursive: true });
const dev = readFileSync(join(data, "dev.tsv"), "utf8")
  .trim()
  .split("\n")
  .slice(1)
  .map((l) => l.split("\t"));
let s = 12345;
const rnd = () => {
  s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
  return s / 2 ** 32;
};
if (!existsSync(join(work, "docs.jsonl"))) {
  // Vocabulary: the words of the ClariQ texts plus a Zipfian tail of made-up ones.
  const words = [
    ...new Set(
      dev.flatMap((r) => `${r[1]} ${r[5]} ${r[7]} ${r[8]}`.toLowerCase().split(/\W+/)).filter(Boolean),
    ),
  ];
  for (let i = 0; i < 20000; i++) words.push(`w${i.toString(36)}`);
  const word = () => words[Math.floor(words.length * rnd() ** 3)];
  const docs = [];
  const run = [];
  const qrels = [];
  const facets = new Map();
  for (const r of dev) {
    const f = facets.get(r[0]) ?? new Set();
    f.add(r[4]);
    facets.set(r[0], f);
  }
  for (const [t, fs] of facets) {
    for (let i = 0; i < 1000; i++) {
      const id = `bench-${t}-${String(i).padStart(4, "0")}`;
      const n = Math.round(300 + 1500 * rnd() ** 2); // mean ~800 terms, tail to 1,800
      const terms = Array.from({ length: n }, word);
      docs.push(JSON.stringify({ id, text: `${terms.join(" ")}.` }));
      run.push(`${t} Q0 ${id} ${i + 1} ${1000 - i} bench`);
      for (const f of fs) if (rnd() < 0.05) qrels.push(`${f} 0 ${id} ${Math.floor(rnd() * 5) - 1}`);
    }
  }
  writeFileSync(join(work, "docs.jsonl"), `${docs.join("\n")}\n`);
  writeFileSync(join(work, "docs.run"), `${run.join("\n")}\n`);
  writeFileSync(join(work, "dev.qrel"), `${qrels.join("\n")}\n`);
}
const t0 = performance.now();
const [i, n] = shard.split("/").map(Number);
const r = await generateEvalDicts({
  data,
  qulac,
  split: "dev",
  docs: join(work, "docs.run"),
  texts: [join(work, "docs.jsonl")],
  qrels: join(work, "dev.qrel"),
  ranking: { model: "ql" },
  out: join(work, `out-${threads}`),
  formats: ["pickle"],
  shard: [i, n],
  threads: Number(threads),
});
report({
  records: r.queries,
  contexts: r.contexts,
  topics: r.topics,
  seconds: (performance.now() - t0) / 1000,
});

// pnpm bench: runs every case against its reference peer, medians of repeated runs, into BENCHMARKS.md.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generateArgsMe } from "./gen-args-me.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SHARED = resolve(ROOT, process.env.CONVKIT_SHARED ?? "../shared");
const WORK = join(ROOT, "bench", ".work");
const ARGS_MB = Number(process.env.BENCH_ARGS_MB ?? 1024);
mkdirSync(WORK, { recursive: true });
const hasPython = spawnSync("python3", ["-c", "pass"]).status === 0;

function runOnce(cmd, args, quiet = false) {
  const r = spawnSync(cmd, args, { cwd: ROOT, maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr}`);
  return quiet ? undefined : JSON.parse(r.stdout.toString().trim().split("\n").at(-1));
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function measure(cmd, args, runs) {
  const rs = Array.from({ length: runs }, () => runOnce(cmd, args));
  return {
    ...rs[0],
    seconds: median(rs.map((r) => r.seconds)),
    maxRssMiB: median(rs.map((r) => r.maxRssMiB)),
    runs,
  };
}

const rows = [];
function row(job, impl, r, bytes, unit = "records") {
  rows.push({
    job,
    impl,
    n: r.records,
    unit,
    seconds: r.seconds,
    rate: r.records / r.seconds,
    mbps: bytes ? bytes / 2 ** 20 / r.seconds : undefined,
    rss: r.maxRssMiB,
    runs: r.runs,
  });
  process.stderr.write(
    `${job} | ${impl}: ${r.seconds.toFixed(3)} s, ${Math.round(r.records / r.seconds)} ${unit}/s, ${r.maxRssMiB.toFixed(0)} MiB\n`,
  );
}

const clariq = ["train.tsv", "dev.tsv", "test_with_labels.tsv"].map((f) => join(SHARED, "data", "clariq", f));
const clariqBytes = clariq.reduce((n, f) => n + statSync(f).size, 0);
row(
  "ClariQ TSVs (train+dev+test_with_labels)",
  "convkit",
  measure("node", ["bench/cases/clariq-tsv.mjs", ...clariq], 5),
  clariqBytes,
);
if (hasPython)
  row(
    "ClariQ TSVs (train+dev+test_with_labels)",
    "python3 csv",
    measure("python3", ["bench/py/clariq_tsv.py", ...clariq], 5),
    clariqBytes,
  );

const qulac = join(SHARED, "data", "qulac", "qulac.json");
row("qulac.json", "convkit", measure("node", ["bench/cases/qulac-json.mjs", qulac], 5), statSync(qulac).size);
if (hasPython)
  row(
    "qulac.json",
    "python3 json.load",
    measure("python3", ["bench/py/qulac_json.py", qulac], 5),
    statSync(qulac).size,
  );

const tgz = join(SHARED, "golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz");
const pkl = join(WORK, "multi_turn_dev_eval.pkl");
if (!existsSync(pkl)) execFileSync("tar", ["-xzf", tgz, "-C", WORK]);
row(
  "multi-turn eval dict .pkl (40 MB, protocol 3)",
  "convkit",
  measure("node", ["bench/cases/unpickle.mjs", pkl], 5),
  statSync(pkl).size,
  "values",
);
if (hasPython)
  row(
    "multi-turn eval dict .pkl (40 MB, protocol 3)",
    "CPython pickle.load",
    measure("python3", ["bench/py/unpickle.py", pkl], 5),
    statSync(pkl).size,
    "values",
  );
row(
  "multi-turn eval dict .pkl.tar.gz (gunzip+untar+unpickle)",
  "convkit",
  measure("node", ["bench/cases/unpickle.mjs", tgz], 5),
  statSync(pkl).size,
  "values",
);
if (hasPython)
  row(
    "multi-turn eval dict .pkl.tar.gz (gunzip+untar+unpickle)",
    "CPython tarfile+pickle.load",
    measure("python3", ["bench/py/unpickle.py", tgz], 5),
    statSync(pkl).size,
    "values",
  );

// The streaming reader of eval dicts (what convkit's evaluator uses): nothing is built.
for (const [label, path] of [
  ["multi-turn eval dict .pkl (40 MB, protocol 3)", pkl],
  ["multi-turn eval dict .pkl.tar.gz (gunzip+untar+unpickle)", tgz],
]) {
  row(
    label,
    "convkit scanEvalDict (streamed, nothing built)",
    measure("node", ["bench/cases/scan-eval.mjs", path], 5),
    statSync(pkl).size,
    "values",
  );
}

const args = join(WORK, `args-me-${ARGS_MB}mb.json`);
if (!existsSync(args)) await generateArgsMe(args, ARGS_MB);
const argsBytes = statSync(args).size;
row(
  `args.me-shaped JSON, ${(argsBytes / 2 ** 30).toFixed(2)} GiB, streamed`,
  "convkit (stream-json)",
  measure("node", ["bench/cases/args-me.mjs", args], 1),
  argsBytes,
  "arguments",
);

// The ClariQ evaluator, whole process (startup, reading, tar.gz unpacking, scoring, printing).
function measureCli(args, runs) {
  const rs = Array.from({ length: runs }, () => {
    const r = spawnSync("/usr/bin/time", ["-f", "%e %M", "node", ...args], { cwd: ROOT, maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
    const [secs, kb] = r.stderr.toString().trim().split("\n").at(-1).split(" ").map(Number);
    return { seconds: secs, maxRssMiB: kb / 1024 };
  });
  return { seconds: median(rs.map((r) => r.seconds)), maxRssMiB: median(rs.map((r) => r.maxRssMiB)), runs };
}
const evalData = join(WORK, "clariq-data");
if (!existsSync(evalData)) {
  mkdirSync(evalData, { recursive: true });
  for (const f of readdirSync(join(SHARED, "data", "clariq")))
    symlinkSync(join(SHARED, "data", "clariq", f), join(evalData, f));
  for (const f of readdirSync(join(SHARED, "golden", "clariq-eval", "eval_dicts")))
    symlinkSync(join(SHARED, "golden", "clariq-eval", "eval_dicts", f), join(evalData, f));
}
const evalBin = "apps/clariq-eval/bin/convkit-clariq-eval.js";
const single = measureCli(
  [
    evalBin,
    "--eval_task",
    "document_relevance",
    "--data_dir",
    evalData,
    "--run_file",
    join(SHARED, "data/clariq/sample_runs/dev_bm25"),
  ],
  7,
);
row(
  "ClariQ eval: single-turn document_relevance, dev_bm25",
  "convkit-clariq-eval",
  { ...single, records: 1 },
  undefined,
  "evaluations",
);
row(
  "ClariQ eval: single-turn document_relevance, dev_bm25",
  "clariq_eval_tool.py (pandas; figure from the issue, same machines)",
  { seconds: 1.16, maxRssMiB: 135, runs: "-", records: 1 },
  undefined,
  "evaluations",
);
const multi = measureCli(
  [
    evalBin,
    "--eval_task",
    "document_relevance",
    "--multi_turn",
    "--data_dir",
    evalData,
    "--run_file",
    join(SHARED, "data/clariq/sample_runs/dev_bm25_multi_turn"),
  ],
  7,
);
row(
  "ClariQ eval: multi-turn document_relevance, dev_bm25_multi_turn, 39 MB dict in tar.gz",
  "convkit-clariq-eval",
  { ...multi, records: 1 },
  undefined,
  "evaluations",
);
row(
  "ClariQ eval: multi-turn document_relevance, dev_bm25_multi_turn, 39 MB dict in tar.gz",
  "clariq_eval_tool.py (pandas; figure from the issue, same machines)",
  { seconds: 2.15, maxRssMiB: 472, runs: "-", records: 1 },
  undefined,
  "evaluations",
);

// gen:synthetic on the real data against a plain Python generator of the same records.
const synOut = join(WORK, "synthetic");
const qulacPath = join(SHARED, "data", "qulac", "qulac.json");
const genBin = "apps/gen-synthetic/bin/convkit-gen-synthetic.js";
const genArgs = (splits, format, threads) => [
  genBin,
  "--data",
  join(SHARED, "data", "clariq"),
  "--qulac",
  qulacPath,
  "--splits",
  splits,
  "--format",
  format,
  "--threads",
  String(threads),
  "--out",
  synOut,
];
const devTrain = 927304;
for (const threads of [1, 2]) {
  row(
    "gen:synthetic train+dev → JSONL (454 MB)",
    `convkit-gen-synthetic, ${threads} thread${threads > 1 ? "s" : ""}`,
    { ...measureCli(genArgs("dev,train", "jsonl", threads), 3), records: devTrain },
    454077474,
  );
}
row("gen:synthetic train+dev → pickle in tar.gz", "convkit-gen-synthetic", {
  ...measureCli(genArgs("dev,train", "pickle", 1), 3),
  records: devTrain,
});
for (const threads of [1, 2]) {
  row(
    "gen:synthetic train+dev+test → JSONL + pickle.tar.gz + TSV",
    `convkit-gen-synthetic, ${threads} thread${threads > 1 ? "s" : ""}`,
    { ...measureCli(genArgs("dev,train,test", "jsonl,pickle,tsv", threads), 3), records: 1611533 },
  );
}
if (hasPython) {
  const plans = join(WORK, "plans-dev-train.json");
  execFileSync(
    "node",
    ["bench/export-plans.mjs", join(SHARED, "data", "clariq"), qulacPath, plans, "dev", "train"],
    { cwd: ROOT },
  );
  row(
    "gen:synthetic train+dev → JSONL (454 MB)",
    "Python generator (json.dumps per record)",
    measure("python3", ["bench/py/gen_synthetic.py", plans, "jsonl", join(WORK, "peer.jsonl")], 3),
    454077474,
  );
  row(
    "gen:synthetic train+dev → pickle in tar.gz",
    "Python generator (pickle.dump, plain .pkl, 53 MB)",
    measure("python3", ["bench/py/gen_synthetic.py", plans, "pickle", join(WORK, "peer.pkl")], 3),
  );
}

// ClariQ's multi-turn BM25 baseline (the upstream notebook needs minutes for dev), 1 and 2 threads.
for (const split of ["dev", "train"]) {
  for (const threads of ["1", "2"]) {
    row(
      `BM25 multi-turn baseline, ${split} contexts, ${threads} thread${threads === "1" ? "" : "s"}`,
      "convkit (@convkit/baselines)",
      measure(
        "node",
        ["bench/cases/bm25-multi-turn.mjs", join(SHARED, "data", "clariq"), qulacPath, split, threads],
        1,
      ),
      undefined,
      "contexts",
    );
  }
}

// gen:eval: queries (context × candidate × 2 variants) over real dev contexts, 1,000 generated
// documents per topic (~800 terms), tokenizing and indexing included; shard 0/4 is 13 topics,
// 0/1 all 49 (peak RSS should not grow with the topics: texts are read per topic by offset).
for (const [threads, shard, topics] of [
  ["1", "0/4", 13],
  ["2", "0/4", 13],
  ["2", "0/1", 49],
]) {
  row(
    `gen:eval, ${topics} dev topics × 1,000 docs, ${threads} thread${threads === "1" ? "" : "s"}`,
    "convkit (@convkit/eval-dicts, query likelihood)",
    measure(
      "node",
      [
        "bench/cases/gen-eval.mjs",
        join(SHARED, "data", "clariq"),
        qulacPath,
        join(WORK, "gen-eval"),
        threads,
        shard,
      ],
      topics === 13 ? 3 : 1,
    ),
    undefined,
    "queries",
  );
}

// segment: generated ClueWeb22-like documents (median ~5 KB, 1% of 100 KB-1 MB) as JSONL, into
// iKAT passages (JSONL + hash TSV) with the default splitter. 200 MB (a run of about a second,
// where starting the pool shows) and 1 GiB (collection scale: what the projection uses); then two
// independent 1-thread processes at once on 1 GiB, the most the cores give without a pool.
const SEGMENT_SIZES = [200, Number(process.env.BENCH_SEGMENT_MB ?? 1024)];
const sizeLabel = (mb) => (mb >= 1024 ? `${(mb / 1024).toFixed(mb % 1024 ? 1 : 0)} GiB` : `${mb} MB`);
const segmentJob = (mb) => `segment: ${sizeLabel(mb)} ClueWeb22-like JSONL → iKAT passages + hashes`;
for (const mb of SEGMENT_SIZES) {
  runOnce("node", ["bench/cases/segment.mjs", join(WORK, "segment"), "gen", String(mb)], true);
  for (const threads of ["1", "2"]) {
    const r = measure("node", ["bench/cases/segment.mjs", join(WORK, "segment"), threads, String(mb)], 3);
    row(
      `${segmentJob(mb)}, ${threads} thread${threads === "1" ? "" : "s"}`,
      "convkit (@convkit/segment, heuristic splitter)",
      r,
      r.bytes,
      "docs",
    );
  }
}
{
  const mb = SEGMENT_SIZES[1];
  const r = measure("node", ["bench/cases/segment.mjs", join(WORK, "segment"), "pair", String(mb)], 1);
  row(
    `${segmentJob(mb)} twice, two 1-thread processes at once (no pool)`,
    "convkit (@convkit/segment, heuristic splitter)",
    r,
    r.bytes,
    "docs",
  );
}
// iKAT: the passage-id database from a generated 2M-row hash TSV (rows/s; the full one has
// 116,838,987 rows), then a 1,000-passages-per-turn run over all 218 turns of 2024 validated
// with the database check.
row(
  "iKAT passage-id database: build from a 2M-row hash TSV (SQLite, 100k rows per transaction)",
  "convkit (@convkit/ikat, better-sqlite3)",
  measure(
    "node",
    [
      "bench/cases/ikat.mjs",
      join(WORK, "ikat"),
      join(SHARED, "data", "ikat", "2024_test_topics.json"),
      "2",
      "build",
    ],
    3,
  ),
  undefined,
  "rows",
);
row(
  "iKAT validate: 2024 run, 218 turns × 1,000 passages, with the database check",
  "convkit (@convkit/ikat)",
  measure(
    "node",
    [
      "bench/cases/ikat.mjs",
      join(WORK, "ikat"),
      join(SHARED, "data", "ikat", "2024_test_topics.json"),
      "2",
      "validate",
    ],
    3,
  ),
  undefined,
  "passages",
);
// Touché: the TIRA command's two streaming passes over the generated args.me file above, 50
// topics that all match most arguments (a worst case for scoring), DirichletLM.
row(
  `Touché run (TIRA), args.me-shaped ${(argsBytes / 2 ** 30).toFixed(2)} GiB, 50 topics, two passes`,
  "convkit (@convkit/touche, DirichletLM)",
  measure("node", ["bench/cases/touche.mjs", args, WORK], 1),
  argsBytes,
  "arguments",
);
const agreement = spawnSync(
  "node",
  [
    "apps/segment/bin/convkit-segment.js",
    "agreement",
    "--passages",
    join(SHARED, "data", "ikat", "2023_train_topics_psg_text.jsonl"),
  ],
  { cwd: ROOT },
).stdout.toString();

/** Whole-collection times projected from the measured rates (the issues' questions). */
function projections() {
  const rate = (prefix) => rows.find((r) => r.job.startsWith(prefix))?.rate;
  const hm = (s) => (s >= 3600 ? `${(s / 3600).toFixed(1)} h` : `${(s / 60).toFixed(1)} min`);
  const out = [];
  const [small, large] = SEGMENT_SIZES;
  const seg1 = rate(`${segmentJob(large)}, 1 thread`);
  const seg2 = rate(`${segmentJob(large)}, 2 threads`);
  const pair = rate(`${segmentJob(large)} twice`);
  const s1 = rate(`${segmentJob(small)}, 1 thread`);
  const s2 = rate(`${segmentJob(small)}, 2 threads`);
  const docs = 13_467_076;
  if (seg1 && seg2)
    out.push(
      `- iKAT collection (${docs.toLocaleString("en-US")} documents, at this benchmark's document sizes and its ${sizeLabel(large)} rates): ${hm(docs / seg1)} on one core, ${hm(docs / seg2)} on one 2-core machine, ${hm(docs / seg2 / 20)} on 20 (\`--shard i/20\`).`,
    );
  if (seg1 && seg2 && s1 && s2 && pair)
    out.push(
      `- segment, 2 threads against 1: ${(seg2 / seg1).toFixed(2)}x at ${sizeLabel(large)}, ${(s2 / s1).toFixed(2)}x at ${sizeLabel(small)} (starting the pool, about 0.1 s, weighs on a run of about a second); two independent 1-thread processes at once reach ${(pair / seg1).toFixed(2)}x: what the two cores give with no pool at all.`,
    );
  const ev = rate("gen:eval, 49 dev topics");
  // ClariQ train + dev + test: 1,611,533 records and 117,354 contexts (Q00001 each), two variants.
  const queries = 2 * (1_611_533 + 117_354);
  if (ev)
    out.push(
      `- ClariQ eval dicts, train + dev + test (${queries.toLocaleString("en-US")} queries at 1,000 documents per topic): ${hm(queries / ev)} on one 2-core machine.`,
    );
  const db = rate("iKAT passage-id database");
  if (db) out.push(`- iKAT passage-id database, 116,838,987 rows: ${hm(116_838_987 / db)}.`);
  return out;
}

const cpu = cpus()[0]?.model ?? "unknown";
const py = hasPython ? execFileSync("python3", ["--version"]).toString().trim() : "no python3";
const fmt = (x, d = 0) =>
  x === undefined ? "" : x.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
const lines = [
  "# Benchmarks",
  "",
  "Written by `pnpm bench` (bench/run.mjs). Each job runs in a fresh process; times and peak RSS",
  "(`maxRSS` of the process) are medians over the runs shown; the reference it replaces runs in the same session.",
  "",
  `- date: ${new Date().toISOString().slice(0, 10)}`,
  `- machine: ${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB`,
  `- node ${process.version}, ${py}`,
  "",
  "| job | implementation | items | seconds | items/s | MB/s | peak RSS MiB | runs |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map(
    (r) =>
      `| ${r.job} | ${r.impl} | ${fmt(r.n)} ${r.unit} | ${fmt(r.seconds, 3)} | ${fmt(r.rate)} | ${fmt(r.mbps, 1)} | ${fmt(r.rss)} | ${r.runs} |`,
  ),
  "",
  "## Projections",
  "",
  ...projections(),
  "",
  "## Sentence splitter agreement with the official iKAT passages",
  "",
  "`convkit-segment agreement --passages 2023_train_topics_psg_text.jsonl` (pairs of consecutive",
  "official passages; a splitter agrees when passage k splits into ten sentences and the sixth",
  "starts where passage k+1 begins):",
  "",
  "| splitter | agreeing/pairs | percent |",
  "| --- | ---: | ---: |",
  ...agreement
    .trim()
    .split("\n")
    .map((l) => `| ${l.split("\t").join(" | ")} |`),
  "",
];
writeFileSync(join(ROOT, "BENCHMARKS.md"), lines.join("\n"));
process.stderr.write("wrote BENCHMARKS.md\n");

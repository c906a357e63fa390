// pnpm bench: runs every case against its reference peer, medians of repeated runs, into BENCHMARKS.md.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compareInputs } from "./cases/compare-inputs.mjs";
import { trecEvalRows } from "./cases/trec-eval.mjs";
import { generateArgsMe } from "./gen-args-me.mjs";
import { corpusPaths, readCorpusMeta } from "./gen-web-corpus.mjs";

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
/** Lines printed under the table: what a row needs to be read right, and rows skipped (and why). */
const notes = [];
/**
 * A table row. `bytes`: input bytes (MB/s); `segmented`: bytes of the text actually segmented, for
 * segment rows (the chunker keeps the first 10,000 code points of each document; MB/s segmented).
 */
function row(job, impl, r, bytes, unit = "records", segmented = undefined) {
  rows.push({
    job,
    impl,
    n: r.records,
    passages: r.passages,
    unit,
    seconds: r.seconds,
    rate: r.records / r.seconds,
    mbps: bytes ? bytes / 2 ** 20 / r.seconds : undefined,
    smbps: segmented ? segmented / 2 ** 20 / r.seconds : undefined,
    rss: r.maxRssMiB,
    runs: r.runs,
  });
  process.stderr.write(
    `${job} | ${impl}: ${r.seconds.toFixed(3)} s, ${Math.round(r.records / r.seconds)} ${unit}/s${
      bytes ? `, ${(bytes / 2 ** 20 / r.seconds).toFixed(1)} MB/s` : ""
    }${segmented ? ` (${(segmented / 2 ** 20 / r.seconds).toFixed(1)} MB/s segmented)` : ""}, ${r.maxRssMiB?.toFixed(0) ?? "-"} MiB\n`,
  );
}

// The convkit tarball installed as users install it (bench/cases/install.mjs): npm into an empty
// prefix, with npm's cache warm and empty; the installed size in a note.
function installSection() {
  const job =
    "install: the convkit tarball into an empty prefix (npm install -g --prefix DIR convkit-X.Y.Z.tgz)";
  const r = runOnce("node", ["bench/cases/install.mjs", "3"]);
  const one = (seconds) => ({ records: 1, seconds, maxRssMiB: undefined, runs: r.runs });
  row(
    job,
    `npm ${execFileSync("npm", ["--version"]).toString().trim()}, npm's cache warm`,
    one(r.warmSeconds),
    undefined,
    "installs",
  );
  row(
    job,
    "npm, empty cache (every dependency downloaded from the registry)",
    one(r.coldSeconds),
    undefined,
    "installs",
  );
  notes.push(
    `The installed \`convkit\` (its bundle, sample data and third-party dependencies) takes ${(r.installedBytes / 2 ** 20).toFixed(1)} MiB in ${r.installedFiles.toLocaleString("en-US")} files; the tarball ${(r.tarballBytes / 2 ** 10).toFixed(0)} KiB. No dependency compiles anything (no node-gyp).`,
  );
}

// convkit trec-eval beside trec_eval's binary (bench/cases/trec-eval.mjs: how the binary is found
// or built, and the generated runs), alternating, medians of 5; CPU (user+sys) in the impl cell.
async function trecEvalSection() {
  const { rows: got, notes: more } = await trecEvalRows(ROOT, WORK, 5);
  for (const r of got) row(r.job, `${r.impl} (CPU ${r.cpu.toFixed(2)} s)`, r, r.bytes, "lines");
  notes.push(...more);
}

// BENCH_ONLY=ikat|install|trec-eval: only that section, its table rows and notes printed (BENCHMARKS.md untouched).
if (process.env.BENCH_ONLY) {
  const sections = { ikat: ikatSection, install: installSection, "trec-eval": trecEvalSection };
  const section = sections[process.env.BENCH_ONLY];
  if (!section) throw new Error(`BENCH_ONLY: one of ${Object.keys(sections).join(", ")}`);
  await section();
  const f = (x, d = 0) => (x === undefined ? "" : fmtIkat(x, d));
  for (const r of rows)
    process.stdout.write(
      `| ${r.job} | ${r.impl} | ${f(r.n)} ${r.unit} | ${f(r.seconds, 3)} | ${f(r.rate)} | ${r.mbps === undefined ? "" : f(r.mbps, 1)} |  | ${f(r.rss)} | ${r.runs} |\n`,
    );
  for (const n of notes) process.stdout.write(`\n${n}\n`);
  for (const r of rows.filter((x) => x.job.startsWith("iKAT passage-id database")))
    process.stdout.write(`\n${r.impl}: 116,838,987 rows in ${(116_838_987 / r.rate / 60).toFixed(1)} min\n`);
  process.exit(0);
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

// The ClariQ evaluator, whole process (startup, reading, tar.gz unpacking, scoring, printing),
// side by side with ClariQ's own clariq_eval_tool.py when a Python with pandas and scikit-learn
// is here and the tool is at $CLARIQ_EVAL_TOOL or bench/.work/clariq_eval_tool.py (ClariQ's
// repository has no license, so it is not vendored: take src/clariq_eval_tool.py from
// github.com/aliannejadi/ClariQ). Both read the same plain .pkl; their stdout must be equal.
function measureProcess(cmd, args, runs) {
  let stdout;
  const rs = Array.from({ length: runs }, () => {
    const r = spawnSync("/usr/bin/time", ["-f", "%e %M", cmd, ...args], { cwd: ROOT, maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr}`);
    stdout = r.stdout.toString();
    const [secs, kb] = r.stderr.toString().trim().split("\n").at(-1).split(" ").map(Number);
    return { seconds: secs, maxRssMiB: kb / 1024 };
  });
  return {
    seconds: median(rs.map((r) => r.seconds)),
    maxRssMiB: median(rs.map((r) => r.maxRssMiB)),
    runs,
    stdout,
  };
}
/** A convkit CLI as a whole process. */
const measureCli = (args, runs) => measureProcess("node", args, runs);
const evalData = join(WORK, "clariq-data");
if (!existsSync(evalData)) {
  mkdirSync(evalData, { recursive: true });
  for (const f of readdirSync(join(SHARED, "data", "clariq")))
    symlinkSync(join(SHARED, "data", "clariq", f), join(evalData, f));
  for (const f of readdirSync(join(SHARED, "golden", "clariq-eval", "eval_dicts")))
    symlinkSync(join(SHARED, "golden", "clariq-eval", "eval_dicts", f), join(evalData, f));
}
// The multi-turn dict as the Python tool needs it: the .pkl out of ClariQ's tar.gz.
const evalPlain = join(WORK, "clariq-plain");
if (!existsSync(join(evalPlain, "multi_turn_dev_eval.pkl"))) {
  mkdirSync(evalPlain, { recursive: true });
  for (const f of readdirSync(join(SHARED, "data", "clariq")))
    if (!existsSync(join(evalPlain, f))) symlinkSync(join(SHARED, "data", "clariq", f), join(evalPlain, f));
  symlinkSync(
    join(SHARED, "golden", "clariq-eval", "eval_dicts", "single_turn_train_eval.pkl"),
    join(evalPlain, "single_turn_train_eval.pkl"),
  );
  execFileSync("tar", [
    "-xzf",
    join(SHARED, "golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz"),
    "-C",
    evalPlain,
  ]);
}
const clariqTool = process.env.CLARIQ_EVAL_TOOL ?? join(WORK, "clariq_eval_tool.py");
const pandasPython = ["python3", "/usr/bin/python3"].find(
  (py) => spawnSync(py, ["-c", "import pandas, sklearn"]).status === 0,
);
if (!existsSync(clariqTool))
  notes.push(
    `clariq_eval_tool.py rows skipped: no ${clariqTool} (set CLARIQ_EVAL_TOOL to ClariQ's src/clariq_eval_tool.py).`,
  );
else if (!pandasPython)
  notes.push(
    "clariq_eval_tool.py rows skipped: no python3 with pandas and scikit-learn (Debian: python3-pandas python3-sklearn).",
  );
else
  notes.push(
    "clariq_eval_tool.py has no single-turn row: its single-turn path fails on ClariQ's master (TypeError: load_eval_dict() missing 1 required positional argument: 'multi_turn').",
  );
const evalBin = "apps/convkit/bin/convkit-clariq-eval.js";
const evalCases = [
  ["ClariQ eval: single-turn document_relevance, dev_bm25", [], "dev_bm25"],
  [
    "ClariQ eval: multi-turn document_relevance, dev_bm25_multi_turn, 40 MB .pkl",
    ["--multi_turn"],
    "dev_bm25_multi_turn",
  ],
];
for (const [job, flags, runFile] of evalCases) {
  const args = [
    "--eval_task",
    "document_relevance",
    ...flags,
    "--data_dir",
    evalPlain,
    "--run_file",
    join(SHARED, "data/clariq/sample_runs", runFile),
  ];
  const ours = measureProcess("node", [evalBin, ...args], 7);
  row(job, "convkit-clariq-eval", { ...ours, records: 1 }, undefined, "evaluations");
  // Its single-turn path fails on ClariQ's master (load_eval_dict() called without multi_turn).
  if (existsSync(clariqTool) && pandasPython && flags.includes("--multi_turn")) {
    const theirs = measureProcess(pandasPython, [clariqTool, ...args], 5);
    if (theirs.stdout !== ours.stdout)
      throw new Error(`${job}: clariq_eval_tool.py and convkit print different results`);
    row(
      job,
      "clariq_eval_tool.py (pandas, scikit-learn; same stdout)",
      { ...theirs, records: 1 },
      undefined,
      "evaluations",
    );
  }
}
const multiTgz = measureProcess(
  "node",
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
  "ClariQ eval: multi-turn document_relevance, dev_bm25_multi_turn, the dict as ClariQ ships it (tar.gz)",
  "convkit-clariq-eval",
  { ...multiTgz, records: 1 },
  undefined,
  "evaluations",
);

// convkit-compare: 10 runs x 10 measures x 200 topics (real ClariQ per-facet score distributions, see
// cases/compare-inputs.mjs), all 45 pairs per measure, the randomization test with 10,000 sign patterns
// and Holm, against what a user writes today (SciPy's ttest_rel, a numpy-vectorized randomization
// test, statsmodels' multipletests) when python3 has them.
{
  const files = compareInputs(WORK, SHARED);
  const args = [
    "apps/convkit/bin/convkit-compare.js",
    "--per-topic",
    "--test",
    "randomization",
    "--format",
    "json",
  ];
  const job =
    "compare: 10 runs x 10 measures x 200 topics, all pairs (450 tests), randomization 10,000 patterns + Holm";
  for (const threads of ["1", "2"]) {
    const r = measureProcess("node", [...args, "--threads", threads, ...files], 5);
    row(job, `convkit-compare --threads ${threads}`, { ...r, records: 450 }, undefined, "tests");
  }
  const statsPython = ["python3", "/usr/bin/python3"].find(
    (py) => spawnSync(py, ["-c", "import scipy, statsmodels, numpy"]).status === 0,
  );
  if (statsPython) {
    const r = measureProcess(statsPython, ["bench/py/compare_randomization.py", ...files], 3);
    row(
      job,
      "Python: scipy ttest_rel + numpy randomization + statsmodels Holm",
      { ...r, records: 450 },
      undefined,
      "tests",
    );
  } else notes.push("compare: no Python row (no python3 with scipy, statsmodels and numpy).");
}

// convkit-explore: start-up (process start to serving, every input indexed) and each view's first
// page over HTTP, on the dev synthetic set (182,435 records), both eval dicts (the 40 MB multi-turn
// one from its tar.gz), two ClariQ runs and iKAT's official passages. No tool of the field does this
// (a notebook unpickling the dicts is the usual way: that alone takes the Python evaluator's time).
{
  const exploreSynthetic = join(WORK, "explore", "dev_synthetic.jsonl");
  if (!existsSync(exploreSynthetic))
    runOnce(
      "node",
      [
        "apps/convkit/bin/convkit-gen-synthetic.js",
        "--data",
        join(SHARED, "data", "clariq"),
        "--qulac",
        join(SHARED, "data", "qulac", "qulac.json"),
        "--splits",
        "dev",
        "--format",
        "jsonl",
        "--out",
        join(WORK, "explore"),
      ],
      true,
    );
  const r = runOnce("node", ["bench/cases/explore-times.mjs", ROOT, SHARED, exploreSynthetic, "5"]);
  const job = "explore: start-up (dev synthetic set, both eval dicts, 2 runs, iKAT passages indexed)";
  row(job, "convkit-explore", { seconds: r.startup, maxRssMiB: r.maxRssMiB, runs: r.runs, records: 182435 });
  for (const [view, seconds] of Object.entries(r.pages))
    row(
      `explore: first page of the ${view} view after start-up`,
      "convkit-explore (HTTP)",
      {
        seconds,
        maxRssMiB: r.maxRssMiB,
        runs: r.runs,
        records: 1,
      },
      undefined,
      "pages",
    );
}

// gen:synthetic on the real data against a plain Python generator of the same records.
const synOut = join(WORK, "synthetic");
const qulacPath = join(SHARED, "data", "qulac", "qulac.json");
const genBin = "apps/convkit/bin/convkit-gen-synthetic.js";
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
    "convkit (@convkit/gen-eval, query likelihood)",
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

// segment: ClueWeb22 records of real text (bench/gen-web-corpus.mjs: rebuilt official iKAT documents,
// seed paragraphs, ClariQ/Qulac texts; median ~5 KB, 1% of 100 KB-1 MB) as JSONL, into iKAT passages
// (JSONL + hash TSV) with the default splitter. 200 MB (a run of a few seconds, where starting the
// pool shows) and 1 GiB (collection scale: what the projection uses); then two independent 1-thread
// processes at once on 1 GiB, the most the cores give without a pool. Every rate is per MB of input
// and per MB of text segmented (the corpus's meta file: what the chunker's 10,000-code-point cut keeps).
const SEGMENT_WORK = join(WORK, "segment");
const SEGMENT_SIZES = [200, Number(process.env.BENCH_SEGMENT_MB ?? 1024)];
/** The spaCy rows' corpus: the head of the same corpus (generation makes a smaller one a prefix of a larger). */
const SPACY_MB = Number(process.env.BENCH_SPACY_MB ?? 10);
const sizeLabel = (mb) => (mb >= 1024 ? `${(mb / 1024).toFixed(mb % 1024 ? 1 : 0)} GiB` : `${mb} MB`);
const segmentJob = (mb) => `segment: ${sizeLabel(mb)} web-text ClueWeb22 JSONL → iKAT passages + hashes`;
const segmentCase = (...args) => ["bench/cases/segment.mjs", SEGMENT_WORK, ...args.map(String)];
/** Generates a corpus size once (a process of its own: no timed run carries its memory). */
const genCorpus = (mb) => runOnce("node", segmentCase("gen", mb), true);
for (const mb of SEGMENT_SIZES) {
  genCorpus(mb);
  for (const threads of ["1", "2"]) {
    const r = measure("node", segmentCase(threads, mb), 3);
    row(
      `${segmentJob(mb)}, ${threads} thread${threads === "1" ? "" : "s"}`,
      "convkit (@convkit/segment, heuristic splitter)",
      r,
      r.bytes,
      "docs",
      r.segmentedBytes,
    );
  }
}
{
  const mb = SEGMENT_SIZES[1];
  const r = measure("node", segmentCase("pair", mb), 1);
  row(
    `${segmentJob(mb)} twice, two 1-thread processes at once (no pool)`,
    "convkit (@convkit/segment, heuristic splitter)",
    r,
    r.bytes,
    "docs",
    r.segmentedBytes,
  );
}

// queue: the same work through @convkit/queue (BullMQ on a Redis 7 of its own on this machine): the
// queue's cost per job (1,000 no-op units in one flow, one worker in the process), then the large
// corpus cut into 64 files, segmented by one local 2-thread `convkit-segment run` and by the same
// command with --queue and two `convkit-worker --threads 1` (the same two cores; outputs checked
// byte for byte). From these, the iKAT collection on many machines. Skipped without redis-server.
if (spawnSync("redis-server", ["--version"]).status !== 0)
  notes.push("queue rows skipped: `redis-server --version` failed (Debian: apt-get install redis-server).");
else {
  const queueCase = (...args) => ["bench/cases/queue.mjs", SEGMENT_WORK, ...args.map(String)];
  const overhead = measure("node", queueCase("overhead", 1000), 3);
  row(
    "queue: 1,000 tiny jobs through BullMQ on Redis 7 (one flow), 1 worker",
    "convkit (@convkit/queue, no-op jobs)",
    overhead,
    undefined,
    "jobs",
  );
  const mb = SEGMENT_SIZES[1];
  const local = measure("node", queueCase("segment", mb, "local"), 3);
  row(
    `${segmentJob(mb)}, cut into 64 files, 2 threads`,
    "convkit-segment run --threads 2 (heuristic splitter)",
    local,
    local.bytes,
    "docs",
    local.segmentedBytes,
  );
  const queued = measure("node", queueCase("segment", mb, "queue"), 3);
  row(
    `${segmentJob(mb)}, cut into 64 files, 2 workers × 1 thread`,
    "convkit-segment run --queue, 2 convkit-worker --threads 1, Redis 7 on this machine",
    queued,
    queued.bytes,
    "docs",
    queued.segmentedBytes,
  );
  const perJob = overhead.seconds / overhead.records;
  const perCore = queued.records / queued.seconds / 2;
  const mbPerCore = queued.bytes / 2 ** 20 / queued.seconds / 2;
  const docs = 13_467_076;
  const fileDocs = 10_000;
  const files = Math.ceil(docs / fileDocs);
  const fileSeconds = fileDocs / perCore + perJob;
  const span = (s) => (s >= 120 ? `${(s / 60).toFixed(1)} min` : `${s.toFixed(0)} s`);
  const on = (machines) => {
    const workers = machines * 8;
    const rounds = Math.ceil(files / workers);
    return `${machines} machines (${workers} workers): ${rounds} rounds of files, ~${span(rounds * fileSeconds)} (${span(docs / perCore / workers)} were the files spread evenly; the shared filesystem reading ${((workers * mbPerCore) / 1024).toFixed(1)} GiB/s of input)`;
  };
  notes.push(
    `queue rows: through the queue (2 workers × 1 thread) the 64 files go at ${(local.seconds / queued.seconds).toFixed(2)}x the speed of one local 2-thread run (${queued.seconds.toFixed(1)} s against ${local.seconds.toFixed(1)} s, the same bytes out); the queue costs ${(perJob * 1000).toFixed(2)} ms a job. Peak RSS of the queue segment row: the sum of the submitting command's, the workers' and Redis's (in its first run ${queued.submitterRssMiB.toFixed(0)}, ${queued.workerRssMiB.map((x) => x.toFixed(0)).join(" + ")} and ${queued.redisRssMiB.toFixed(0)} MiB); of the no-op row: its one Node process (submitter and worker; Redis beside it ${overhead.redisRssMiB.toFixed(0)} MiB). ` +
      `Projected: the iKAT collection (${docs.toLocaleString("en-US")} documents) cut into ${files.toLocaleString("en-US")} files of ${fileDocs.toLocaleString("en-US")} documents, one \`convkit-worker --threads 1\` per core on machines of 8 cores, at the queue row's ${Math.round(perCore).toLocaleString("en-US")} documents/s a core (its rate over its 2 cores) and ${(perJob * 1000).toFixed(2)} ms a job: ${fileSeconds.toFixed(1)} s a file; ${on(20)}; ${on(100)}. Assumed: this corpus's document sizes; every core as fast as one here, 8 on a machine giving 8 times one (no memory-bandwidth or disk limit); a shared filesystem that keeps up; Redis over the network costing a job what it does here (${files.toLocaleString("en-US")} jobs: ${(files * perJob).toFixed(1)} s even one at a time); workers started beforehand, no failures or retries.`,
  );
}

// spaCy as TREC iKAT's chunker runs it (model with every component but senter excluded, then
// enable_pipe("senter")), 1 process, on the prepared (cut) texts of the head of the same corpus:
// tokenizer alone, and tokenizer + senter. Skipped, with a note, where spaCy or the model is missing.
const spacyModel = join(SHARED, "models", "en_core_web_sm-3.8.0");
const spacyJob = `segment: ${sizeLabel(SPACY_MB)} head of the same corpus, prepared texts, 1 process`;
const spacyCheck = hasPython ? spawnSync("python3", ["-c", "import spacy"]) : undefined;
if (spacyCheck?.status !== 0)
  notes.push(
    `spaCy rows skipped: \`python3 -c 'import spacy'\` failed (${
      spacyCheck ? spacyCheck.stderr.toString().trim().split("\n").at(-1) : "no python3"
    }).`,
  );
else if (!existsSync(join(spacyModel, "config.cfg")))
  notes.push(`spaCy rows skipped: no model at ${spacyModel}.`);
else {
  genCorpus(SPACY_MB);
  const { input } = corpusPaths(SEGMENT_WORK, SPACY_MB);
  const version = execFileSync("python3", ["-c", "import spacy; print(spacy.__version__)"]).toString().trim();
  for (const [mode, impl] of [
    ["tokenizer", "tokenizer alone (nlp.make_doc)"],
    ["senter", "tokenizer + senter (nlp(text), sentence texts)"],
  ]) {
    const r = measure("python3", ["bench/py/spacy_senter.py", spacyModel, input, mode], 3);
    row(spacyJob, `spaCy ${version} en_core_web_sm 3.8.0, ${impl}`, r, r.bytes, "docs", r.segmentedBytes);
  }
}

// convkit's spaCy port (@convkit/spacy) on the same texts: beside the spaCy rows, in one process
// with the model load and the reading outside the timed section as there (tokenizer alone;
// tokenizer + senter); then whole `convkit-segment run --splitter spacy` jobs (reading, pool,
// passages and hashes written) at 1 and 2 threads, on the spaCy rows' corpus and at 200 MB.
const SPACY_SEGMENT_SIZES = [SPACY_MB, SEGMENT_SIZES[0]];
if (existsSync(join(spacyModel, "config.cfg"))) {
  genCorpus(SPACY_MB);
  for (const [mode, impl] of [
    ["tokenizer", "tokenizer alone"],
    ["senter", "tokenizer + senter (sentence texts)"],
  ]) {
    const r = measure("node", ["bench/cases/spacy.mjs", SEGMENT_WORK, String(SPACY_MB), mode, spacyModel], 3);
    row(spacyJob, `convkit (@convkit/spacy), ${impl}`, r, r.bytes, "docs", r.segmentedBytes);
  }
  for (const mb of SPACY_SEGMENT_SIZES)
    for (const threads of ["1", "2"]) {
      const r = measure("node", segmentCase(threads, mb, "-spacy", "spacy"), 3);
      row(
        `${segmentJob(mb)}, --splitter spacy, ${threads} thread${threads === "1" ? "" : "s"}`,
        "convkit (@convkit/segment, spaCy's senter)",
        r,
        r.bytes,
        "docs",
        r.segmentedBytes,
      );
    }
} else notes.push(`convkit --splitter spacy rows skipped: no model at ${spacyModel}.`);

// iKAT: the passage-id database from a generated 2M-row hash TSV (rows/s; the full one has
// 116,838,987 rows), then a 1,000-passages-per-turn run over all 218 turns of 2024 validated
// with the database check: the store (libsql) and, beside it, the one it replaced (better-sqlite3
// 12, the code as it was), built in bench/.work/bsq when missing (it compiles from source).
function ikatSection() {
  const ikat = (what, bsq) => [
    "bench/cases/ikat.mjs",
    join(WORK, "ikat"),
    join(SHARED, "data", "ikat", "2024_test_topics.json"),
    "2",
    what,
    ...(bsq ? [bsq] : []),
  ];
  const buildJob =
    "iKAT passage-id database: build from a 2M-row hash TSV (SQLite, 100k rows per transaction)";
  const validateJob = "iKAT validate: 2024 run, 218 turns × 1,000 passages, with the database check";
  const bsq = betterSqlite3();
  const sizes = [];
  for (const [store, impl, dir] of [
    [
      "libsql",
      "convkit (@convkit/ikat, libsql 0.5.29: 250 rows an INSERT, one lookup statement a turn)",
      undefined,
    ],
    ...(bsq.dir
      ? [
          [
            "better-sqlite3",
            "convkit before (@convkit/ikat, better-sqlite3 12.11.1: a statement per row, per id)",
            bsq.dir,
          ],
        ]
      : []),
  ]) {
    const b = measure("node", ikat("build", dir), 3);
    row(buildJob, impl, b, undefined, "rows");
    sizes.push(`${store} ${fmtIkat(b.bytes / b.records, 1)} bytes a row`);
    row(validateJob, impl, measure("node", ikat("validate", dir), 3), undefined, "passages");
  }
  notes.push(
    `iKAT passage-id database file (plain SQLite, \`sqlite3 FILE 'select count(*) from passages'\` reads it): ${sizes.join("; ")}. libsql looks up through a memory map of the file (SQLite's mmap_size, up to 2 GiB): the pages of the file it touched count in its peak RSS.`,
  );
  if (!bsq.dir) notes.push(`iKAT better-sqlite3 rows skipped: ${bsq.why}`);
}
/** better-sqlite3 12.11.1 in bench/.work/bsq (npm, compiled against this Node's headers), or why not. */
function betterSqlite3() {
  const dir = join(WORK, "bsq");
  const installed = () =>
    spawnSync("node", ["-e", "require('better-sqlite3')(':memory:')"], { cwd: dir }).status === 0;
  if (existsSync(join(dir, "node_modules", "better-sqlite3")) && installed()) return { dir };
  const prefix = resolve(process.execPath, "..", "..");
  const env = { ...process.env };
  if (existsSync(join(prefix, "include", "node", "node_api.h"))) env.npm_config_nodedir = prefix;
  process.stderr.write("installing better-sqlite3 12.11.1 into bench/.work/bsq (compiles; minutes)\n");
  const r = spawnSync(
    "npm",
    ["install", "--prefix", dir, "--no-audit", "--no-fund", "--no-save", "better-sqlite3@12.11.1"],
    { env, encoding: "utf8" },
  );
  if (r.error) return { why: `npm not runnable (${r.error.message}).` };
  if (r.status !== 0 || !installed())
    return {
      why: `\`npm install better-sqlite3@12.11.1\` failed here (${(r.stderr || "").trim().split("\n").at(-1) || `exit ${r.status}`}).`,
    };
  return { dir };
}
function fmtIkat(x, d) {
  return x.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
}
ikatSection();
await trecEvalSection();
// Touché: the TIRA command's two streaming passes over the generated args.me file above, 50
// topics that all match most arguments (a worst case for scoring), DirichletLM.
row(
  `Touché run (TIRA), args.me-shaped ${(argsBytes / 2 ** 30).toFixed(2)} GiB, 50 topics, two passes`,
  "convkit (@convkit/touche, DirichletLM)",
  measure("node", ["bench/cases/touche.mjs", args, WORK], 1),
  argsBytes,
  "arguments",
);
installSection();

const agreement = spawnSync(
  "node",
  [
    "apps/convkit/bin/convkit-segment.js",
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
  const row1 = rows.find((r) => r.job === `${segmentJob(large)}, 1 thread`);
  const row2 = rows.find((r) => r.job === `${segmentJob(large)}, 2 threads`);
  if (seg1 && seg2 && row1 && row2) {
    // Per passage as well: the collection's documents need not keep as much text as these.
    const psg = 116_838_987;
    const pps = (r) => r.passages / r.seconds;
    out.push(
      `- iKAT collection (${docs.toLocaleString("en-US")} documents, at this benchmark's document sizes and its ${sizeLabel(large)} rates): ${hm(docs / seg1)} on one core, ${hm(docs / seg2)} on one 2-core machine, ${hm(docs / seg2 / 20)} on 20 (\`--shard i/20\`); one core segments ${fmt(row1.smbps, 1)} MB/s of text (${fmt(row1.mbps, 1)} MB/s of input). This corpus gives ${(row1.passages / row1.n).toFixed(2)} passages a document, the collection ${(psg / docs).toFixed(2)} (${psg.toLocaleString("en-US")} passages): at this run's passages per second, ${hm(psg / pps(row1))} on one core, ${hm(psg / pps(row2))} on one 2-core machine.`,
    );
  }
  if (seg1 && seg2 && s1 && s2 && pair)
    out.push(
      `- segment, 2 threads against 1: ${(seg2 / seg1).toFixed(2)}x at ${sizeLabel(large)}, ${(s2 / s1).toFixed(2)}x at ${sizeLabel(small)} (starting the pool, about 0.1 s, weighs more on the shorter run); two independent 1-thread processes at once reach ${(pair / seg1).toFixed(2)}x: what the two cores give with no pool at all.`,
    );
  // spaCy's rate per MB of text segmented, applied to the segmented bytes per document of the large corpus.
  const senter = rows.find((r) => r.job === spacyJob && r.impl.includes("senter"));
  const meta = readCorpusMeta(SEGMENT_WORK, large);
  if (senter?.smbps && meta) {
    const perDoc = meta.segmentedBytes / meta.docs / 2 ** 20;
    out.push(
      `- spaCy tokenizer + senter (as the official chunker runs it, 1 process) at ${fmt(senter.smbps, 2)} MB/s of text segmented: the iKAT collection at this corpus's ${fmt(perDoc * 2 ** 20)} bytes of segmented text a document would take ${hm((docs * perDoc) / senter.smbps)} on one core${seg1 && row1 ? `, ${(row1.smbps / senter.smbps).toFixed(0)}x convkit's heuristic splitter on one core` : ""}.`,
    );
  }
  const sp1 = rows.find((r) => r.job === `${segmentJob(SEGMENT_SIZES[0])}, --splitter spacy, 1 thread`);
  const sp2 = rows.find((r) => r.job === `${segmentJob(SEGMENT_SIZES[0])}, --splitter spacy, 2 threads`);
  const port = rows.find(
    (r) => r.job === spacyJob && r.impl.startsWith("convkit") && r.impl.includes("senter"),
  );
  if (sp1 && sp2) {
    const psg = 116_838_987;
    out.push(
      `- iKAT collection the official way (\`--splitter spacy\`, at this benchmark's ${sizeLabel(SEGMENT_SIZES[0])} rates): ${hm(docs / sp1.rate)} on one core, ${hm(docs / sp2.rate)} on one 2-core machine (${(sp2.rate / sp1.rate).toFixed(2)}x), ${hm(docs / sp2.rate / 20)} on 20; one core segments ${fmt(sp1.smbps, 1)} MB/s of text (${fmt(sp1.mbps, 1)} MB/s of input). By passages (the collection's ${psg.toLocaleString("en-US")}): ${hm(psg / (sp1.passages / sp1.seconds))} on one core, ${hm(psg / (sp2.passages / sp2.seconds))} on one 2-core machine.`,
    );
  }
  if (port && senter?.smbps)
    out.push(
      `- tokenizer + senter on the same texts, one thread: convkit ${fmt(port.smbps, 2)} MB/s of text, spaCy ${fmt(senter.smbps, 2)} MB/s: ${(port.smbps / senter.smbps).toFixed(1)}x.`,
    );
  const ev = rate("gen:eval, 49 dev topics");
  // ClariQ train + dev + test: 1,611,533 records and 117,354 contexts (Q00001 each), two variants.
  const queries = 2 * (1_611_533 + 117_354);
  if (ev)
    out.push(
      `- ClariQ eval dicts, train + dev + test (${queries.toLocaleString("en-US")} queries at 1,000 documents per topic): ${hm(queries / ev)} on one 2-core machine.`,
    );
  const dbs = rows.filter((r) => r.job.startsWith("iKAT passage-id database"));
  if (dbs.length)
    out.push(
      `- iKAT passage-id database, 116,838,987 rows: ${dbs.map((r) => `${hm(116_838_987 / r.rate)} (${r.impl.match(/libsql|better-sqlite3/)?.[0] ?? r.impl})`).join(", ")}.`,
    );
  return out;
}

/** What the segment rows ran on: the corpus and its measurements (bench/gen-web-corpus.mjs, the meta files). */
function corpusSection() {
  const mib = (b) => `${fmt(b / 2 ** 20, 1)} MiB`;
  const pct = (a, b) => `${fmt((100 * a) / b, 1)}%`;
  const sizes = [...new Set([...SEGMENT_SIZES, SPACY_MB])].sort((a, b) => a - b);
  const metas = sizes.map((mb) => [mb, readCorpusMeta(SEGMENT_WORK, mb)]).filter(([, m]) => m);
  if (metas.length === 0) return [];
  const shares = metas.at(-1)[1].sourceShares;
  return [
    "## Segment corpus",
    "",
    "ClueWeb22 txt records (`ClueWeb22-ID`, `URL`, `URL-hash`, `Language`, `Clean-Text`), generated",
    "(seeded, the same every time; a smaller corpus is the head of a larger) by bench/gen-web-corpus.mjs",
    "from real text read from the shared data by path: the official iKAT 2023 passages rebuilt into",
    "documents (grouped by doc_id in passage_id order, consecutive passages joined with their overlap",
    "once), the seed documents' paragraphs, ClariQ questions and answers, Qulac descriptions, questions",
    "and answers; titles from ClariQ initial requests and Qulac topics. A record is a title line and",
    "runs of consecutive texts, one a line, to a drawn length (log-normal, median ~5 KB; 1% of 100 KB to",
    "1 MB), fresh ids. The chunker segments only the first 10,000 code points of each document: most",
    "of the long tail's bytes are read and not segmented.",
    `Shares of body text bytes: ${Object.entries(shares)
      .map(([k, v]) => `${k} ${fmt(100 * v)}%`)
      .join(", ")}.`,
    "",
    "| corpus | documents | input | text segmented | documents over 10,000 code points | tail documents (100 KB-1 MB) | tail share of input | median record |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...metas.map(
      ([mb, m]) =>
        `| ${sizeLabel(mb)}${mb === SPACY_MB ? " (spaCy rows)" : ""} | ${fmt(m.docs)} | ${mib(m.inputBytes)} | ${mib(m.segmentedBytes)} (${pct(m.segmentedBytes, m.inputBytes)}) | ${pct(m.cutDocs, m.docs)} | ${fmt(m.tail.docs)} (${pct(m.tail.docs, m.docs)}) | ${pct(m.tail.inputBytes, m.inputBytes)} | ${fmt(m.medianDocBytes)} B |`,
    ),
    "",
  ];
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
  "| job | implementation | items | seconds | items/s | MB/s | MB/s segmented | peak RSS MiB | runs |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map(
    (r) =>
      `| ${r.job} | ${r.impl} | ${fmt(r.n)} ${r.unit} | ${fmt(r.seconds, 3)} | ${fmt(r.rate)} | ${fmt(r.mbps, 1)} | ${fmt(r.smbps, 1)} | ${fmt(r.rss)} | ${r.runs} |`,
  ),
  "",
  "MB/s counts bytes of input as read; MB/s segmented (segment rows) counts only the text the chunker",
  "actually segments: each document as the iKAT preset prepares it (`prepareText`: newlines flattened,",
  "stripped, first 10,000 code points), in UTF-8 bytes, measured once when the corpus is generated.",
  ...(notes.length ? ["", ...notes] : []),
  "",
  ...corpusSection(),
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

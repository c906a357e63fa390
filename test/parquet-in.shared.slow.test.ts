// Parquet in (issue #41): a run or qrels as a Parquet table, in convkit's layout or ranx's, gives
// the same bytes out as the same lines as text: trec-eval (all measures, -q), compare, clariq-eval
// (the original tool's goldens), ikat eval-passages. Real runs and qrels: trec_eval's own test
// files, ClariQ's dev sample runs, an iKAT 2024 sample run; the tables are written here.
import { execFileSync, spawnSync } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import {
  CLARIFICATION_NEED_SCHEMA,
  collect,
  QRELS_ENTRY_SCHEMA,
  RANX_QRELS_SCHEMA,
  RANX_RUN_SCHEMA,
  RUN_ENTRY_SCHEMA,
  type RunEntry,
  readClarificationNeedRun,
  readMultiTurnRun,
  readQrels,
  readRun,
} from "@convkit/formats";
import { type Codec, writeParquet } from "@convkit/parquet";
import {
  clariqDataWithDicts,
  cliBin,
  REPO,
  requires,
  runCliAsync,
  SHARED,
  shared,
  tempDir,
} from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";

const FIXTURES = join(REPO, "test/fixtures/trec_eval");

/** Small row groups, so that topics straddle them; each codec convkit writes. */
const OPTS = (codec: Codec) => ({ codec, rowGroupRows: 1000 });

async function runTable(
  entries: readonly RunEntry[],
  out: string,
  layout: "own" | "ranx",
  codec: Codec = "zstd",
) {
  if (layout === "own") await writeParquet(out, RUN_ENTRY_SCHEMA, [entries], OPTS(codec));
  else
    await writeParquet(
      out,
      RANX_RUN_SCHEMA,
      [entries.map((e) => ({ q_id: e.qid, doc_id: e.docno, score: e.score }))],
      OPTS(codec),
    );
}

async function qrelsTable(text: string, out: string, layout: "own" | "ranx", codec: Codec = "zstd") {
  const rows = await collect(readQrels(text, { trecEval: true }));
  if (layout === "own") await writeParquet(out, QRELS_ENTRY_SCHEMA, [rows], OPTS(codec));
  else
    await writeParquet(
      out,
      RANX_QRELS_SCHEMA,
      [rows.map((q) => ({ q_id: q.qid, doc_id: q.docno, score: q.rel }))],
      OPTS(codec),
    );
}

/** The run's lines with every tag `tag` (what a ranx table named `tag.parquet` stands for). */
function retagged(text: string, out: string, tag: string): void {
  const lines = readFileSync(text, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => `${l.trim().split(/\s+/).slice(0, 5).join(" ")} ${tag}`);
  writeFileSync(out, `${lines.join("\n")}\n`);
}

async function cli(app: string, args: string[], input?: Buffer): Promise<string> {
  const r = await runCliAsync(app, args, input);
  expect(r.stderr, `${app} ${args.join(" ")}`).toBe("");
  expect(r.code).toBe(0);
  return r.stdout;
}

requires("shared").describe("Parquet runs and qrels give what their lines give (shared)", () => {
  let dir: string;
  /** [name, qrels text, run text] of each real pair. */
  const pairs: [string, string, string][] = [];

  beforeAll(async () => {
    dir = tempDir("parquet-in-");
    pairs.push([
      "trec_eval's qrels.test, results.test",
      join(FIXTURES, "qrels.test"),
      join(FIXTURES, "results.test"),
    ]);
    // An iKAT 2024 sample run as TREC lines, and qrels on some of its passages (grades -1..3).
    const trec = join(dir, "ikat.trec");
    await cli("ikat", [
      "convert",
      shared("data", "ikat", "run_validation", "2024_sample_run.json"),
      "-o",
      trec,
    ]);
    const lines = readFileSync(trec, "utf8").trim().split("\n");
    const qrels = lines
      .filter((_, i) => i % 3 === 0)
      .map((l, i) => {
        const f = l.split(/\s+/);
        return `${f[0]} 0 ${f[2]} ${(i % 5) - 1}`;
      });
    writeFileSync(join(dir, "ikat.qrels"), `${qrels.join("\n")}\n`);
    pairs.push(["an iKAT 2024 sample run", join(dir, "ikat.qrels"), trec]);
  });

  for (const k of [0, 1])
    it(`trec-eval on real pair ${k + 1}: convkit's layout, ranx's, each mixed with text, every codec, stdin: byte for byte`, async () => {
      const codecs: Codec[] = ["zstd", "snappy", "none"];
      const [name, qrels, run] = pairs[k]!;
      const entries = await collect(readRun(run, { trecEval: true }));
      const own = { q: join(dir, `q${k}.parquet`), r: join(dir, `r${k}.parquet`) };
      await qrelsTable(qrels, own.q, "own", codecs[k % 3]);
      await runTable(entries, own.r, "own", codecs[(k + 1) % 3]);
      // ranx: the tag is the file's stem; the text run it stands for carries that tag.
      const ranx = {
        q: join(dir, `rq${k}.parquet`),
        r: join(dir, `ranx${k}.parquet`),
        text: join(dir, `ranx${k}.txt`),
      };
      await qrelsTable(qrels, ranx.q, "ranx", codecs[(k + 2) % 3]);
      await runTable(entries, ranx.r, "ranx");
      retagged(run, ranx.text, `ranx${k}`);
      const all = ["-m", "all_trec", "-q"];
      const text = await cli("trec-eval", [...all, qrels, run]);
      expect(text.split("\n").length, name).toBeGreaterThan(100);
      expect(await cli("trec-eval", [...all, own.q, own.r]), name).toBe(text);
      expect(await cli("trec-eval", [...all, qrels, own.r]), name).toBe(text);
      expect(await cli("trec-eval", [...all, ranx.q, run]), name).toBe(text);
      expect(await cli("trec-eval", [...all, own.q, "-"], readFileSync(own.r)), name).toBe(text);
      // Default measures (the runid line: the ranx table's stem) and -c -M.
      for (const args of [[], ["-c", "-M", "100", ...all]]) {
        const retaggedText = await cli("trec-eval", [...args, qrels, ranx.text]);
        expect(retaggedText).toContain(`ranx${k}`);
        expect(await cli("trec-eval", [...args, ranx.q, ranx.r]), `${name} ${args.join(" ")}`).toBe(
          retaggedText,
        );
      }
    });

  it("compare --qrels: Parquet runs and qrels as their lines (trec_eval's test files, map and P.10 per topic)", async () => {
    const runs = join(dir, "cmp-text");
    const tables = join(dir, "cmp-parquet");
    mkdirSync(runs);
    mkdirSync(tables);
    // Two runs from results.test: as it is, and every score negated (another ranking).
    const entries = await collect(readRun(join(FIXTURES, "results.test"), { trecEval: true }));
    const flipped = entries.map((e) => ({ ...e, score: -e.score }));
    writeFileSync(join(runs, "a"), readFileSync(join(FIXTURES, "results.test")));
    writeFileSync(
      join(runs, "b"),
      flipped.map((e) => `${e.qid} Q0 ${e.docno} ${e.rank} ${e.score} flip`).join("\n"),
    );
    await runTable(entries, join(tables, "a"), "own");
    await runTable(
      flipped.map((e) => ({ ...e, tag: "flip" })),
      join(tables, "b"),
      "own",
      "snappy",
    );
    await qrelsTable(join(FIXTURES, "qrels.test"), join(tables, "qrels"), "ranx");
    const args = ["-m", "map", "-m", "P.10", "--format", "json"];
    const text = await cli("compare", [
      "--qrels",
      join(FIXTURES, "qrels.test"),
      ...args,
      join(runs, "a"),
      join(runs, "b"),
    ]);
    expect(JSON.parse(text).pairs.length).toBeGreaterThan(0);
    expect(
      await cli("compare", ["--qrels", join(tables, "qrels"), ...args, join(tables, "a"), join(tables, "b")]),
    ).toBe(text);
  });

  it("ikat eval-passages: Parquet qrels, and the run's passage ranking as a table, score as the JSON run", async () => {
    const [, qrels, trec] = pairs[1]!;
    const run = shared("data", "ikat", "run_validation", "2024_sample_run.json");
    const args = ["-q", "-m", "ndcg_cut.5", "-m", "P.20", "-m", "map"];
    const text = await cli("ikat", ["eval-passages", "--qrels", qrels, run, ...args]);
    expect(text).toMatch(/^map\s+\t/m);
    await qrelsTable(qrels, join(dir, "ikat-q.parquet"), "own");
    await runTable(await collect(readRun(trec)), join(dir, "ikat-r.parquet"), "own");
    expect(await cli("ikat", ["eval-passages", "--qrels", join(dir, "ikat-q.parquet"), run, ...args])).toBe(
      text,
    );
    expect(
      await cli("ikat", [
        "eval-passages",
        "--qrels",
        join(dir, "ikat-q.parquet"),
        join(dir, "ikat-r.parquet"),
        ...args,
      ]),
    ).toBe(text);
    // On stdin, through a named FIFO and through a shell's <(cat …): read once, its head replayed,
    // as trec-eval reads them (was: the JSON reader, "expected valid UTF-8, found byte 0x8e").
    const table = readFileSync(join(dir, "ikat-r.parquet"));
    const q = ["eval-passages", "--qrels", join(dir, "ikat-q.parquet")];
    expect(await cli("ikat", [...q, "-", ...args], table)).toBe(text);
    const fifo = join(dir, "ikat-r.fifo");
    execFileSync("mkfifo", [fifo]);
    const writer = createWriteStream(fifo);
    writer.on("error", () => {});
    writer.end(table);
    expect(await cli("ikat", [...q, fifo, ...args])).toBe(text);
    const quoted = [...q, ...args].map((a) => `"${a}"`).join(" ");
    const r = spawnSync(
      "bash",
      ["-c", `"${process.execPath}" "${cliBin("ikat")}" ${quoted} <(cat "${join(dir, "ikat-r.parquet")}")`],
      { cwd: REPO, maxBuffer: 1 << 28, timeout: 60_000 },
    );
    expect(r.stderr.toString()).toBe("");
    expect(r.stdout.toString()).toBe(text);
  });

  // clariq-eval: each golden case's run as a table (both layouts) prints the golden stdout and out_file.
  const GOLDENS = [
    "question_relevance.dev.dev_bm25.json",
    "question_relevance.dev.dev_BERT-reranker.json",
    "document_relevance.dev.dev_bm25.json",
    "document_relevance.dev.dev_worst_q.json",
    "document_relevance.dev.multi.dev_bm25_multi_turn.json.gz",
    "clarification_need.dev.cneed_0.json",
  ];
  for (const name of GOLDENS)
    it(`clariq-eval ${name}: the run as Parquet (convkit's layout and ranx's) gives the golden output`, async () => {
      const raw = readFileSync(shared("golden", "clariq-eval", "expected", name));
      const g = JSON.parse((name.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8")) as {
        command: string[];
        run_file: string;
        stdout: string;
        out_file?: unknown;
      };
      const text = g.run_file.startsWith("data/")
        ? join(SHARED, g.run_file)
        : join(SHARED, "golden", "clariq-eval", g.run_file);
      const tables: string[] = [];
      const base = join(dir, name.replace(/\.json(\.gz)?$/, ""));
      if (name.startsWith("clarification_need")) {
        const rows = await collect(readClarificationNeedRun(text));
        await writeParquet(`${base}.parquet`, CLARIFICATION_NEED_SCHEMA, [rows]);
        tables.push(`${base}.parquet`);
      } else {
        // A multi-turn run's items are question texts (quoted in its lines, plain in a table).
        const entries: RunEntry[] = name.includes(".multi.")
          ? (await collect(readMultiTurnRun(text))).map((e) => ({
              qid: String(e.context_id),
              q0: e.q0,
              docno: e.question,
              rank: e.rank,
              score: e.score,
              tag: e.run,
            }))
          : await collect(readRun(text));
        await runTable(entries, `${base}.own.parquet`, "own");
        await runTable(entries, `${base}.ranx.parquet`, "ranx", "snappy");
        tables.push(`${base}.own.parquet`, `${base}.ranx.parquet`);
        // And as convkit's own convert writes a multi-turn run (MULTI_TURN_RUN_SCHEMA: context_id,
        // question): was "expected a run as a table … found columns context_id, q0, question, …".
        if (name.includes(".multi.")) {
          const c = await runCliAsync("convert", [text, "--to", "parquet", "-o", `${base}.convert.parquet`]);
          expect(c.code, c.stderr).toBe(0);
          tables.push(`${base}.convert.parquet`);
        }
      }
      const data = clariqDataWithDicts();
      for (const table of tables) {
        const out = join(dir, "out.json");
        const stdout = await cli("clariq-eval", [
          ...g.command.slice(1),
          "--data_dir",
          data,
          "--run_file",
          table,
          "--out_file",
          out,
        ]);
        expect(stdout, table).toBe(g.stdout);
        if (g.out_file) expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(g.out_file);
      }
    });

  it("compare --clariq: the sample runs as Parquet tables give the same JSON as their lines", async () => {
    const names = ["dev_bm25", "dev_BERT-ranker", "dev_no_q"];
    const tables = join(dir, "clariq-tables");
    mkdirSync(tables);
    for (const [i, n] of names.entries())
      await runTable(
        await collect(readRun(shared("data", "clariq", "sample_runs", n))),
        join(tables, n),
        i === 1 ? "ranx" : "own",
      );
    const data = clariqDataWithDicts();
    const args = ["--clariq", "document_relevance", "--data_dir", data, "--test", "t", "--format", "json"];
    const text = await cli("compare", [
      ...args,
      ...names.map((n) => shared("data", "clariq", "sample_runs", n)),
    ]);
    expect(JSON.parse(text).runs).toEqual(names);
    expect(await cli("compare", [...args, ...names.map((n) => join(tables, n))])).toBe(text);
  });
});

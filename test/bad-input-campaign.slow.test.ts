// The bad-input campaign: inputs derived from every fixture format by seeded mutations (cuts at
// random offsets, flipped bytes, invalid UTF-8, a field removed or added, a huge line, empty
// files), fed to every CLI that reads that format. Each run must end with exit 0 (the input is
// still valid) or exit 2 with one stderr line naming the file; never exit 1, never a stack trace,
// never a partial output, never a hang. The counts are printed (RELIABILITY.md keeps them).
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { cliBin, REPO, runCli, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

/** The seed: a failure reproduces with the same cases. */
const SEED = 20261123;
/** Mutated inputs per base file. */
const PER_BASE = 16;
/**
 * A run that takes longer hangs, as far as this campaign is concerned: a deadline for a real
 * process, far above any case's time (a few seconds at most on a busy 2-core machine), so that
 * only a run that would never end reaches it.
 */
const TIME_LIMIT_MS = 120_000;

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
}

type Mutation = (b: Buffer, r: () => number) => Buffer;

const lineStarts = (b: Buffer) => {
  const out = [0];
  for (let i = 0; i < b.length - 1; i++) if (b[i] === 10) out.push(i + 1);
  return out;
};
const pick = <T>(xs: readonly T[], r: () => number) => xs[Math.floor(r() * xs.length)]!;

/** A random line of `b`: its byte bounds [s, e), its text, and its field separator (tab, else space). */
function someLine(b: Buffer, r: () => number) {
  const s = pick(lineStarts(b), r);
  const end = b.indexOf(10, s);
  const e = end < 0 ? b.length : end;
  const line = b.subarray(s, e).toString("utf8");
  return { s, e, line, sep: line.includes("\t") ? "\t" : " " };
}

const MUTATIONS: [string, Mutation][] = [
  ["cut", (b, r) => b.subarray(0, Math.floor(r() * b.length))],
  [
    "flipped bytes",
    (b, r) => {
      const c = Buffer.from(b);
      for (let k = 0; k < 1 + Math.floor(r() * 4); k++) c[Math.floor(r() * c.length)] = Math.floor(r() * 256);
      return c;
    },
  ],
  [
    "invalid UTF-8",
    (b, r) => {
      const at = Math.floor(r() * b.length);
      return Buffer.concat([b.subarray(0, at), Buffer.from([0xff, 0xc3]), b.subarray(at)]);
    },
  ],
  [
    "a field removed",
    (b, r) => {
      const { s, e, line, sep } = someLine(b, r);
      return Buffer.concat([
        b.subarray(0, s),
        Buffer.from(line.split(sep).slice(1).join(sep)),
        b.subarray(e),
      ]);
    },
  ],
  [
    "a field added",
    (b, r) => {
      const { e, sep } = someLine(b, r);
      return Buffer.concat([b.subarray(0, e), Buffer.from(`${sep}extra`), b.subarray(e)]);
    },
  ],
  [
    "a huge line",
    (b, r) => {
      const s = pick(lineStarts(b), r);
      return Buffer.concat([b.subarray(0, s), Buffer.alloc(2 << 20, 0x61), Buffer.from("\n"), b.subarray(s)]);
    },
  ],
  ["empty", () => Buffer.alloc(0)],
  ["only a newline", () => Buffer.from("\n")],
];

/** How a base file's mutants are stored: as they are, or compressed after mutation (the archive intact). */
type Wrap = "plain" | "gzip" | "bzip2";
const wrap = (b: Buffer, w: Wrap) =>
  w === "gzip"
    ? gzipSync(b)
    : w === "bzip2"
      ? spawnSync("bzip2", ["-c"], { input: b, maxBuffer: 1 << 30 }).stdout
      : b;

interface Target {
  /** What the command does, for the counts. */
  name: string;
  /**
   * The command line for an input path and an output path inside `out`. The input's folder holds
   * the base's companions too, for commands that read a data folder (`--data DIR`).
   */
  args: (input: string, out: string) => string[];
  app: string;
  /**
   * The last stderr line of the command's own verdict on input it read without trouble (exit 2:
   * `convkit-ikat validate`'s INVALID after the rules each run broke, one line each).
   */
  verdict?: RegExp;
}

interface Base {
  format: string;
  file: string;
  bytes: Buffer;
  ext: string;
  wraps: Wrap[];
  targets: Target[];
  /** Valid files written beside each mutant (the rest of a data folder). */
  companions?: Record<string, Buffer>;
}

const convert: Target = { name: "convert", app: "convert", args: (i, o) => [i, "-o", join(o, "out.jsonl")] };
const fixture = (p: string) => readFileSync(join(REPO, p));

function bases(work: string): Base[] {
  // A gen:synthetic pickle (in its tar.gz) from the fixtures, for the pickle and tar formats.
  const syn = join(work, "syn");
  const g = runCli("gen-synthetic", ["--splits", "dev", "--format", "pickle", "--out", syn]);
  if (g.code !== 0) throw new Error(g.stderr);
  const qrels = join(work, "valid.qrels");
  const run = join(work, "valid.run");
  writeFileSync(qrels, fixture("data/clariq/sample.qrel"));
  writeFileSync(
    run,
    fixture("data/clariq/sample.qrel")
      .toString()
      .trim()
      .split("\n")
      .map((l, i) => {
        const [q, , d] = l.split(" ");
        return `${q} Q0 ${d} ${i + 1} ${100 - i} r`;
      })
      .join("\n"),
  );
  const trecEvalQrels: Target = { name: "trec-eval QRELS", app: "trec-eval", args: (i) => [i, run] };
  const trecEvalRun: Target = { name: "trec-eval RUN", app: "trec-eval", args: (i) => [qrels, i] };
  const toucheEvalQrels: Target = {
    name: "touche eval --relevance",
    app: "touche",
    args: (i) => ["eval", run, "--relevance", i, "--quality", qrels],
  };
  const toucheEvalRun: Target = {
    name: "touche eval RUN",
    app: "touche",
    args: (i) => ["eval", i, "--relevance", qrels, "--quality", qrels],
  };
  const segmentRun: Target = {
    name: "segment run",
    app: "segment",
    args: (i, o) => ["run", i, "--format", "jsonl,hashes", "-o", join(o, "passages")],
  };
  const sentences: Target = {
    name: "segment sentences",
    app: "segment",
    args: (i, o) => ["sentences", i, "-o", join(o, "s.jsonl")],
  };
  // Commands that read a ClariQ data folder: the mutant is one of its files, the rest are valid.
  const dataDir = (i: string) => dirname(i);
  const genSynthetic: Target = {
    name: "gen-synthetic",
    app: "gen-synthetic",
    args: (i, o) => ["--data", dataDir(i), "--splits", "dev", "--out", join(o, "synthetic")],
  };
  const singleTurn: Target = {
    name: "baselines single-turn",
    app: "baselines",
    args: (i, o) => ["single-turn", "--data", dataDir(i), "--split", "dev", "-o", join(o, "bm25.run")],
  };
  const rankingRun = join(work, "question_ranking.run");
  const needRun = join(work, "clarification_need.run");
  writeFileSync(rankingRun, fixture("data/clariq/runs/question_ranking.run"));
  writeFileSync(needRun, fixture("data/clariq/runs/clarification_need.run"));
  const clariqEvalTopics: Target = {
    name: "clariq-eval (topics)",
    app: "clariq-eval",
    args: (i) => ["--eval_task", "question_relevance", "--data_dir", dataDir(i), "--run_file", rankingRun],
  };
  const clariqEvalNeedTopics: Target = {
    name: "clariq-eval clarification_need (topics)",
    app: "clariq-eval",
    args: (i) => ["--eval_task", "clarification_need", "--data_dir", dataDir(i), "--run_file", needRun],
  };
  const clariqEvalRanking: Target = {
    name: "clariq-eval question_relevance (run)",
    app: "clariq-eval",
    args: (i, o) => [
      "--eval_task",
      "question_relevance",
      "--data_dir",
      dataDir(i),
      "--run_file",
      i,
      "--out_file",
      join(o, "perf.json"),
    ],
  };
  const clariqEvalNeed: Target = {
    name: "clariq-eval clarification_need (run)",
    app: "clariq-eval",
    args: (i) => ["--eval_task", "clarification_need", "--data_dir", dataDir(i), "--run_file", i],
  };
  const devTsv = fixture("data/clariq/dev.sample.tsv");
  const bankTsv = fixture("data/clariq/question_bank.sample.tsv");
  // iKAT: a 2023 run valid against the fixture topics, and the topics against that run.
  const ikatTopics = join(work, "ikat-topics.json");
  const ikatRun = join(work, "ikat-run.json");
  writeFileSync(ikatTopics, fixture("data/ikat/topics-2023.sample.json"));
  const ptkbOf = (id: string, text: string) => ({ id, text, score: 1 });
  const topic0 = JSON.parse(fixture("data/ikat/topics-2023.sample.json").toString())[0];
  writeFileSync(
    ikatRun,
    JSON.stringify({
      run_name: "r",
      run_type: "automatic",
      turns: topic0.turns.map((t: { turn_id: string | number }) => ({
        turn_id: `${topic0.number}_${t.turn_id}`,
        responses: [
          {
            rank: 1,
            text: "an answer",
            ptkb_provenance: [ptkbOf("1", topic0.ptkb["1"])],
            passage_provenance: [
              { id: "clueweb22-en0034-09-03452:1", text: "p", score: 1, used: true },
              { id: "clueweb22-en0034-09-03452:2", text: "q", score: 0.5, used: false },
            ],
          },
        ],
      })),
    }),
  );
  const ikatVerdict = /: INVALID \(\d+ errors, \d+ warnings\)$/;
  const ikatValidateTopics: Target = {
    name: "ikat validate --topics",
    app: "ikat",
    args: (i) => ["validate", "--year", "2023", "--topics", i, ikatRun],
    verdict: ikatVerdict,
  };
  const ikatValidateRun: Target = {
    name: "ikat validate RUN",
    app: "ikat",
    args: (i) => ["validate", "--year", "2023", "--topics", ikatTopics, i],
    verdict: ikatVerdict,
  };
  const texts = fixture("data/qulac/qulac.sample.json");
  const docs = Object.values(JSON.parse(texts.toString()).topic_desc as Record<string, string>).slice(0, 20);
  const jsonl = Buffer.from(
    `${docs.map((t, i) => JSON.stringify({ id: `d${i}`, text: `${t}. ${t}? ${t}!` })).join("\n")}\n`,
  );
  const clueweb = Buffer.from(
    `${docs
      .map((t, i) =>
        JSON.stringify({
          "ClueWeb22-ID": `clueweb22-en0000-00-0000${i}`,
          URL: `https://x.org/${i}`,
          "Clean-Text": `${t}. ${t}.`,
        }),
      )
      .join("\n")}\n`,
  );
  const trecweb = Buffer.from(
    docs
      .map(
        (t, i) =>
          `<DOC>\n<DOCNO>d${i}</DOCNO>\n<DOCHDR>\nhttps://x.org/${i}\n</DOCHDR>\n${t}. ${t}.\n</DOC>\n`,
      )
      .join(""),
  );
  return [
    {
      format: "TSV (ClariQ topics)",
      file: "dev.tsv",
      bytes: devTsv,
      ext: "tsv",
      wraps: ["plain", "gzip", "bzip2"],
      targets: [convert, genSynthetic, singleTurn, clariqEvalTopics, clariqEvalNeedTopics],
      companions: { "question_bank.tsv": bankTsv },
    },
    {
      format: "TSV (question bank)",
      file: "question_bank.tsv",
      bytes: bankTsv,
      ext: "tsv",
      wraps: ["plain", "gzip"],
      targets: [convert, singleTurn],
      companions: { "dev.tsv": devTsv },
    },
    {
      format: "ClariQ question ranking run",
      file: "ranking.run",
      bytes: fixture("data/clariq/runs/question_ranking.run"),
      ext: "run",
      wraps: ["plain", "gzip"],
      targets: [convert, clariqEvalRanking],
      companions: { "dev.tsv": devTsv },
    },
    {
      format: "ClariQ clarification-need run",
      file: "need.run",
      bytes: fixture("data/clariq/runs/clarification_need.run"),
      ext: "run",
      wraps: ["plain"],
      targets: [convert, clariqEvalNeed],
      companions: { "dev.tsv": devTsv },
    },
    {
      format: "qrels",
      file: "sample.qrel",
      bytes: fixture("data/clariq/sample.qrel"),
      ext: "qrel",
      wraps: ["plain", "gzip"],
      targets: [convert, trecEvalQrels, toucheEvalQrels],
    },
    {
      format: "run",
      file: "q.run",
      bytes: readFileSync(run),
      ext: "run",
      wraps: ["plain", "bzip2"],
      targets: [convert, trecEvalRun, toucheEvalRun],
    },
    {
      format: "multi-turn run",
      file: "mt.run",
      bytes: fixture("data/clariq/runs/multi_turn.run"),
      ext: "run",
      wraps: ["plain"],
      targets: [convert],
    },
    {
      format: "JSON (Qulac)",
      file: "qulac.json",
      bytes: texts,
      ext: "json",
      wraps: ["plain", "gzip"],
      targets: [convert],
    },
    {
      format: "JSON (iKAT topics)",
      file: "topics.json",
      bytes: fixture("data/ikat/topics-2023.sample.json"),
      ext: "json",
      wraps: ["plain"],
      targets: [convert, ikatValidateTopics],
    },
    {
      format: "JSON (iKAT run)",
      file: "run.json",
      bytes: readFileSync(ikatRun),
      ext: "json",
      wraps: ["plain", "gzip"],
      targets: [convert, ikatValidateRun],
    },
    {
      format: "JSON (args.me)",
      file: "args.json",
      bytes: fixture("data/touche/debateorg.sample.json"),
      ext: "json",
      wraps: ["plain"],
      targets: [convert],
    },
    {
      format: "XML (Touché topics)",
      file: "topics.xml",
      bytes: fixture("data/touche/topics.sample.xml"),
      ext: "xml",
      wraps: ["plain"],
      targets: [convert],
    },
    {
      format: "JSONL {id, text}",
      file: "texts.jsonl",
      bytes: jsonl,
      ext: "jsonl",
      wraps: ["plain", "gzip"],
      targets: [sentences, segmentRun],
    },
    {
      format: "ClueWeb22 JSONL",
      file: "cw.json",
      bytes: clueweb,
      ext: "json",
      wraps: ["plain", "bzip2"],
      targets: [convert, segmentRun],
    },
    {
      format: "TrecWeb",
      file: "docs.trecweb",
      bytes: trecweb,
      ext: "trecweb",
      wraps: ["plain", "gzip"],
      targets: [convert, segmentRun],
    },
    {
      format: "pickle in tar.gz",
      file: "dev_synthetic.pkl.tar.gz",
      bytes: readFileSync(join(syn, "dev_synthetic.pkl.tar.gz")),
      ext: "tar.gz",
      wraps: ["plain"],
      targets: [convert],
    },
  ];
}

interface Outcome {
  format: string;
  target: string;
  mutation: string;
  code: number | null;
  stderr: string;
  /** Files the run left in its output folder. */
  left: string[];
  ms: number;
}

function runCase(
  app: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stderr: string; ms: number }> {
  const bin = cliBin(app);
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), TIME_LIMIT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, ms: Date.now() - t0 });
    });
  });
}

/** What is wrong with an outcome, or undefined. */
function verdict(o: Outcome, files: readonly string[], target: Target): string | undefined {
  if (o.code === null) return "hang (killed)";
  if (o.code === 0) return undefined;
  if (o.code !== 2) return `exit ${o.code}`;
  const lines = o.stderr.trimEnd().split("\n");
  if (/\n\s+at /.test(o.stderr)) return "stack trace";
  if (target.verdict?.test(lines[lines.length - 1]!)) return undefined;
  if (lines.length !== 1) return `${lines.length} stderr lines`;
  // The mutant, or another file of the command when the fault is between them (a run's topic
  // the mutated topics lack is the run's line).
  if (!files.some((f) => lines[0]!.startsWith(f)) && !lines[0]!.startsWith("<stdin>"))
    return "the line does not name the file";
  if (o.left.length > 0) return `output left behind: ${o.left.join(", ")}`;
  return undefined;
}

describe("bad-input campaign (slow)", () => {
  // 512 processes, two at a time, beside another test file (CI runs two): 126 s alone, 240-300 s
  // beside others on 2 cores. A hang is caught per case (TIME_LIMIT_MS), so the whole gets room.
  it("every mutated input ends in exit 0 or one line and exit 2, no output left, no hang", {
    timeout: 1_800_000,
  }, async () => {
    const work = tempDir("convkit-campaign-");
    const r = rng(SEED);
    const jobs: { base: Base; target: Target; mutation: string; input: string; out: string }[] = [];
    let k = 0;
    for (const base of bases(work)) {
      for (let i = 0; i < PER_BASE; i++) {
        const [mutation, mutate] = MUTATIONS[i % MUTATIONS.length]!;
        const w = base.wraps[Math.floor(r() * base.wraps.length)]!;
        const bytes = base.ext === "tar.gz" ? mutate(base.bytes, r) : wrap(mutate(base.bytes, r), w);
        const suffix = base.ext === "tar.gz" ? "" : w === "gzip" ? ".gz" : w === "bzip2" ? ".bz2" : "";
        const dir = join(work, `case-${k++}`);
        mkdirSync(dir);
        const input = join(dir, `${base.file}${suffix}`);
        writeFileSync(input, bytes);
        for (const [name, content] of Object.entries(base.companions ?? {}))
          writeFileSync(join(dir, name), content);
        for (const target of base.targets) {
          const out = join(dir, `out-${target.name.replace(/\W+/g, "-")}`);
          mkdirSync(out);
          jobs.push({ base, target, mutation: `${mutation}${suffix ? ` (${w})` : ""}`, input, out });
        }
      }
    }
    const outcomes: (Outcome & { problem?: string; input: string })[] = [];
    // Two at a time (the machines have 2 cores).
    let next = 0;
    await Promise.all(
      [0, 1].map(async () => {
        while (next < jobs.length) {
          const j = jobs[next++]!;
          const args = j.target.args(j.input, j.out);
          const res = await runCase(j.target.app, args, work);
          // Files, not folders: an output folder made before the input failed holds nothing.
          const left =
            res.code === 2
              ? readdirSync(j.out, { recursive: true, withFileTypes: true })
                  .filter((e) => e.isFile())
                  .map((e) => e.name)
              : [];
          const o: Outcome = {
            format: j.base.format,
            target: j.target.name,
            mutation: j.mutation,
            ...res,
            left,
          };
          outcomes.push({
            ...o,
            problem: verdict(o, [j.input, ...args.filter((a) => a.startsWith(work))], j.target),
            input: j.input,
          });
        }
      }),
    );
    rmSync(work, { recursive: true, force: true });
    const count = (code: number | null) => outcomes.filter((o) => o.code === code).length;
    const bad = outcomes.filter((o) => o.problem);
    const summary = [
      `seed ${SEED}: ${new Set(jobs.map((j) => j.input)).size} mutated inputs, ${outcomes.length} runs, exit 0: ${count(0)}, exit 2: ${count(2)}, exit 1: ${count(1)}, killed: ${count(null)}, problems: ${bad.length}`,
      ...[...new Set(outcomes.map((o) => o.format))].map((f) => {
        const of = outcomes.filter((o) => o.format === f);
        return `  ${f}: ${of.length} runs, exit 0: ${of.filter((o) => o.code === 0).length}, exit 2: ${of.filter((o) => o.code === 2).length}`;
      }),
    ].join("\n");
    console.log(summary);
    expect(
      bad.map(
        (o) => `${o.format} / ${o.target} / ${o.mutation}: ${o.problem}: ${o.stderr.trim().slice(0, 300)}`,
      ),
    ).toEqual([]);
    // The campaign tests something: most mutants are refused, some still valid.
    expect(count(2)).toBeGreaterThan(outcomes.length / 3);
  });
});

// convkit trec-eval side by side with trec_eval's own binary (issue #31), on generated runs
// (bench/gen-trec-eval.mjs): whole processes, alternating, medians of 5 of wall, CPU (user+sys)
// and peak RSS, and each pair's stdout compared byte for byte.
//
// trec_eval is not vendored or fetched here. The binary is $TREC_EVAL, or bench/.work/trec_eval-src/
// trec_eval, built with its own Makefile (`make`) from the source in $TREC_EVAL_SRC or
// bench/.work/trec_eval-src when missing. The source: https://github.com/usnistgov/trec_eval,
// version 10.0, commit f425365 (the one test/fixtures/trec_eval came from; see its README).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { generateTrecEval } from "../gen-trec-eval.mjs";

/** trec_eval's binary, built when only its source is here; or why there is none. */
export function trecEvalBinary(work) {
  if (process.env.TREC_EVAL)
    return existsSync(process.env.TREC_EVAL)
      ? { bin: process.env.TREC_EVAL }
      : { why: `TREC_EVAL=${process.env.TREC_EVAL} does not exist` };
  const src = process.env.TREC_EVAL_SRC ?? join(work, "trec_eval-src");
  const bin = join(src, "trec_eval");
  if (existsSync(bin)) return { bin };
  if (!existsSync(join(src, "Makefile")))
    return {
      why: `no trec_eval binary or source: put trec_eval 10.0's source (https://github.com/usnistgov/trec_eval, commit f425365) in ${src} or set TREC_EVAL_SRC (or TREC_EVAL to a binary)`,
    };
  process.stderr.write(`building trec_eval in ${src} (make)\n`);
  const r = spawnSync("make", [], { cwd: src });
  if (r.status !== 0 || !existsSync(bin))
    return { why: `\`make\` in ${src} failed: ${(r.stderr || "").toString().trim().split("\n").at(-1)}` };
  return { bin };
}

const SHAPES = [
  ["grid", "1,000 topics × 1,000 documents, 150,000 graded judgments (issue #31's run)"],
  [
    "msmarco",
    "MS MARCO passage-shaped: 1,200 topics × 1,000 passages, BM25 scores at 4 decimals (ties), TREC DL-style graded qrels for 2 topics in 3",
  ],
  [
    "clueweb",
    "ClueWeb22-shaped, not tuned on: 900 iKAT-style topics, depth 1–1,000, tab-separated, log-probability scores, negative grades",
  ],
];
const MODES = [
  ["default measures", []],
  ["-q -m all_trec", ["-q", "-m", "all_trec"]],
];

function once(cmd, args, cwd) {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %U %S %M", cmd, ...args], { cwd, maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed: ${r.stderr}`);
  const [wall, user, sys, kb] = r.stderr.toString().trim().split("\n").at(-1).split(" ").map(Number);
  return { wall, cpu: user + sys, rss: kb / 1024, stdout: r.stdout };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Rows: for each run shape and measure set, trec_eval and convkit, alternating `runs` times each. */
export async function trecEvalRows(root, work, runs = 5) {
  const dir = join(work, "trec-eval");
  mkdirSync(dir, { recursive: true });
  const te = trecEvalBinary(work);
  const out = { rows: [], notes: [] };
  if (te.why) out.notes.push(`trec_eval rows: trec_eval itself is missing (${te.why}); convkit's rows only.`);
  for (const [shape, what] of SHAPES) {
    const run = join(dir, `${shape}.run`);
    const qrels = join(dir, `${shape}.qrels`);
    if (!existsSync(run) || !existsSync(qrels)) await generateTrecEval(shape, run, qrels);
    const lines = spawnSync("wc", ["-l", run]).stdout.toString().trim().split(" ")[0];
    for (const [mode, flags] of MODES) {
      const job = `trec_eval, ${what}: ${Number(lines).toLocaleString("en-US")} lines, ${(statSync(run).size / 1e6).toFixed(0)} MB, ${mode}`;
      const impls = [
        ...(te.bin ? [["trec_eval 10.0 (C, its Makefile's build)", te.bin, [...flags, qrels, run]]] : []),
        ["convkit trec-eval", "node", ["apps/convkit/bin/convkit.js", "trec-eval", ...flags, qrels, run]],
      ];
      const got = impls.map(() => []);
      for (let i = 0; i < runs; i++)
        impls.forEach(([, cmd, args], k) => {
          got[k].push(once(cmd, args, root));
        });
      impls.forEach(([impl], k) => {
        const g = got[k];
        out.rows.push({
          job,
          impl,
          records: Number(lines),
          seconds: median(g.map((x) => x.wall)),
          cpu: median(g.map((x) => x.cpu)),
          maxRssMiB: median(g.map((x) => x.rss)),
          runs,
          bytes: statSync(run).size,
        });
      });
      if (te.bin && got[1].some((x, i) => !x.stdout.equals(got[0][i].stdout)))
        out.notes.push(`trec_eval rows: convkit's output differs from trec_eval's on ${shape}, ${mode}.`);
      for (const g of got) for (const x of g) x.stdout = undefined;
    }
  }
  if (te.bin)
    out.notes.push(
      "trec_eval rows: every convkit output above is byte-identical to trec_eval's (each run's stdout against the trec_eval run beside it).",
    );
  return out;
}

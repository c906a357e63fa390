// Per-topic inputs for the convkit-compare bench: 10 runs x 10 measures x 200 topics as trec_eval -q files, their values real
// per-facet scores of ClariQ's five dev sample runs (the evaluator's own golden out_files: real ties, zeros and spreads), shifted per run.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const RUNS = ["dev_bm25", "dev_BERT-ranker", "dev_no_q", "dev_best_q", "dev_worst_q"];

/** WORK/compare: run00.q … run09.q (made once, in a folder renamed into place); returns their paths. */
export function compareInputs(work, shared) {
  const dir = join(work, "compare");
  const files = Array.from({ length: 10 }, (_, k) => join(dir, `run${String(k).padStart(2, "0")}.q`));
  if (existsSync(dir)) return files;
  const real = RUNS.map(
    (r) =>
      JSON.parse(
        readFileSync(
          join(shared, "golden", "clariq-eval", "expected", `document_relevance.dev.${r}.json`),
          "utf8",
        ),
      ).out_file,
  );
  const metrics = Object.keys(real[0]);
  const facets = Object.keys(real[0][metrics[0]]);
  const tmp = `${dir}.tmp${process.pid}`;
  mkdirSync(tmp, { recursive: true });
  for (let k = 0; k < 10; k++) {
    let s = "";
    for (let m = 0; m < 10; m++) {
      const metric = metrics[m % metrics.length];
      for (let t = 0; t < 200; t++) {
        // Topic t of run k: a real facet's value of one real run, the same facet across runs (so pairs are paired).
        const v = real[(k + m) % RUNS.length][metric][facets[t % facets.length]];
        const shifted = Math.min(1, Math.max(0, v + (k % 3) * 0.01 * ((t % 7) - 2)));
        s += `${`m${m}_${metric}`.padEnd(22)}\t${String(1000 + t)}\t${shifted.toFixed(4)}\n`;
      }
    }
    writeFileSync(join(tmp, `run${String(k).padStart(2, "0")}.q`), s);
  }
  renameSync(tmp, dir);
  return files;
}

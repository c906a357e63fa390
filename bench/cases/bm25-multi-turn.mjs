// Bench case: ClariQ's multi-turn BM25 baseline over the synthetic contexts of a split (planning included), N threads.

import { multiTurnBm25Threads } from "@convkit/baselines";
import { collect, readQuestionBank } from "@convkit/formats";
import { planClariqSets, splitPlans } from "@convkit/gen-synthetic";
import { report } from "./report.mjs";

const [data, qulac, split, threads = "1"] = process.argv.slice(2);
const t0 = performance.now();
const bank = await collect(readQuestionBank(`${data}/question_bank.tsv`));
const sets = await planClariqSets(data, qulac);
const run = await multiTurnBm25Threads(bank, splitPlans(sets, split), sets.numbers, Number(threads));
report({ records: run.length, seconds: (performance.now() - t0) / 1000 });

// Bench case: ClariQ's multi-turn BM25 baseline over the synthetic dev contexts (planning included).

import { bankIndex, multiTurnBm25 } from "@convkit/baselines";
import { collect, readQuestionBank } from "@convkit/formats";
import { planClariqSets, splitPlans } from "@convkit/synthetic-sets";
import { report } from "./report.mjs";

const [data, qulac, split] = process.argv.slice(2);
const t0 = performance.now();
const bank = await collect(readQuestionBank(`${data}/question_bank.tsv`));
const sets = await planClariqSets(data, qulac);
const run = multiTurnBm25(bank, splitPlans(sets, split), sets.numbers, bankIndex(bank));
report({ records: run.length, seconds: (performance.now() - t0) / 1000 });

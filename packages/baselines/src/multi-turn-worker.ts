// Pool worker of the multi-turn BM25 baseline: the bank indexed once per thread, one topic per task.
import { workerData } from "node:worker_threads";
import type { MultiTurnRunEntry, QuestionBankEntry } from "@convkit/formats";
import { taskWorker } from "@convkit/pool";
import { bankIndex, multiTurnBm25 } from "./bm25-baselines.js";
import type { MultiTurnTask } from "./multi-turn-pool.js";

const bank = (workerData as { bank: QuestionBankEntry[] }).bank;
const index = bankIndex(bank);

/** The run lines of one topic. */
export default taskWorker((task: MultiTurnTask): MultiTurnRunEntry[] =>
  multiTurnBm25(bank, [task.plan], new Map([[task.plan.topic_id, task.numbers]]), index),
);

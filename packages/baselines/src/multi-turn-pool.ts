// The multi-turn BM25 baseline over the worker pool: one task per topic, results in topic order.
import type { MultiTurnRunEntry, QuestionBankEntry } from "@convkit/formats";
import { inOrder, openTaskPool } from "@convkit/pool";
import type { TopicNumbers, TopicPlan } from "@convkit/synthetic-plan";
import { bankIndex, multiTurnBm25 } from "./bm25-baselines.js";

/** One topic's work: its plan and numbering (the bank travels once per worker, in workerData). */
export interface MultiTurnTask {
  plan: TopicPlan;
  numbers: TopicNumbers;
}

/**
 * {@link multiTurnBm25} with `threads` workers (each indexes the bank once); the lines are the
 * same, in the same order, for any thread count. One thread runs in place.
 */
export async function multiTurnBm25Threads(
  bank: readonly QuestionBankEntry[],
  plans: readonly TopicPlan[],
  numbers: ReadonlyMap<number, TopicNumbers>,
  threads: number,
): Promise<MultiTurnRunEntry[]> {
  if (threads <= 1) return multiTurnBm25(bank, plans, numbers, bankIndex(bank));
  const pool = await openTaskPool<MultiTurnTask, MultiTurnRunEntry[]>({
    worker: new URL("./multi-turn-worker.js", import.meta.url),
    threads,
    workerData: { bank },
  });
  try {
    const lines: MultiTurnRunEntry[] = [];
    const start = (plan: TopicPlan) => {
      const nums = numbers.get(plan.topic_id);
      if (!nums) throw new RangeError(`topic ${plan.topic_id} is not numbered`);
      return pool.run({ plan, numbers: nums });
    };
    // Topics are small: many in flight keep every thread busy.
    for await (const part of inOrder(plans, start, 4 * threads)) lines.push(...part);
    return lines;
  } finally {
    await pool.destroy();
  }
}

// A run written in trec_eval's own order. Here rather than in @convkit/formats (which holds the
// run line's format) because the order is trec_eval's (order.ts) and formats sits below trec-eval.
import { formatRunLine, type RunEntry, writeLines } from "@convkit/formats";
import type { WriteOptions } from "@convkit/io";
import { trecOrder } from "./order.js";

/**
 * Sorts one topic's entries into trec_eval order and renumbers ranks from `firstRank`, so the
 * written file has non-increasing scores and a tie order every reader agrees on.
 */
function rankTopic<T extends { score: number; docno: string; rank: number }>(
  entries: T[],
  firstRank = 1,
): T[] {
  const sorted = [...entries].sort(trecOrder);
  sorted.forEach((e, i) => {
    e.rank = firstRank + i;
  });
  return sorted;
}

/** Writes run entries; each batch must hold whole topics (they are put in trec_eval order). */
export function writeRun(
  target: string,
  batches: AsyncIterable<readonly RunEntry[]> | Iterable<readonly RunEntry[]>,
  options?: WriteOptions & { firstRank?: number },
): Promise<number> {
  return writeLines(target, orderTopics(batches, options?.firstRank ?? 1), formatRunLine, options);
}

async function* orderTopics(
  batches: AsyncIterable<readonly RunEntry[]> | Iterable<readonly RunEntry[]>,
  firstRank: number,
): AsyncIterable<RunEntry[]> {
  for await (const b of batches) {
    const byTopic = new Map<string, RunEntry[]>();
    for (const e of b) {
      const l = byTopic.get(e.qid);
      if (l) l.push({ ...e });
      else byTopic.set(e.qid, [{ ...e }]);
    }
    const out: RunEntry[] = [];
    for (const l of byTopic.values()) out.push(...rankTopic(l, firstRank));
    yield out;
  }
}

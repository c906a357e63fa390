// Task 2a: question relevance, Recall@5/10/20/30 per topic over the topic's relevant questions.
import type { RankedLine } from "./run-table.js";

export const RECALL_CUTOFFS = [5, 10, 20, 30] as const;

/**
 * Recall@k per topic (topics in ascending id order, as pandas groupby gives them). The run is
 * ordered by (topic, score) descending with a stable sort, and of several lines with the same
 * (topic, score) only the first in file order is kept: tied questions are dropped, as upstream does.
 */
export function evaluateQuestionRelevance(
  relevant: ReadonlyMap<number, ReadonlySet<string>>,
  run: readonly RankedLine[],
): Map<string, Map<number, number>> {
  const sorted = run
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.id - a.r.id || b.r.score - a.r.score || a.i - b.i)
    .map((x) => x.r);
  const ranked = new Map<number, string[]>();
  let prev: RankedLine | undefined;
  for (const r of sorted) {
    if (prev && prev.id === r.id && prev.score === r.score) continue;
    prev = r;
    const l = ranked.get(r.id);
    if (l) l.push(r.item);
    else ranked.set(r.id, [r.item]);
  }
  const topics = [...relevant].sort((a, b) => a[0] - b[0]);
  const out = new Map<string, Map<number, number>>();
  for (const k of RECALL_CUTOFFS) {
    const m = new Map<number, number>();
    for (const [t, rel] of topics) {
      const list = ranked.get(t);
      if (!list) {
        m.set(t, 0);
        continue;
      }
      const hit = new Set(list.slice(0, k).filter((q) => rel.has(q)));
      m.set(t, hit.size / rel.size);
    }
    out.set(`Recall${k}`, m);
  }
  return out;
}

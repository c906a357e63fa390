// Clarification-need baselines: the train set's majority label, scored as the ClariQ tool scores it.
import type { ClariqRow } from "@convkit/formats";

/** One label per topic (its first row's), in file order, as the evaluator reads them. */
export function topicLabels(rows: readonly ClariqRow[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of rows) if (!out.has(r.topic_id)) out.set(r.topic_id, r.clarification_need);
  return out;
}

/** The most frequent label among the train topics (ties: the smallest label). */
export function majorityLabel(train: ReadonlyMap<number, number>): number {
  const counts = new Map<number, number>();
  for (const l of train.values()) counts.set(l, (counts.get(l) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
}

/** Predicts `label` for every topic. */
export function constantRun(topics: Iterable<number>, label: number): { topic_id: number; label: number }[] {
  return [...topics].map((topic_id) => ({ topic_id, label }));
}

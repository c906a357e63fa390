// Clarification-need baselines: the train set's majority label, and a nearest-centroid model on BM25 score statistics.
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
  const [top] = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  if (!top) throw new RangeError("no train topics to take the majority label of");
  return top[0];
}

/** Predicts `label` for every topic. */
export function constantRun(topics: Iterable<number>, label: number): { topic_id: number; label: number }[] {
  return [...topics].map((topic_id) => ({ topic_id, label }));
}

/** Features of a request for the learned clarification-need baseline: how well the bank answers it. */
export function needFeatures(scores: Float64Array): number[] {
  // The five best BM25 scores of the bank against the request; partial selection, no full sort.
  const top: [number, number, number, number, number] = [
    Number.NEGATIVE_INFINITY,
    -Infinity,
    -Infinity,
    -Infinity,
    -Infinity,
  ];
  for (const s of scores) {
    if (s <= top[4]) continue;
    // Insertion from the end: shift down the scores s beats.
    let i = 4;
    for (; i > 0; i--) {
      const above = top[i - 1];
      if (above === undefined || s <= above) break;
      top[i] = above;
    }
    top[i] = s;
  }
  const mean = top.reduce((a, b) => a + b, 0) / 5;
  return [top[0], mean, top[0] - top[4]];
}

/** A nearest-centroid classifier over z-scored features (deterministic, no hyperparameters). */
export interface CentroidModel {
  mean: number[];
  std: number[];
  /** Label → centroid in z-space, labels ascending. */
  centroids: [number, number[]][];
}

/** Fits {@link CentroidModel} on feature rows and their labels. */
export function fitCentroids(features: readonly number[][], labels: readonly number[]): CentroidModel {
  const d = features[0]?.length ?? 0;
  const mean = Array.from({ length: d }, (_, j) => features.reduce((a, f) => a + f[j]!, 0) / features.length);
  const std = mean.map((m, j) => {
    const v = features.reduce((a, f) => a + (f[j]! - m) ** 2, 0) / features.length;
    return v > 0 ? Math.sqrt(v) : 1;
  });
  const z = features.map((f) => f.map((x, j) => (x - mean[j]!) / std[j]!));
  const byLabel = new Map<number, number[][]>();
  labels.forEach((l, i) => {
    byLabel.set(l, [...(byLabel.get(l) ?? []), z[i]!]);
  });
  const centroids = [...byLabel]
    .sort((a, b) => a[0] - b[0])
    .map(
      ([l, rows]) =>
        [l, mean.map((_, j) => rows.reduce((a, r) => a + r[j]!, 0) / rows.length)] as [number, number[]],
    );
  return { mean, std, centroids };
}

/** The label of the nearest centroid (ties: the smaller label). */
export function predictCentroid(model: CentroidModel, features: readonly number[]): number {
  const z = features.map((x, j) => (x - model.mean[j]!) / model.std[j]!);
  let best = model.centroids[0]![0];
  let bestDist = Number.POSITIVE_INFINITY;
  for (const [label, c] of model.centroids) {
    const dist = c.reduce((a, v, j) => a + (v - z[j]!) ** 2, 0);
    if (dist < bestDist) {
      best = label;
      bestDist = dist;
    }
  }
  return best;
}

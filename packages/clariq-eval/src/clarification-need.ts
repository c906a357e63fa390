// Task 1: clarification need, scored as scikit-learn's weighted precision/recall/F1.

/** Weighted P/R/F1 exactly as scikit-learn 1.2 computes them (labels = sorted union, 0/0 → 0). */
export function weightedPrf(
  yTrue: readonly number[],
  yPred: readonly number[],
): { precision: number; recall: number; f1: number } {
  const labels = [...new Set([...yTrue, ...yPred])].sort((a, b) => a - b);
  // Per label in sorted order: true positives, predictions and true occurrences.
  const counts = new Map(labels.map((l) => [l, { tp: 0, pred: 0, truth: 0 }]));
  const countsOf = (label: number) => {
    const c = counts.get(label);
    if (c === undefined) throw new Error(`label ${label} not counted`);
    return c;
  };
  yTrue.forEach((t, i) => {
    const p = yPred[i];
    if (p === undefined) throw new Error(`${yTrue.length} labels, ${yPred.length} predictions`);
    countsOf(t).truth++;
    countsOf(p).pred++;
    if (t === p) countsOf(t).tp++;
  });
  const perLabel = [...counts.values()].map(({ tp, pred, truth }) => {
    const precision = pred === 0 ? 0 : tp / pred;
    const recall = truth === 0 ? 0 : tp / truth;
    const denom = precision + recall;
    return { precision, recall, f1: (2 * precision * recall) / (denom === 0 ? 1 : denom), truth };
  });
  const weight = perLabel.reduce((a, l) => a + l.truth, 0);
  // np.average: sum(a * w) / sum(w), summed in label order.
  const avg = (of: (l: (typeof perLabel)[number]) => number) =>
    weight === 0 ? 0 : perLabel.reduce((s, l) => s + of(l) * l.truth, 0) / weight;
  return { precision: avg((l) => l.precision), recall: avg((l) => l.recall), f1: avg((l) => l.f1) };
}

/**
 * Scores a clarification-need run: labels per topic (first row of each topic in the topic file,
 * in file order), predictions per topic (the run's last line for a topic); a topic without a
 * prediction is predicted as label 0.
 */
export function evaluateClarificationNeed(
  labels: ReadonlyMap<number, number>,
  predictions: ReadonlyMap<number, number>,
) {
  const yTrue: number[] = [];
  const yPred: number[] = [];
  for (const [topic, label] of labels) {
    yTrue.push(label);
    yPred.push(predictions.get(topic) ?? 0);
  }
  return weightedPrf(yTrue, yPred);
}

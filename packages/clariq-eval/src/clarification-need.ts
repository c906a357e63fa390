// Task 1: clarification need, scored as scikit-learn's weighted precision/recall/F1.

/** Weighted P/R/F1 exactly as scikit-learn 1.2 computes them (labels = sorted union, 0/0 → 0). */
export function weightedPrf(
  yTrue: readonly number[],
  yPred: readonly number[],
): { precision: number; recall: number; f1: number } {
  const labels = [...new Set([...yTrue, ...yPred])].sort((a, b) => a - b);
  const tp = labels.map(() => 0);
  const pred = labels.map(() => 0);
  const truth = labels.map(() => 0);
  const index = new Map(labels.map((l, i) => [l, i]));
  yTrue.forEach((t, i) => {
    const p = yPred[i]!;
    truth[index.get(t)!]!++;
    pred[index.get(p)!]!++;
    if (t === p) tp[index.get(t)!]!++;
  });
  const precision = labels.map((_, i) => (pred[i] === 0 ? 0 : tp[i]! / pred[i]!));
  const recall = labels.map((_, i) => (truth[i] === 0 ? 0 : tp[i]! / truth[i]!));
  const f1 = labels.map((_, i) => {
    const denom = precision[i]! + recall[i]!;
    return (2 * precision[i]! * recall[i]!) / (denom === 0 ? 1 : denom);
  });
  const weight = truth.reduce((a, b) => a + b, 0);
  // np.average: sum(a * w) / sum(w), summed in label order.
  const avg = (xs: number[]) => (weight === 0 ? 0 : xs.reduce((s, x, i) => s + x * truth[i]!, 0) / weight);
  return { precision: avg(precision), recall: avg(recall), f1: avg(f1) };
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

// One randomization test as a pool task: the differences, the stream key and the draws.
import { type Alternative, randomizationTest } from "@convkit/stats";

export interface RandomizationTask {
  d: Float64Array;
  key: string;
  seed: number;
  permutations: number;
  alternative: Alternative;
}

/** The task's p (in a pool worker, or inline: the same number either way). */
export function randomizationP(t: RandomizationTask): number {
  return randomizationTest(t.d, {
    key: t.key,
    seed: t.seed,
    permutations: t.permutations,
    alternative: t.alternative,
  }).p;
}

// @convkit/stats: paired significance tests and multiple-testing corrections, computed as SciPy 1.10 and statsmodels 0.13 compute them.
export { CORRECTIONS, type Corrected, type Correction, multipleTests } from "./corrections.js";
export { ndtr, stdtr, stdtrit } from "./distributions.js";
export {
  type Alternative,
  differences,
  type PairSummary,
  pairedTTest,
  summarizePair,
  type TTest,
  tInterval,
  tTestP,
} from "./paired.js";
export {
  EXACT_MAX_PAIRS,
  type RandomizationOptions,
  type RandomizationResult,
  randomizationTest,
} from "./randomization.js";
export { binomTestHalf, signTest } from "./sign-test.js";
export {
  AllZeroDifferences,
  type WilcoxonOptions,
  type WilcoxonResult,
  wilcoxon,
  wilcoxonOfDifferences,
  type ZeroMethod,
} from "./wilcoxon.js";

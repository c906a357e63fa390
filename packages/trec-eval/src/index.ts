// @convkit/trec-eval: IR metrics with trec_eval semantics (its ordering, tie handling, rounding and output layout).
export {
  formatTrecEval,
  formatTrecLine,
  MEASURES,
  type MeasureSpec,
  parseMeasureOptions,
  parseMeasures,
  type TopicResult,
  type TrecEvalOptions,
  type TrecEvalResult,
  trecEval,
  type Value,
} from "./evaluate.js";
export {
  evaluateRunFile,
  type FileEvalOptions,
  formatRunEvaluation,
  type RunEvaluation,
} from "./evaluate-files.js";
export {
  type JudgedRanking,
  judgeRanking,
  NONPOOL,
  type Scored,
  type TopicQrels,
  UNJUDGED,
} from "./judged-ranking.js";
export { loadQrels, loadRun } from "./load.js";
export { log2Int } from "./log2.js";
export {
  averagePrecision,
  ndcgAt,
  ndcgAtCutoffs,
  precisionAt,
  recallAt,
  reciprocalRank,
  rPrecision,
} from "./measures.js";
export { type ScoredDocno, strcmpOrder, trecOrder } from "./order.js";
export { ByteQrels, loadByteQrels } from "./qrels-bytes.js";
export type { TopicValues } from "./topic-values.js";
export { writeRun } from "./write-run.js";

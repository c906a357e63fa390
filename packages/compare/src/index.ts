// @convkit/compare: is run B really better than run A? Per-topic values in, paired tests and corrections, tables out.
export {
  type ComparedValue,
  type CompareOptions,
  type Comparison,
  comparedValues,
  compareRuns,
  type PairResult,
  TESTS,
  type TestName,
} from "./compare.js";
export { COMPARISON_FORMATS, describeComparison, type Format, formatComparison, pairRows } from "./format.js";
export {
  clariqPerTopic,
  DEFAULT_TREC_MEASURES,
  type PerTopicTable,
  type RunValues,
  readPerTopicFile,
  runNames,
  trecPerTopic,
} from "./per-topic.js";

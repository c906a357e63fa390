// @convkit/baselines: ClariQ's baselines reproduced on convkit's text pipeline, BM25 and synthetic contexts.
export { bankIndex, multiTurnBm25, singleTurnBm25 } from "./bm25-baselines.js";
export {
  type CentroidModel,
  constantRun,
  fitCentroids,
  majorityLabel,
  needFeatures,
  predictCentroid,
  topicLabels,
} from "./clarification-need.js";
export { multiTurnBm25Threads } from "./multi-turn-pool.js";
export { ContextOracle, type OracleKind, type OracleVariant, topicOracle } from "./oracles.js";

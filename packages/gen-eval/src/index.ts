// @convkit/gen-eval: regenerating ClariQ's document-relevance eval dicts (gen:eval).
export {
  type GenEvalOptions,
  type GenEvalSummary,
  type GenEvalUnitData,
  generateEvalDicts,
  planQueuedEval,
  type QueuedGenEvalOptions,
  queuedEvalSpoolDir,
  topicContextTasks,
} from "./generate.js";
export { DocumentStore, loadDocumentStore, readCandidateLists, readFacetQrels } from "./inputs.js";
export { type GenEvalRunData, genEvalRunJob, genEvalTopicsJob } from "./queue-jobs.js";
export { GEN_EVAL_RANGES, inRange } from "./ranges.js";
export { evaluateTextTopic, type TextTopicTask } from "./text-topic.js";
export {
  type Candidate,
  type ContextTask,
  DICT_METRICS,
  evaluateTopic,
  qaTerms,
  type RankingOptions,
  rankingMetrics,
  type TopicResult,
  type TopicTask,
  topicScorer,
} from "./topic-eval.js";

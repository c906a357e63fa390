// @convkit/gen-eval: regenerating ClariQ's document-relevance eval dicts (gen:eval).
export {
  discardQueuedEval,
  evaluateQueuedTopics,
  finishQueuedEval,
  GEN_EVAL_QUEUE_KINDS,
  type GenEvalOptions,
  type GenEvalPool,
  type GenEvalSummary,
  type GenEvalUnitData,
  type GenEvalUnitResult,
  generateEvalDicts,
  openGenEvalPool,
  planQueuedEval,
  type QueuedGenEvalOptions,
  queuedEvalSpoolDir,
  topicContextTasks,
} from "./generate.js";
export { DocumentStore, loadDocumentStore, readCandidateLists, readFacetQrels } from "./inputs.js";
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

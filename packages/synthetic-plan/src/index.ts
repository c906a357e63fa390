// @convkit/synthetic-plan: ClariQ/Qulac-style synthetic multi-turn conversations, as pure logic (no I/O).

export { type ClariqIdParts, ClariqIds, decodeQulacId, encodeQulacId, type QulacId } from "./ids.js";
export {
  ABSENT_TOPICS,
  contextId,
  type NumberingOptions,
  numberTopics,
  planItem,
  recordId,
  type TopicNumbers,
} from "./numbering.js";
export { type QulacTopic, qulacRecords, qulacTopics } from "./qulac.js";
export { topicContexts, topicCounts, topicRecords, twoTurnHistories } from "./records.js";
export {
  type FacetItem,
  itemCount,
  NO_QUESTION,
  planTopics,
  type QulacJoin,
  qulacJoin,
  type TopicPlan,
} from "./topics.js";

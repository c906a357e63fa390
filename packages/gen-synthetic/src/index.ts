// @convkit/gen-synthetic: ClariQ synthetic sets planned from the TSVs and written to disk, in parallel and in order.
export { encodeJsonl, JsonStrings, recordJson, topicJsonl } from "./encode.js";
export {
  type PlannedSets,
  planClariqSets,
  type RecordTask,
  recordTasks,
  SPLIT_FILES,
  splitCounts,
  splitPlans,
  taskJsonl,
  taskRecords,
} from "./generate.js";
export { writeQulacSet } from "./qulac-set.js";
export {
  type SetFormat,
  type SplitSummary,
  type WriteSetOptions,
  writeSyntheticSplit,
} from "./write-sets.js";

// @convkit/ikat: TREC iKAT topics, run validation, run conversion and evaluation, passage-id database.
export { runToTrec, trecToRun } from "./convert.js";
export { type Convert2025Result, convertRun2025, pyFormat6f } from "./convert-2025.js";
export { evaluatePtkb, PTKB_MEASURES, type PtkbEvaluation } from "./evaluate.js";
export { buildPassageDb, PassageDb } from "./passage-db.js";
export { flattenTopics, type IkatHistoryTurn, type IkatTurnRecord } from "./turns.js";
export { type Finding, type IkatYear, PASSAGE_ID, responseTokens, validateRun } from "./validate.js";
export {
  type Finding2025,
  topicTurnIds2025,
  type Validate2025Result,
  validateRun2025,
} from "./validate-2025.js";

// @convkit/ikat: TREC iKAT topics, run validation, run conversion and evaluation, passage-id database.
export {
  CITATION_MEASURES,
  type CitationEvaluation,
  type CitationMeasure,
  evaluateCitations,
  isCountMeasure,
} from "./citations.js";
export { runToTrec, trecToRun } from "./convert.js";
export {
  evaluatePtkb,
  evaluatePtkbRankings,
  ikat25PassageRankings,
  ikat25PtkbRankings,
  PTKB_MEASURES,
  type PtkbEvaluation,
} from "./evaluate.js";
export { buildPassageDb, PassageDb } from "./passage-db.js";
export { IKAT25_MAX_REFERENCES, type Ikat25SkeletonOptions, trecToIkat25 } from "./skeleton25.js";
export { flattenTopics, type IkatHistoryTurn, type IkatTurnRecord } from "./turns.js";
export { type Finding, type IkatYear, PASSAGE_ID, responseTokens, validateRun } from "./validate.js";

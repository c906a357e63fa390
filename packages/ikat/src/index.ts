// @convkit/ikat: TREC iKAT topics, run validation, run conversion and evaluation, passage-id database.
export { type OfficialOptions, type OfficialVerdict, officialCheck } from "./checker-2023-2024.js";
export {
  CITATION_MEASURES,
  type CitationEvaluation,
  type CitationMeasure,
  evaluateCitations,
  isCountMeasure,
} from "./citations.js";
export { readProtoRun, runToTrec, type TrecSource, trecRunText, trecToRun } from "./convert.js";
export { type Convert2025Result, convertRun2025, pyFormat6f } from "./convert-2025.js";
export {
  evaluatePtkb,
  evaluatePtkbRankings,
  ikat25PassageRankings,
  ikat25PtkbRankings,
  PTKB_MEASURES,
  type PtkbEvaluation,
} from "./evaluate.js";
export type { Finding } from "./finding.js";
export { buildPassageDb, PassageDb } from "./passage-db.js";
export {
  ProtoParseError,
  type ProtoPassage,
  type ProtoPtkb,
  type ProtoResponse,
  type ProtoRun,
  type ProtoTurn,
  parseProtoRun,
} from "./protobuf-json.js";
export { IKAT25_MAX_REFERENCES, type Ikat25SkeletonOptions, trecToIkat25 } from "./skeleton25.js";
export { flattenTopics, type IkatHistoryTurn, type IkatTurnRecord, ikatTurnRow } from "./turns.js";
export {
  CONVKIT_FINDING,
  type IkatYear,
  type Judgement,
  judgeRun,
  PASSAGE_ID,
  responseTokens,
  validateRun,
} from "./validate.js";
export {
  topicTurnIds2025,
  type Validate2025Result,
  validateRun2025,
} from "./validate-2025.js";

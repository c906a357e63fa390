// @convkit/segment: documents into iKAT / MS MARCO passages, with pluggable sentence splitters.
export { agreeingPairs, type PassagePair, passagePairs, unwrapPassage } from "./agreement.js";
export {
  encodeSegmentTask,
  type JsonlBytes,
  type PassageFormat,
  type SegmentResult,
  type SegmentTask,
  type SourceDocument,
} from "./encode.js";
export { listInputs } from "./files.js";
export {
  type ManifestEntry,
  planSegmentation,
  runSegmentation,
  type SegmentJobOptions,
  type SegmentJobSummary,
  type SegmentUnitData,
} from "./job.js";
export {
  firstCodePoints,
  IKAT,
  type LocatedPassages,
  MSMARCO,
  prepareText,
  type SegmentOptions,
  type SentenceSplitter,
  segmentDocument,
  segmentDocumentLocated,
  sentenceTexts,
  windowPassages,
} from "./passages.js";
export { segmentFileJob, segmentRunJob } from "./queue-jobs.js";
export {
  encodeSentencesTask,
  runSentences,
  type SentencesJobOptions,
  type SentencesResult,
  type SentencesTask,
} from "./sentences.js";
export {
  heuristicSplitter,
  icuSplitter,
  loadSplitter,
  SPACY_MODEL_HINT,
  SPLITTER_NAMES,
  SPLITTERS,
  sentencizerSplitter,
  spacyLikeTokens,
} from "./splitters.js";
export { WINDOW_OPTIONS } from "./window-options.js";

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
export {
  finishQueuedSegmentation,
  listInputs,
  type ManifestEntry,
  openSegmentationPool,
  planSegmentation,
  runSegmentation,
  SEGMENT_QUEUE_KINDS,
  type SegmentJobOptions,
  type SegmentJobSummary,
  type SegmentPool,
  type SegmentUnitData,
  segmentQueuedInput,
} from "./job.js";
export {
  firstCodePoints,
  IKAT,
  MSMARCO,
  prepareText,
  pyStrip,
  type SegmentOptions,
  type SentenceSplitter,
  segmentDocument,
  sentenceTexts,
  windowPassages,
} from "./passages.js";
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

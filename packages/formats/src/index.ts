// @convkit/formats: typed, streaming readers and writers for every file of ClariQ, Qulac, TREC, iKAT, ClueWeb22 and Touché.

export type { ParquetTable } from "@convkit/parquet";
export {
  CLARIQ_COLUMNS,
  clariqFile,
  quoteQuestion,
  readClarificationNeedRun,
  readClariqRows,
  readClariqTestTopics,
  readHumanMultiTurn,
  readMultiTurnRun,
  readQuestionBank,
  writeClarificationNeedRun,
  writeClariqRows,
  writeMultiTurnRun,
  writeQuestionBank,
} from "./clariq.js";
export {
  CLUEWEB22_FIELDS,
  readClueWeb22,
  readClueWeb22Offsets,
  readClueWeb22Record,
  writeClueWeb22,
} from "./clueweb22.js";
export { detectFormat, detectFromText, FORMATS, type FormatName } from "./detect.js";
export {
  EVAL_METRICS,
  type EvalDict,
  type EvalPairMap,
  evalDictValue,
  evalEntries,
  evalPair,
  pyTypeName,
  readQulacHistDict,
  scanEvalDict,
  syntheticItem,
  syntheticRecords,
  toEvalDict,
  writeQulacEvalDict,
  writeQulacHistDict,
} from "./dicts.js";
export { jsonDocument } from "./documents.js";
export { floatField, intField, parseFloatStrict } from "./fields.js";
export {
  formatPassageLine,
  normalizeIkatTopic,
  parseIkatRun,
  readIkatRun,
  readIkatRunTurns,
  readIkatTopics,
  readPassageHashes,
  readPassages,
  writeIkatRun,
  writePassageHashes,
  writePassages,
} from "./ikat.js";
export {
  formatIkat25Line,
  ikat25Turn,
  parseIkat25Line,
  rankIkat25References,
  readIkat25Run,
  writeIkat25Run,
} from "./ikat25.js";
export { streamJsonItems } from "./json-stream.js";
export { readJsonl } from "./jsonl.js";
export { mapBatches, writeLines } from "./lines.js";
export {
  ARGS_ME_CONTEXT_FIELDS,
  ARGS_ME_SCHEMA,
  CLARIFICATION_NEED_SCHEMA,
  CLARIQ_ROW_SCHEMA,
  CLARIQ_TEST_TOPIC_SCHEMA,
  CLUEWEB22_SCHEMA,
  COMPARE_PAIR_SCHEMA,
  COMPARE_VALUE_SCHEMA,
  EVAL_ENTRY_SCHEMA,
  HUMAN_MULTI_TURN_SCHEMA,
  IKAT_RESPONSE_SCHEMA,
  IKAT_TURN_SCHEMA,
  IKAT25_RESPONSE_SCHEMA,
  MULTI_TURN_EVAL_ENTRY_SCHEMA,
  MULTI_TURN_RUN_SCHEMA,
  PASSAGE_HASH_SCHEMA,
  PASSAGE_SCHEMA,
  PASSAGE_WITH_OFFSETS_SCHEMA,
  QRELS_ENTRY_SCHEMA,
  QUESTION_BANK_SCHEMA,
  QULAC_HIST_RECORD_SCHEMA,
  QULAC_ROW_SCHEMA,
  RANX_QRELS_SCHEMA,
  RANX_RUN_SCHEMA,
  RUN_ENTRY_SCHEMA,
  SYNTHETIC_RECORD_SCHEMA,
  TABLE_SCHEMAS,
  TOUCHE_TOPIC_SCHEMA,
  TREC_EVAL_VALUE_SCHEMA,
  TRECWEB_DOC_SCHEMA,
} from "./parquet-schemas.js";
export {
  type PyDict,
  type PyDumpsOptions,
  PyException,
  type PyJson,
  PyJsonDecodeError,
  type PyJsonDoc,
  type PyJsonLines,
  pyJsonDumps,
  pyJsonInputError,
  pyJsonLoadBytes,
  pyJsonLoads,
} from "./python-json.js";
export { pySortedOrder } from "./python-json-sort.js";
export { pyNfkcTokenCount, pySplitCount, pyTextLines } from "./python-json-text.js";
export {
  PySet,
  pyCheckHashable,
  pyEq,
  pyHashKey,
  pyJsonTypeName,
  pyLt,
  pyRepr,
  pyStr,
  pyStrRepr,
} from "./python-json-value.js";
export { formatQulacJson, QULAC_COLUMNS, readQulacJson, writeQulacJson } from "./qulac.js";
export { readAny, toJsonValue } from "./read-any.js";
export type * from "./records.js";
export { readSyntheticJsonl } from "./synthetic-jsonl.js";
export { collect, rowsOf, whitespaceRowsOf } from "./table.js";
export { joinToucheQrels, readArgsMe, readToucheTopics, toucheGain } from "./touche.js";
export {
  formatRunLine,
  formatScore,
  qrelsEntryOf,
  readQrels,
  readRun,
  runEntryOf,
  type TrecReadOptions,
  writeQrels,
} from "./trec.js";
export {
  isParquetFile,
  isParquetHead,
  openTableInput,
  parquetQrelsEntries,
  parquetRunEntries,
  ranxRunTag,
  type TableInput,
  trecTableKind,
} from "./trec-parquet.js";
export { formatIkatTrecWeb, parseTrecWebDoc, readTrecWeb, writeIkatTrecWeb } from "./trecweb.js";

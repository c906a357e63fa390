// The Parquet schema of every record type convkit writes as a table, declared beside the types
// (records.ts): ints as int64, ids as strings where the dataset's ids are strings, histories as
// list<struct<question, answer>>. Readers of every language get these types, never guessed ones.
import type { TableSchema } from "@convkit/parquet";

const QA_TURNS = [
  { name: "question", type: "string" },
  { name: "answer", type: "string" },
] as const;

/** {@link SyntheticRecord}: a record of ClariQ's synthetic conversation sets. */
export const SYNTHETIC_RECORD_SCHEMA: TableSchema = {
  what: "synthetic record",
  columns: [
    { name: "record_id", type: "int64" },
    { name: "topic_id", type: "int64" },
    { name: "facet_id", type: "string" },
    { name: "initial_request", type: "string" },
    { name: "question", type: "string" },
    { name: "answer", type: "string" },
    { name: "conversation_context", type: "list", fields: QA_TURNS },
    { name: "context_id", type: "int64" },
  ],
};

/** {@link RunEntry}: a TREC run line `qid Q0 docno rank score tag`, one row each. */
export const RUN_ENTRY_SCHEMA: TableSchema = {
  what: "run line",
  columns: [
    { name: "qid", type: "string" },
    { name: "q0", type: "string" },
    { name: "docno", type: "string" },
    { name: "rank", type: "int64" },
    { name: "score", type: "double" },
    { name: "tag", type: "string" },
  ],
};

/** {@link QrelsEntry}: a TREC qrels line `qid iter docno rel`, one row each. */
export const QRELS_ENTRY_SCHEMA: TableSchema = {
  what: "qrels line",
  columns: [
    { name: "qid", type: "string" },
    { name: "iter", type: "string" },
    { name: "docno", type: "string" },
    { name: "rel", type: "int64" },
  ],
};

/** {@link QulacHistRecord}: a record of Qulac's `qulac_hist012_dict` (Qulac's ids are strings). */
export const QULAC_HIST_RECORD_SCHEMA: TableSchema = {
  what: "Qulac history record",
  columns: [
    { name: "record_id", type: "string" },
    { name: "history_id", type: "string" },
    { name: "history_list", type: "list", fields: QA_TURNS },
    { name: "query", type: "string" },
    { name: "question", type: "string" },
    { name: "answer", type: "string" },
  ],
};

/**
 * {@link PassageRecord}: a passage of `segment run`, `{id, contents, url}` as its JSONL; `url` is
 * null where the JSONL line has none (the msmarco preset, documents without one).
 */
export const PASSAGE_RECORD_SCHEMA: TableSchema = {
  what: "passage",
  columns: [
    { name: "id", type: "string" },
    { name: "contents", type: "string" },
    { name: "url", type: "string", nullable: true },
  ],
};

const EVAL_VALUES = [
  { name: "question", type: "string" },
  { name: "metric", type: "string" },
  { name: "no_answer", type: "double" },
  { name: "with_answer", type: "double" },
  { name: "aggregate", type: "boolean" },
] as const;

/**
 * {@link EvalEntry} of a multi-turn eval dict as a long table: one row per (context, question,
 * metric), `context` the int context id; `aggregate` marks ClariQ's MAX and MIN rows (their
 * `question` is `MAX` / `MIN`). Rows are metric-major, as the dict.
 */
export const EVAL_ENTRY_SCHEMA: TableSchema = {
  what: "eval entry",
  columns: [{ name: "context", type: "int64" }, ...EVAL_VALUES],
};

/** {@link EvalEntry} of a single-turn (facet) or Qulac-id eval dict: `context` is the facet id string. */
export const FACET_EVAL_ENTRY_SCHEMA: TableSchema = {
  what: "eval entry",
  columns: [{ name: "context", type: "string" }, ...EVAL_VALUES],
};

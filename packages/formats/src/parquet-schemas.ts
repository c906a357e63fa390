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

/**
 * A run as ranx writes it (`Run.to_parquet`: pandas `to_dataframe().to_parquet`, columns
 * `q_id, doc_id, score`, ids strings, scores float64). No rank and no tag: see trec-parquet.ts.
 */
export const RANX_RUN_SCHEMA: TableSchema = {
  what: "ranx run row",
  columns: [
    { name: "q_id", type: "string" },
    { name: "doc_id", type: "string" },
    { name: "score", type: "double" },
  ],
};

/** Qrels as ranx writes them (`Qrels.to_parquet`): `q_id, doc_id, score`, the grade an int64. */
export const RANX_QRELS_SCHEMA: TableSchema = {
  what: "ranx qrels row",
  columns: [
    { name: "q_id", type: "string" },
    { name: "doc_id", type: "string" },
    { name: "score", type: "int64" },
  ],
};

/** {@link ClarificationNeedEntry}: a clarification-need prediction `topic label` (labels 1-4, read as numbers). */
export const CLARIFICATION_NEED_ENTRY_SCHEMA: TableSchema = {
  what: "clarification-need prediction",
  columns: [
    { name: "topic_id", type: "int64" },
    { name: "label", type: "double" },
  ],
};

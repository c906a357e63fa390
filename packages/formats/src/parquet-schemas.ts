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

// Absent list fields are written as empty lists (list columns are never null), nested objects
// (iKAT run metadata, args.me context) as their fields' columns: the tables a pandas user gets
// from json_normalize + explode, with every type declared.

/** {@link ClariqRow}: ClariQ `train.tsv` / `dev.tsv` / `test_with_labels.tsv`. */
export const CLARIQ_ROW_SCHEMA: TableSchema = {
  what: "ClariQ row",
  columns: [
    { name: "topic_id", type: "int64" },
    { name: "initial_request", type: "string" },
    { name: "topic_desc", type: "string" },
    { name: "clarification_need", type: "int64" },
    { name: "facet_id", type: "string" },
    { name: "facet_desc", type: "string" },
    { name: "question_id", type: "string" },
    { name: "question", type: "string" },
    { name: "answer", type: "string" },
  ],
};

/** {@link ClariqTestTopic}: ClariQ `test.tsv`. */
export const CLARIQ_TEST_TOPIC_SCHEMA: TableSchema = {
  what: "ClariQ test topic",
  columns: [
    { name: "topic_id", type: "int64" },
    { name: "initial_request", type: "string" },
  ],
};

/** {@link QuestionBankEntry}: ClariQ `question_bank.tsv`. */
export const QUESTION_BANK_SCHEMA: TableSchema = {
  what: "question bank entry",
  columns: [
    { name: "question_id", type: "string" },
    { name: "question", type: "string" },
  ],
};

/** {@link HumanMultiTurnRow}: ClariQ `multi_turn_human_generated_data.tsv`. */
export const HUMAN_MULTI_TURN_SCHEMA: TableSchema = {
  what: "human multi-turn row",
  columns: [
    { name: "index", type: "string" },
    { name: "unnamed_0", type: "string" },
    { name: "topic_id", type: "int64" },
    { name: "facet_id", type: "string" },
    { name: "facet", type: "string" },
    { name: "initial_request", type: "string" },
    { name: "turns", type: "list", fields: QA_TURNS },
  ],
};

/** {@link ClarificationNeedEntry}: a ClariQ clarification-need run line. */
export const CLARIFICATION_NEED_SCHEMA: TableSchema = {
  what: "clarification-need prediction",
  columns: [
    { name: "topic_id", type: "int64" },
    { name: "label", type: "int64" },
  ],
};

/** {@link MultiTurnRunEntry}: a ClariQ multi-turn run line. */
export const MULTI_TURN_RUN_SCHEMA: TableSchema = {
  what: "multi-turn run line",
  columns: [
    { name: "context_id", type: "int64" },
    { name: "q0", type: "string" },
    { name: "question", type: "string" },
    { name: "rank", type: "int64" },
    { name: "score", type: "double" },
    { name: "run", type: "string" },
  ],
};

/** An eval value's two variants, and whether the row is ClariQ's MAX or MIN over the context's questions. */
const EVAL_VALUES = [
  { name: "no_answer", type: "double" },
  { name: "with_answer", type: "double" },
  { name: "aggregate", type: "boolean" },
] as const;

/** {@link EvalEntry} of a single-turn eval dict: contexts are facet ids. */
export const EVAL_ENTRY_SCHEMA: TableSchema = {
  what: "eval-dict entry",
  columns: [
    { name: "metric", type: "string" },
    { name: "context", type: "string" },
    { name: "question", type: "string" },
    ...EVAL_VALUES,
  ],
};

/** {@link EvalEntry} of a multi-turn eval dict: contexts are int context ids. */
export const MULTI_TURN_EVAL_ENTRY_SCHEMA: TableSchema = {
  what: "multi-turn eval-dict entry",
  columns: [
    { name: "metric", type: "string" },
    { name: "context", type: "int64" },
    { name: "question", type: "string" },
    ...EVAL_VALUES,
  ],
};

/** {@link QulacRow}: Qulac's `qulac.json`. */
export const QULAC_ROW_SCHEMA: TableSchema = {
  what: "Qulac row",
  columns: [
    { name: "topic_id", type: "int64" },
    { name: "facet_id", type: "int64" },
    { name: "topic_facet_id", type: "string" },
    { name: "topic_facet_question_id", type: "string" },
    { name: "topic", type: "string" },
    { name: "topic_type", type: "string" },
    { name: "facet_type", type: "string" },
    { name: "topic_desc", type: "string" },
    { name: "facet_desc", type: "string" },
    { name: "question", type: "string" },
    { name: "answer", type: "string" },
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
 * An iKAT topic turn as `convkit ikat flatten` writes it (one row a turn, 2023–2025 topics):
 * `ptkb` (a `{id: text}` object in JSONL) as `{id, text}` pairs in id order, 2025's
 * `relevant_ptkbs` and `citations` empty for earlier years.
 */
export const IKAT_TURN_SCHEMA: TableSchema = {
  what: "iKAT turn",
  columns: [
    { name: "turn_id", type: "string" },
    { name: "topic", type: "string" },
    { name: "title", type: "string" },
    { name: "turn", type: "int64" },
    { name: "utterance", type: "string" },
    { name: "resolved_utterance", type: "string" },
    { name: "response", type: "string" },
    {
      name: "ptkb",
      type: "list",
      fields: [
        { name: "id", type: "string" },
        { name: "text", type: "string" },
      ],
    },
    { name: "ptkb_provenance", type: "list", element: "string" },
    { name: "response_provenance", type: "list", element: "string" },
    { name: "relevant_ptkbs", type: "list", element: "string" },
    { name: "citations", type: "list", element: "string" },
    {
      name: "history",
      type: "list",
      fields: [
        { name: "turn_id", type: "string" },
        { name: "utterance", type: "string" },
        { name: "resolved_utterance", type: "string" },
        { name: "response", type: "string" },
      ],
    },
  ],
};

/**
 * A response of an iKAT 2023/2024 run ({@link IkatRunTurn} exploded on `responses`): one row a
 * response; a turn without responses is one row with `rank` and `text` null. PTKB provenance
 * given as bare ids has `text` and `score` null.
 */
export const IKAT_RESPONSE_SCHEMA: TableSchema = {
  what: "iKAT run response",
  columns: [
    { name: "turn_id", type: "string" },
    { name: "rank", type: "int64", nullable: true },
    { name: "text", type: "string", nullable: true },
    {
      name: "ptkb_provenance",
      type: "list",
      fields: [
        { name: "id", type: "string" },
        { name: "text", type: "string", nullable: true },
        { name: "score", type: "double", nullable: true },
      ],
    },
    {
      name: "passage_provenance",
      type: "list",
      fields: [
        { name: "id", type: "string" },
        { name: "text", type: "string", nullable: true },
        { name: "score", type: "double", nullable: true },
        { name: "used", type: "boolean", nullable: true },
      ],
    },
  ],
};

const SCORED = [
  { name: "id", type: "string" },
  { name: "score", type: "double" },
] as const;

/**
 * A response of a 2025 iKAT run ({@link Ikat25Turn} with `metadata` as columns, exploded on
 * `responses`): the turn's `references` on each of its rows, `response` the 1-based position of
 * the response in the turn (null, with `text` null, for a turn without responses).
 */
export const IKAT25_RESPONSE_SCHEMA: TableSchema = {
  what: "iKAT 2025 run response",
  columns: [
    { name: "team_id", type: "string" },
    { name: "run_id", type: "string" },
    { name: "run_type", type: "string" },
    { name: "turn_id", type: "string" },
    { name: "references", type: "list", fields: SCORED },
    { name: "response", type: "int64", nullable: true },
    { name: "text", type: "string", nullable: true },
    { name: "citations", type: "list", fields: SCORED },
    { name: "ptkb_provenance", type: "list", element: "string" },
  ],
};

/** {@link PassageRecord}: a line of iKAT's passage collection. */
export const PASSAGE_SCHEMA: TableSchema = {
  what: "passage",
  columns: [
    { name: "id", type: "string" },
    { name: "contents", type: "string" },
    { name: "url", type: "string", nullable: true },
  ],
};

/**
 * {@link PassageRecord} as `convkit segment run --offsets` writes it: `start` and `end`, the
 * passage's place in its document's text in code points (Python's `text[start:end]`).
 */
export const PASSAGE_WITH_OFFSETS_SCHEMA: TableSchema = {
  what: "passage with offsets",
  columns: [...PASSAGE_SCHEMA.columns, { name: "start", type: "int64" }, { name: "end", type: "int64" }],
};

/** {@link PassageHash}: a row of iKAT's passage hash TSV. */
export const PASSAGE_HASH_SCHEMA: TableSchema = {
  what: "passage hash",
  columns: [
    { name: "doc_id", type: "string" },
    { name: "passage_no", type: "int64" },
    { name: "md5", type: "string" },
  ],
};

/** {@link TrecWebDoc}: a TrecWeb document (`passages` empty where it has none). */
export const TRECWEB_DOC_SCHEMA: TableSchema = {
  what: "TrecWeb document",
  columns: [
    { name: "docno", type: "string" },
    { name: "title", type: "string", nullable: true },
    { name: "url", type: "string", nullable: true },
    { name: "body", type: "string" },
    {
      name: "passages",
      type: "list",
      fields: [
        { name: "id", type: "int64" },
        { name: "text", type: "string" },
      ],
    },
  ],
};

/** {@link ClueWeb22Record}: a ClueWeb22 `txt` record (its field names as ClueWeb22 spells them). */
export const CLUEWEB22_SCHEMA: TableSchema = {
  what: "ClueWeb22 record",
  columns: [
    { name: "ClueWeb22-ID", type: "string" },
    { name: "URL", type: "string" },
    { name: "URL-hash", type: "string" },
    { name: "Language", type: "string" },
    { name: "Clean-Text", type: "string" },
  ],
};

/** The fields of an args.me argument's `context`, each a column of {@link ARGS_ME_SCHEMA}. */
export const ARGS_ME_CONTEXT_FIELDS = [
  "sourceId",
  "previousArgumentInSourceId",
  "acquisitionTime",
  "discussionTitle",
  "sourceTitle",
  "sourceUrl",
  "nextArgumentInSourceId",
] as const;

/**
 * {@link ArgsMeArgument}: an args.me argument, its `context` fields as columns (null where absent),
 * its premises' `annotations` (empty throughout args.me) left out.
 */
export const ARGS_ME_SCHEMA: TableSchema = {
  what: "args.me argument",
  columns: [
    { name: "id", type: "string" },
    { name: "conclusion", type: "string" },
    {
      name: "premises",
      type: "list",
      fields: [
        { name: "text", type: "string" },
        { name: "stance", type: "string" },
      ],
    },
    ...ARGS_ME_CONTEXT_FIELDS.map((name) => ({ name, type: "string", nullable: true }) as const),
  ],
};

/** {@link ToucheTopic}: a topic of Touché's `topics.xml`. */
export const TOUCHE_TOPIC_SCHEMA: TableSchema = {
  what: "Touché topic",
  columns: [
    { name: "number", type: "int64" },
    { name: "title", type: "string" },
    { name: "description", type: "string", nullable: true },
    { name: "narrative", type: "string", nullable: true },
  ],
};

/**
 * A value of `trec_eval -q`: one row a measure and topic (`all` for the summary), the value as
 * trec_eval prints it (counts exact, other values to its 4 decimals).
 */
export const TREC_EVAL_VALUE_SCHEMA: TableSchema = {
  what: "trec_eval value",
  columns: [
    { name: "measure", type: "string" },
    { name: "topic", type: "string" },
    { name: "value", type: "double" },
  ],
};

/**
 * A per-topic value `convkit compare --values-out` writes: a run's value of a measure on a topic,
 * for the topics the measure was compared on (0 where `--missing zero` filled one in).
 */
export const COMPARE_VALUE_SCHEMA: TableSchema = {
  what: "compared value",
  columns: [
    { name: "run", type: "string" },
    { name: "measure", type: "string" },
    { name: "topic", type: "string" },
    { name: "value", type: "double" },
  ],
};

/**
 * A pair of runs on a measure as `convkit compare` tests it: the columns of its `--format csv`
 * (NaN and ±inf as the doubles they are, where JSON has null and "inf").
 */
export const COMPARE_PAIR_SCHEMA: TableSchema = {
  what: "compared pair",
  columns: [
    { name: "measure", type: "string" },
    { name: "a", type: "string" },
    { name: "b", type: "string" },
    { name: "n", type: "int64" },
    { name: "mean_a", type: "double" },
    { name: "mean_b", type: "double" },
    { name: "mean_diff", type: "double" },
    { name: "t", type: "double" },
    { name: "statistic", type: "double" },
    { name: "p", type: "double" },
    { name: "p_adjusted", type: "double" },
    { name: "reject", type: "boolean" },
    { name: "cohen_dz", type: "double" },
    { name: "ci95_low", type: "double" },
    { name: "ci95_high", type: "double" },
    { name: "wins", type: "int64" },
    { name: "ties", type: "int64" },
    { name: "losses", type: "int64" },
  ],
};

/** Every declared table (convert reads each back; the README lists each). */
export const TABLE_SCHEMAS: readonly TableSchema[] = [
  SYNTHETIC_RECORD_SCHEMA,
  RUN_ENTRY_SCHEMA,
  QRELS_ENTRY_SCHEMA,
  RANX_RUN_SCHEMA,
  RANX_QRELS_SCHEMA,
  CLARIQ_ROW_SCHEMA,
  CLARIQ_TEST_TOPIC_SCHEMA,
  QUESTION_BANK_SCHEMA,
  HUMAN_MULTI_TURN_SCHEMA,
  CLARIFICATION_NEED_SCHEMA,
  MULTI_TURN_RUN_SCHEMA,
  EVAL_ENTRY_SCHEMA,
  MULTI_TURN_EVAL_ENTRY_SCHEMA,
  QULAC_ROW_SCHEMA,
  QULAC_HIST_RECORD_SCHEMA,
  IKAT_TURN_SCHEMA,
  IKAT_RESPONSE_SCHEMA,
  IKAT25_RESPONSE_SCHEMA,
  PASSAGE_SCHEMA,
  PASSAGE_WITH_OFFSETS_SCHEMA,
  PASSAGE_HASH_SCHEMA,
  TRECWEB_DOC_SCHEMA,
  CLUEWEB22_SCHEMA,
  ARGS_ME_SCHEMA,
  TOUCHE_TOPIC_SCHEMA,
  TREC_EVAL_VALUE_SCHEMA,
  COMPARE_VALUE_SCHEMA,
  COMPARE_PAIR_SCHEMA,
];

// Every record format convkit reads or writes, typed in one place. Field names follow the upstream files.

/** A row of ClariQ `train.tsv` / `dev.tsv` / `test_with_labels.tsv`. */
export interface ClariqRow {
  topic_id: number;
  initial_request: string;
  topic_desc: string;
  clarification_need: number;
  facet_id: string;
  facet_desc: string;
  question_id: string;
  question: string;
  answer: string;
}

/** A row of ClariQ `test.tsv` (topics without labels). */
export interface ClariqTestTopic {
  topic_id: number;
  initial_request: string;
}

/** A row of `question_bank.tsv`; `Q00001` is the empty "no question". */
export interface QuestionBankEntry {
  question_id: string;
  question: string;
}

/** A row of `multi_turn_human_generated_data.tsv` (up to three human turns). */
export interface HumanMultiTurnRow {
  index: string;
  unnamed_0: string;
  topic_id: number;
  facet_id: string;
  facet: string;
  initial_request: string;
  turns: { question: string; answer: string }[];
}

/** A TREC qrels line `qid iter docno rel` (ClariQ: `facet 0 doc rel`, rel may be negative). */
export interface QrelsEntry {
  qid: string;
  iter: string;
  docno: string;
  rel: number;
}

/** A TREC run line `qid Q0 docno rank score tag`; ClariQ question rankings use the same layout. */
export interface RunEntry {
  qid: string;
  q0: string;
  docno: string;
  rank: number;
  score: number;
  tag: string;
}

/** A ClariQ clarification-need prediction `topic label`. */
export interface ClarificationNeedEntry {
  topic_id: number;
  label: number;
}

/** A ClariQ multi-turn run line `context 0 "question text" rank score run` (`""` = no question). */
export interface MultiTurnRunEntry {
  context_id: number;
  q0: string;
  question: string;
  rank: number;
  score: number;
  run: string;
}

/** One question/answer turn of a conversation history. */
export interface QaTurn {
  question: string;
  answer: string;
}

/** A record of ClariQ's synthetic conversation dicts (`{record_id: {...}}`). */
export interface SyntheticRecord {
  record_id: number;
  topic_id: number;
  facet_id: string;
  initial_request: string;
  question: string;
  answer: string;
  conversation_context: QaTurn[];
  context_id: number;
}

/** The two variants every eval-dict value comes in. */
export interface EvalPair {
  no_answer: number;
  with_answer: number;
}

/** A flattened eval-dict value: `dict[metric][context][question]`. */
export interface EvalEntry extends EvalPair {
  metric: string;
  /** A facet id string (single-turn dicts) or an int context id (multi-turn dicts). */
  context: string | number;
  /** A question id, or `MAX` / `MIN`. */
  question: string;
}

/** A row of Qulac's `qulac.json`. */
export interface QulacRow {
  topic_id: number;
  facet_id: number;
  topic_facet_id: string;
  topic_facet_question_id: string;
  topic: string;
  topic_type: string;
  facet_type: string;
  topic_desc: string;
  facet_desc: string;
  question: string;
  answer: string;
}

/** A record of Qulac's `qulac_hist012_dict` (string record ids `topic-facet[-h1][-h2]-q`). */
export interface QulacHistRecord {
  record_id: string;
  history_id: string;
  history_list: QaTurn[];
  query: string;
  question: string;
  answer: string;
}

/** One value of Qulac's `eval_hist012_dict` (`{metric: {record_id_with_flag: value}}`). */
export interface QulacEvalEntry {
  metric: string;
  record_id: string;
  value: number;
}

/** An iKAT topic (conversation), normalized over 2023, 2024 and 2025 layouts. */
export interface IkatTopic {
  /** `"1-1"` in 2023/2025, `"0"` … in 2024 (an int in the file). */
  number: string;
  title: string;
  /** PTKB statements with their ids (`"1"`, `"2"`, … for objects; 1-based positions for 2025 lists). */
  ptkb: { id: string; text: string }[];
  turns: IkatTopicTurn[];
}

/** One turn of an iKAT topic. */
export interface IkatTopicTurn {
  turn_id: number;
  utterance: string;
  resolved_utterance: string;
  response: string;
  /** PTKB ids relevant to the turn (2023/24 `ptkb_provenance`, 2025 `relevant_ptkbs`). */
  ptkb_provenance: (string | number)[];
  /** Passage ids behind the response (2023/24 `response_provenance`, 2025 `citations`). */
  response_provenance: unknown[];
  /** 2025: the relevant PTKB statements' texts, as the topics give them. */
  relevant_ptkbs?: string[];
  /** 2025: the gold response's passage ids. */
  citations?: string[];
}

/** An iKAT run submission (2023/2024 guidelines). */
export interface IkatRun {
  run_name: string;
  run_type: string;
  eval_response?: boolean;
  turns: IkatRunTurn[];
}

/** One turn of an iKAT run. */
export interface IkatRunTurn {
  turn_id: string;
  responses: IkatResponse[];
}

/** One ranked response of an iKAT run turn. */
export interface IkatResponse {
  rank: number;
  text: string;
  /** PTKB statement ids, or (2023's samples) the statements ranked: `{id, text, score}`. */
  ptkb_provenance?: (string | number | IkatPtkbProvenance)[];
  passage_provenance: IkatProvenance[];
}

/** A ranked PTKB statement behind an iKAT response (2023's sample runs). */
export interface IkatPtkbProvenance {
  id: string;
  text?: string;
  score?: number;
}

/** A passage behind an iKAT response. */
export interface IkatProvenance {
  id: string;
  text?: string;
  /** Absent in `only_response` runs (2024 on). */
  score?: number;
  /** Absent: the top 5 count as used. */
  used?: boolean;
}

/** A passage line of iKAT's JSONL collection. */
export interface PassageRecord {
  id: string;
  contents: string;
  url?: string;
  /** Where the passage lies in its document's text, in code points (`convkit segment run --offsets`). */
  start?: number;
  end?: number;
}

/** A row of iKAT's passage hash TSV: `docid<TAB>k<TAB>md5`. */
export interface PassageHash {
  doc_id: string;
  passage_no: number;
  md5: string;
}

/** A TrecWeb document; `passages` is filled for iKAT passage files (`<PASSAGE id=k>`). */
export interface TrecWebDoc {
  docno: string;
  title?: string;
  url?: string;
  body: string;
  passages?: { id: number; text: string }[];
}

/** A ClueWeb22 `txt` record. */
export interface ClueWeb22Record {
  "ClueWeb22-ID": string;
  /** The URL as stored, with its trailing newline. */
  URL: string;
  "URL-hash": string;
  Language: string;
  "Clean-Text": string;
}

/** An args.me argument (Touché 2021 Task 1 corpus). */
export interface ArgsMeArgument {
  id: string;
  conclusion: string;
  premises: { text: string; stance: string; annotations?: unknown[] }[];
  context?: Record<string, unknown>;
  [extra: string]: unknown;
}

/** A Touché topic from `topics.xml`. */
export interface ToucheTopic {
  number: number;
  title: string;
  description?: string;
  narrative?: string;
}

/** Relevance and quality judgments of one (topic, document), joined on both keys. */
export interface ToucheJudgment {
  qid: string;
  docno: string;
  relevance?: number;
  quality?: number;
}

/** A document to retrieve or segment: from ClueWeb22 txt, TrecWeb or a JSONL `{id, text}` line. */
export interface WebDocument {
  id: string;
  text: string;
  url?: string;
  /** TrecWeb's title; for ClueWeb22 the first line of Clean-Text. */
  title?: string;
}

/** A scored passage id of a 2025 run, in file order (a JS object would put integer-like ids first). */
export interface Ikat25Scored {
  id: string;
  score: number;
}

/** The `metadata` of a 2025 run line. */
export interface Ikat25Metadata {
  team_id: string;
  run_id: string;
  /** `manual`, `automatic` or `generation-only` by the guidelines (any string is read). */
  run_type: string;
}

/** One response of a 2025 run turn. */
export interface Ikat25Response {
  text: string;
  /** The file's `{passage id: score}` as ordered pairs. */
  citations: Ikat25Scored[];
  /** PTKB statement ids (1-based positions in the topic's `ptkb` list; ints read as their digits). */
  ptkb_provenance: string[];
}

/** One line (turn) of a TREC iKAT 2025 run (JSON Lines). */
export interface Ikat25Turn {
  metadata: Ikat25Metadata;
  /** `topic_turn`, e.g. `1-1_2`. */
  turn_id: string;
  /** The file's `{passage id: score}` as ordered pairs, in file order. */
  references: Ikat25Scored[];
  responses: Ikat25Response[];
}

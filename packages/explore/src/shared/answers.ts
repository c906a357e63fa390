// The API's answer types, route by route (api.ts pairs them with the routes): pure, shared with the page.
import type { PairResult } from "@convkit/compare";
import type { ConversationsSummary, EvalDictSummary, TopicsSummary } from "./list-summary.js";
import type { QuestionView } from "./question-answers.js";
import type { TurnSummary, TurnView } from "./responses-answers.js";

export type * from "./responses-answers.js";

interface Page<T> {
  total: number;
  offset: number;
  items: T[];
}

export interface Meta {
  views: {
    dataset: boolean;
    conversations: boolean;
    evalDicts: boolean;
    runs: boolean;
    passages: boolean;
    responses: boolean;
  };
  dataset?: {
    /** File names (no folders: a static export must not carry the machine's paths). */
    files: string[];
    splits: Record<string, { topics: number; facets: number; questions: number }>;
    questionBank: number;
    qulac: { rows: number; topics: number; facets: number };
  };
  synthetic: {
    file: string;
    records: number;
    contexts: number;
    topics: number;
    contextsByLevel: number[];
    recordsByLevel: number[];
    /** Topics of the splits this set covers that it has no records of, and why (not silently missing). */
    absent: { topic_id: number; split: string; why: string }[];
  }[];
  evalDicts: { file: string; metrics: string[]; contexts: number; keyedBy: "facet" | "context" }[];
  runs?: { names: string[]; scoring: string };
  /** iKAT 2025 runs (their names) and how many turns the Responses view lists. */
  responses?: { runs: string[]; turns: number };
  passages: { file: string; kind: "documents" | "official passages"; documents: number }[];
  splitters: readonly string[];
  /** The spaCy model's name and version, when one is loaded. */
  spacyModel?: { name: string; version: string };
  idsDecoded: boolean;
  openSeconds: number;
}

interface TopicSummary {
  topic_id: number;
  split: string;
  initial_request: string;
  clarification_need: number;
  facets: number;
  questions: number;
}

interface QaRow {
  question_id: string;
  question: string;
  answer: string;
  qulac_id?: string;
}

interface FacetView {
  facet_id: string;
  facet_desc: string;
  qulac_facet?: number;
  qa: QaRow[];
  /** The loaded eval dicts (their index in Meta.evalDicts) that have an entry for this facet. */
  eval_dicts?: number[];
}

interface TopicView {
  topic_id: number;
  split: string;
  initial_request: string;
  topic_desc: string;
  clarification_need: number;
  facets: FacetView[];
  qulac_rows: number;
}

interface ConvTopic {
  topic_id: number;
  initial_request?: string;
  facets: number;
  contexts: number;
  records: number;
}

/** A turn of a conversation's history: the question (its bank id when known) and the answer. */
interface HistoryTurn {
  question_id?: string;
  question: string;
  answer: string;
}

export interface ContextNode {
  context_id: number;
  level: number;
  history: HistoryTurn[];
  records: number;
  children?: ContextNode[];
}

interface ConvFacet {
  facet_id: string;
  facet_desc?: string;
  contexts: number;
  tree: ContextNode[];
}

interface DecodedIdView {
  topic_id: number;
  facet_id: string;
  history: string[];
  question?: string;
}

interface ConvRecord {
  line: number;
  /** The current question's bank id, when the facet's rows name exactly one. */
  question_id?: string;
  record_id: number | string | undefined;
  question: string;
  answer: string;
  qulac_id?: string;
  qulac_record?: string;
  clariq?: DecodedIdView & { agrees: boolean };
}

interface ContextView {
  context_id: number;
  topic_id: number;
  initial_request?: string;
  facet_id: string;
  facet_desc?: string;
  level: number;
  id_kind: "facet number" | "multi-turn context";
  history: (HistoryTurn & { qulac_id?: string })[];
  clariq_context?: DecodedIdView | null;
  /** Eval dicts holding this context (their file index and the key there). */
  eval_dicts: { file: number; key: string }[];
  /** The runs' picks made in this context (multi-turn runs), each with the eval-dict entry that scores it. */
  picks: {
    run: string;
    question: string | null;
    question_text?: string;
    dict: { file: number; key: string };
  }[];
  records: Page<ConvRecord>;
}

interface EvalPick {
  run: string;
  question: string | null;
  question_text?: string;
  in_dict: boolean;
  value: number | undefined;
  rank: number | null;
}

export interface EvalMetric {
  metric: string;
  /** MAX's and MIN's with_answer (what a pick is scored against) and, beside them, their no_answer. */
  max: number | undefined;
  min: number | undefined;
  max_no_answer: number | undefined;
  min_no_answer: number | undefined;
  best: string | undefined;
  questions: { question: string; text?: string; no_answer: number; with_answer: number }[];
  picks: EvalPick[];
}

export interface EvalContextView {
  context: string;
  /** What the key stands for, when known: a facet of a topic, or a synthetic context. */
  about?: {
    topic_id: number;
    initial_request?: string;
    facet_id?: string;
    facet_desc?: string;
    conversation?: { file: number; context_id: number };
  };
  candidates: number;
  metrics: EvalMetric[];
}

/** One pair as the Runs view shows it: convkit-compare's own result, the fields its table needs. */
type PairRow = Pick<
  PairResult,
  | "measure"
  | "a"
  | "b"
  | "n"
  | "mean_a"
  | "mean_b"
  | "mean_diff"
  | "p"
  | "p_adjusted"
  | "reject"
  | "wins"
  | "ties"
  | "losses"
>;

interface RunsSummary {
  comparison: {
    test: string;
    correction: string;
    alpha: number;
    missing: string;
    runs: string[];
    baseline?: string;
    measures: { name: string; topics: number; means: number[] }[];
    pairs: PairRow[];
  };
  scoring: string;
}

interface DeltaRow {
  /** The run's own id of the unit scored: a topic (TREC) or a facet (ClariQ's per-facet values). */
  topic: string;
  /** The topic whose rankings it opens (a facet's topic), with its request when known. */
  ranking_topic: string;
  label?: string;
  a: number;
  b: number;
  delta: number;
}

interface Deltas {
  measure: string;
  /** The baseline's and the compared run's names. */
  a: string;
  b: string;
  b_index: number;
  /** The page's rows of the whole list (`total` rows) in its order, from `offset`. */
  rows: DeltaRow[];
  total: number;
  offset: number;
}

interface RankedEntryView {
  rank: number;
  doc: string;
  text?: string;
  score: number;
  rel: number | null;
  only_here: boolean;
  /** Rank against the baseline's whole ranking (positive: moved up); null in the baseline or when it lacks the item. */
  move: number | null;
  /** The item's first rank in the other run of the pair (the baseline's: the compared run), whole ranking. */
  other_rank?: number | null;
  /** The other ranks at which this run ranks the same item again (a duplicate). */
  same_item_at?: number[];
  /** The item's answer for the facet (ClariQ's rows), when asked for a facet. */
  answer?: string;
  /** The item's eval-dict value for the facet in `eval_metric` (with an answer), when the dict has it. */
  eval?: number;
}

interface RunTopicView {
  /** The id asked for (topic or facet) and the topic whose rankings these are. */
  id: string;
  topic: string;
  facet?: { facet_id: string; facet_desc?: string };
  /** Multi-turn runs: the id is a conversation context (each run's ranking is its pick there). */
  context?: boolean;
  initial_request?: string;
  judged: number;
  /** How deep the rankings are shown. */
  depth: number;
  runs: { name: string; role: "baseline" | "compared"; length: number; entries: RankedEntryView[] }[];
  /** Each measure's value of the id asked for (topic or facet) in every run, in run order. */
  values: { measure: string; values: (number | null)[] }[];
  /** The single-turn eval dict whose values the entries carry, and its metric. */
  eval_dict?: { file: number; name: string; metric: string };
}

export interface DocSummary {
  id: string;
  lines: number;
  /** Where the search text was found (a snippet), for text searches. */
  snippet?: string;
}

interface PassageWindow {
  id: string;
  md5: string;
  first: number;
  sentences: number;
  text: string;
}

interface SplitterSide {
  splitter: string;
  starts: number[];
  sentences: string[];
  passages: PassageWindow[];
}

export interface OfficialPassage {
  id: string;
  text: string;
  md5: string;
  used: boolean;
  /** Per side, how its window compares: equal, different (with the first moved boundary), or absent. */
  vs: {
    splitter: string;
    same: boolean | null;
    /** Where the texts first differ, and the two texts around it. */
    diff?: { at: number; official: string; ours: string; note: string };
  }[];
}

export interface DocView {
  id: string;
  text: string;
  window: number;
  stride: number;
  sides: SplitterSide[];
  only: number[][];
  firstPassage: number;
  official: OfficialPassage[] | null;
  kind: "documents" | "official passages";
  /** A note on the model: the official collection was cut with en_core_web_sm 3.4.1. */
  modelNote?: string;
}

/** Each route's answer type. */
export interface Answers {
  meta: Meta;
  "dataset/topics": Page<TopicSummary>;
  "dataset/summary": TopicsSummary;
  "dataset/topic": TopicView;
  "conversations/topics": Page<ConvTopic>;
  "conversations/summary": ConversationsSummary;
  "conversations/topic": ConvFacet[];
  "conversations/context": ContextView;
  "evaldict/contexts": Page<{ id: string; label?: string; candidates?: number }>;
  "evaldict/summary": EvalDictSummary;
  "evaldict/context": EvalContextView;
  "runs/summary": RunsSummary;
  "runs/deltas": Deltas;
  "runs/topic": RunTopicView;
  "passages/docs": Page<DocSummary>;
  "passages/doc": DocView;
  "responses/turns": Page<TurnSummary>;
  "responses/turn": TurnView;
  question: QuestionView;
}

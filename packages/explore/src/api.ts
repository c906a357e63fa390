// The explorer's HTTP API as one typed table: each route's parameters (validated) and its answer's type.
// Pure (no Node imports): the server, the page (web/) and --static all read this one file.

/** A parameter: an integer in a range, a choice, or text up to a length. */
export type ParamSpec =
  | { kind: "int"; min: number; max?: number; default?: number }
  | { kind: "choice"; values: readonly string[] }
  | { kind: "text"; max: number; required?: boolean };

const uint = (d: number, max?: number) =>
  ({ kind: "int", min: 0, default: d, ...(max ? { max } : {}) }) as const;
/** An integer id (no default: required). */
const intId = { kind: "int", min: 0 } as const;
const text = (max = 200) => ({ kind: "text", max }) as const;
const id = () => ({ kind: "text", max: 200, required: true }) as const;
/** Which input file of its kind (the first by default). */
const file = uint(0);
export const SPLITS = ["train", "dev", "test", "qulac"] as const;

/** Every route and its parameters; a parameter not listed here gets a 400. */
export const ROUTES = {
  meta: {},
  "dataset/topics": {
    q: text(),
    split: { kind: "choice", values: SPLITS } as const,
    offset: uint(0),
    limit: uint(50, 500),
  },
  "dataset/topic": { id: intId },
  "conversations/topics": { file, offset: uint(0), limit: uint(100, 500) },
  "conversations/topic": { file, id: intId },
  "conversations/context": { file, id: intId, offset: uint(0), limit: uint(50, 500) },
  "evaldict/contexts": { file, q: text(), offset: uint(0), limit: uint(50, 500) },
  "evaldict/context": { file, id: id() },
  "runs/summary": {},
  "runs/deltas": { measure: text(), b: { kind: "int", min: 1, default: 1 } as const },
  "runs/topic": { id: id(), depth: uint(20, 1000) },
  "passages/docs": { file, q: text(), offset: uint(0), limit: uint(50, 500) },
  "passages/doc": { file, id: id() },
} as const satisfies Record<string, Record<string, ParamSpec>>;

export type RoutePath = keyof typeof ROUTES;
type SpecValue<S> = S extends { kind: "int" }
  ? number
  : S extends { kind: "choice"; values: readonly (infer V)[] }
    ? V
    : string;
/** A route's parameters as the page passes them (all optional: defaults apply). */
export type ParamsOf<P extends RoutePath> = {
  [K in keyof (typeof ROUTES)[P]]?: SpecValue<(typeof ROUTES)[P][K]>;
};
/** A route's parameters after validation: defaults filled in. */
export type ParsedOf<P extends RoutePath> = {
  [K in keyof (typeof ROUTES)[P]]: (typeof ROUTES)[P][K] extends { kind: "int" } | { required: true }
    ? SpecValue<(typeof ROUTES)[P][K]>
    : SpecValue<(typeof ROUTES)[P][K]> | undefined;
};

/** The JSON of an error answer: what went wrong and, for a 400, which parameter. */
export interface ApiError {
  error: string;
  parameter?: string;
}

/** Validates a query against a route's table: the parsed values, or the 400's body. */
export function parseParams<P extends RoutePath>(
  path: P,
  q: URLSearchParams,
): { ok: true; params: ParsedOf<P> } | { ok: false; error: ApiError } {
  const specs: Record<string, ParamSpec> = ROUTES[path];
  const out: Record<string, string | number | undefined> = {};
  for (const k of new Set(q.keys())) {
    if (!(k in specs))
      return bad(
        k,
        `unknown parameter ${JSON.stringify(k)} (${path} takes ${Object.keys(specs).join(", ") || "none"})`,
      );
    if (q.getAll(k).length > 1) return bad(k, `${k} given ${q.getAll(k).length} times`);
  }
  for (const [k, s] of Object.entries(specs)) {
    const raw = q.get(k);
    if (raw === null || (raw === "" && s.kind !== "text")) {
      if (s.kind === "text" && s.required) return bad(k, `${k} is required`);
      out[k] = s.kind === "int" ? s.default : undefined;
      if (s.kind === "int" && s.default === undefined) return bad(k, `${k} is required`);
      continue;
    }
    if (s.kind === "int") {
      const v = /^-?\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
      if (!Number.isSafeInteger(v))
        return bad(k, `${k} must be a whole number, not ${JSON.stringify(raw.slice(0, 40))}`);
      if (v < s.min || (s.max !== undefined && v > s.max))
        return bad(k, `${k} must be ${s.min}${s.max !== undefined ? `–${s.max}` : " or more"}, not ${v}`);
      out[k] = v;
    } else if (s.kind === "choice") {
      if (!s.values.includes(raw))
        return bad(k, `${k} must be one of ${s.values.join(", ")}, not ${JSON.stringify(raw.slice(0, 40))}`);
      out[k] = raw;
    } else {
      if (raw.length > s.max) return bad(k, `${k} is ${raw.length} characters; at most ${s.max}`);
      if (s.required && raw === "") return bad(k, `${k} is required`);
      out[k] = raw;
    }
  }
  return { ok: true, params: out as ParsedOf<P> };
}

const bad = (parameter: string, error: string) => ({ ok: false as const, error: { error, parameter } });

/** The request URL of a route, as the page asks for it and --static stores it (defaults dropped). */
export function apiUrl<P extends RoutePath>(path: P, params: ParamsOf<P> = {} as ParamsOf<P>): string {
  const specs: Record<string, ParamSpec> = ROUTES[path];
  const given = params as Record<string, string | number | undefined>;
  const q = new URLSearchParams();
  for (const [k, s] of Object.entries(specs)) {
    const v = given[k];
    if (v === undefined || v === "" || (s.kind === "int" && s.default === v)) continue;
    q.set(k, String(v));
  }
  const s = q.toString();
  return `api/${path}${s ? `?${s}` : ""}`;
}

// ---------------------------------------------------------------- answers

export interface Page<T> {
  total: number;
  offset: number;
  items: T[];
}

export interface Meta {
  views: { dataset: boolean; conversations: boolean; evalDicts: boolean; runs: boolean; passages: boolean };
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
  }[];
  evalDicts: { file: string; metrics: string[]; contexts: number; keyedBy: "facet" | "context" }[];
  runs?: { names: string[]; scoring: string };
  passages: { file: string; kind: "documents" | "official passages"; documents: number }[];
  splitters: readonly string[];
  /** The spaCy model's name and version, when one is loaded. */
  spacyModel?: { name: string; version: string };
  idsDecoded: boolean;
  openSeconds: number;
}

export interface TopicSummary {
  topic_id: number;
  split: string;
  initial_request: string;
  clarification_need: number;
  facets: number;
  questions: number;
}

export interface QaRow {
  question_id: string;
  question: string;
  answer: string;
  qulac_id?: string;
}

export interface FacetView {
  facet_id: string;
  facet_desc: string;
  qulac_facet?: number;
  qa: QaRow[];
}

export interface TopicView {
  topic_id: number;
  split: string;
  initial_request: string;
  topic_desc: string;
  clarification_need: number;
  facets: FacetView[];
  qulac_rows: number;
}

export interface ConvTopic {
  topic_id: number;
  initial_request?: string;
  facets: number;
  contexts: number;
  records: number;
}

export interface ContextNode {
  context_id: number;
  level: number;
  history: string[];
  records: number;
  children?: ContextNode[];
}

export interface ConvFacet {
  facet_id: string;
  facet_desc?: string;
  contexts: number;
  tree: ContextNode[];
}

export interface DecodedIdView {
  topic_id: number;
  facet_id: string;
  history: string[];
  question?: string;
}

export interface ConvRecord {
  line: number;
  record_id: number | string | undefined;
  question: string;
  answer: string;
  qulac_id?: string;
  qulac_record?: string;
  clariq?: DecodedIdView & { agrees: boolean };
}

export interface ContextView {
  context_id: number;
  topic_id: number;
  initial_request?: string;
  facet_id: string;
  facet_desc?: string;
  level: number;
  id_kind: "facet number" | "multi-turn context";
  history: { question: string; answer: string; qulac_id?: string }[];
  clariq_context?: DecodedIdView | null;
  /** Eval dicts holding this context (their file index and the key there). */
  eval_dicts: { file: number; key: string }[];
  records: Page<ConvRecord>;
}

export interface EvalPick {
  run: string;
  question: string | null;
  question_text?: string;
  in_dict: boolean;
  value: number | undefined;
  rank: number | null;
}

export interface EvalMetric {
  metric: string;
  max: number | undefined;
  min: number | undefined;
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

export interface PairRow {
  measure: string;
  a: string;
  b: string;
  n: number;
  mean_a: number;
  mean_b: number;
  mean_diff: number;
  p: number;
  p_adjusted: number;
  reject: boolean;
  wins: number;
  ties: number;
  losses: number;
}

export interface RunsSummary {
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

export interface DeltaRow {
  /** The run's own id of the unit scored: a topic (TREC) or a facet (ClariQ's per-facet values). */
  topic: string;
  /** The topic whose rankings it opens (a facet's topic), with its request when known. */
  ranking_topic: string;
  label?: string;
  a: number;
  b: number;
  delta: number;
}

export interface Deltas {
  measure: string;
  /** The baseline's and the compared run's names. */
  a: string;
  b: string;
  b_index: number;
  rows: DeltaRow[];
}

export interface RankedEntryView {
  rank: number;
  doc: string;
  text?: string;
  score: number;
  rel: number | null;
  only_here: boolean;
  move: number | null;
}

export interface RunTopicView {
  /** The id asked for (topic or facet) and the topic whose rankings these are. */
  id: string;
  topic: string;
  facet?: { facet_id: string; facet_desc?: string };
  initial_request?: string;
  judged: number;
  runs: { name: string; role: "baseline" | "compared"; entries: RankedEntryView[] }[];
}

export interface DocSummary {
  id: string;
  lines: number;
  /** Where the search text was found (a snippet), for text searches. */
  snippet?: string;
}

export interface PassageWindow {
  id: string;
  md5: string;
  first: number;
  sentences: number;
  text: string;
}

export interface SplitterSide {
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
  "dataset/topic": TopicView;
  "conversations/topics": Page<ConvTopic>;
  "conversations/topic": ConvFacet[];
  "conversations/context": ContextView;
  "evaldict/contexts": Page<{ id: string; label?: string }>;
  "evaldict/context": EvalContextView;
  "runs/summary": RunsSummary;
  "runs/deltas": Deltas;
  "runs/topic": RunTopicView;
  "passages/docs": Page<DocSummary>;
  "passages/doc": DocView;
}

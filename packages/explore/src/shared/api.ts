// The explorer's HTTP API as one typed table: each route's parameters (validated) and its answer's type.
// Pure (no Node imports): the server, the page (web/) and --static all read this one file.
export type {
  Answers,
  ContextNode,
  DocSummary,
  DocView,
  EvalContextView,
  EvalMetric,
  Meta,
  OfficialPassage,
} from "./answers.js";
export type { QuestionContext, QuestionView } from "./question-answers.js";
export type { CitationView, ResponseView, RunTurnView, TurnView } from "./responses-answers.js";

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
/** The columns a topic list sorts by; `-` before one sorts descending. */
export const TOPIC_SORT_KEYS = ["id", "request", "need", "facets", "rows"] as const;
/** The columns the Conversations list sorts by (over the whole filtered list). */
export const CONV_SORT_KEYS = ["id", "request", "facets", "contexts", "records"] as const;
/** The columns the Eval dicts list sorts by: the entry's id, its number of candidate questions. */
const EVAL_SORT_KEYS = ["id", "candidates"] as const;
const sortChoice = (keys: readonly string[]) =>
  ({ kind: "choice", values: keys.flatMap((k) => [k, `-${k}`]) }) as const;
/** The Runs list's orders (sorted over the whole list by the server): by |Δ|, by Δ (the default), by id. */
export const DELTA_SORTS = ["abs", "delta", "id"] as const;

/** Every route and its parameters; a parameter not listed here gets a 400. */
export const ROUTES = {
  meta: {},
  "dataset/topics": {
    q: text(),
    split: { kind: "choice", values: SPLITS } as const,
    sort: sortChoice(TOPIC_SORT_KEYS),
    /** A topic id: with no offset, the page that holds it (a shared URL shows its topic). */
    at: { kind: "int", min: 0, default: -1 } as const,
    offset: uint(0),
    limit: uint(50, 500),
  },
  /** The column summaries of `dataset/topics`' whole filtered list. */
  "dataset/summary": { q: text(), split: { kind: "choice", values: SPLITS } as const },
  "dataset/topic": { id: intId },
  "conversations/topics": {
    file,
    /** Topic id, request, facet id or description, or a question or answer of a context's history. */
    q: text(),
    /** Only contexts of this level (questions asked before it): 0, 1, 2. */
    level: { kind: "choice", values: ["0", "1", "2", "3"] } as const,
    sort: sortChoice(CONV_SORT_KEYS),
    offset: uint(0),
    limit: uint(100, 500),
  },
  /** The column summaries of `conversations/topics`' whole filtered list (same q and level). */
  "conversations/summary": {
    file,
    q: text(),
    level: { kind: "choice", values: ["0", "1", "2", "3"] } as const,
  },
  "conversations/topic": { file, id: intId },
  "conversations/context": { file, id: intId, offset: uint(0), limit: uint(50, 500) },
  "evaldict/contexts": {
    file,
    q: text(),
    /** Only entries where a run's scored pick is at least far/100 below MAX in `metric` (0: all). */
    far: uint(0, 100),
    metric: text(),
    sort: sortChoice(EVAL_SORT_KEYS),
    offset: uint(0),
    limit: uint(50, 500),
  },
  /** The column summaries of `evaldict/contexts`' whole filtered list (same q, far, metric). */
  "evaldict/summary": { file, q: text(), far: uint(0, 100), metric: text() },
  "evaldict/context": { file, id: id() },
  "runs/summary": {},
  "runs/deltas": {
    measure: text(),
    b: { kind: "int", min: 1, default: 1 } as const,
    sort: { kind: "choice", values: DELTA_SORTS } as const,
    offset: uint(0),
    limit: uint(500, 500),
    /** An id whose page is wanted (a shared `#/runs?topic=`): the offset becomes that page's. */
    at: text(),
  },
  "runs/topic": {
    id: id(),
    depth: uint(20, 1000),
    measure: text(),
    b: { kind: "int", min: 1, default: 1 } as const,
  },
  "passages/docs": { file, q: text(), offset: uint(0), limit: uint(50, 500) },
  "passages/doc": { file, id: id() },
  "responses/turns": { q: text(), offset: uint(0), limit: uint(50, 500) },
  "responses/turn": { id: id() },
  /** A page per clarifying question: `id` is a bank id (Q and digits). */
  question: { id: id(), offset: uint(0), limit: uint(100, 500) },
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
    const v = parseValue(k, s, raw);
    if (typeof v === "object") return bad(k, v.error);
    out[k] = v;
  }
  return { ok: true, params: out as ParsedOf<P> };
}

/**
 * One given (non-empty) value of parameter `k` checked against its spec: the value, or why not.
 * The page checks its URL's values with it too, so both say the same (`id must be a whole number, not "abc"`).
 */
export function parseValue(k: string, s: ParamSpec, raw: string): number | string | { error: string } {
  if (s.kind === "int") {
    const v = /^-?\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(v))
      return { error: `${k} must be a whole number, not ${JSON.stringify(raw.slice(0, 40))}` };
    if (v < s.min || (s.max !== undefined && v > s.max))
      return { error: `${k} must be ${s.min}${s.max !== undefined ? `–${s.max}` : " or more"}, not ${v}` };
    return v;
  }
  if (s.kind === "choice")
    return s.values.includes(raw)
      ? raw
      : { error: `${k} must be one of ${s.values.join(", ")}, not ${JSON.stringify(raw.slice(0, 40))}` };
  if (raw.length > s.max) return { error: `${k} is ${raw.length} characters; at most ${s.max}` };
  if (s.required && raw === "") return { error: `${k} is required` };
  return raw;
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

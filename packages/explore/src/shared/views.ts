// What each view asks the API for, given its URL parameters: one plan read by the page and by --static.
// Pure (no Node imports), so the page draws from exactly the requests a static export inlined.
import {
  type Answers,
  type DELTA_SORTS,
  type ParamSpec,
  type ParamsOf,
  parseValue,
  ROUTES,
  type RoutePath,
  type SPLITS,
} from "./api.js";

export const VIEW_NAMES = ["dataset", "conversations", "evaldicts", "runs", "passages", "responses"] as const;
export type View = (typeof VIEW_NAMES)[number];
/** A view's URL parameters (after `#/view?`). */
export type ViewParams = Record<string, string>;

/** One request: a route and its parameters. */
export interface Req<P extends RoutePath = RoutePath> {
  path: P;
  params: ParamsOf<P>;
}
const req = <P extends RoutePath>(path: P, params: ParamsOf<P>): Req<P> => ({ path, params });

/** Page sizes of the lists (the pager moves by these). */
export const PAGE = { topics: 100, contexts: 200, records: 50, docs: 100, turns: 200 } as const;

/** How deep the Runs view shows two rankings unless its URL says (`depth=`). */
export const RUN_DEPTH = 20;

const int = (s: string | undefined, d = 0) => (s !== undefined && /^\d{1,9}$/.test(s) ? Number(s) : d);
const fileOf = (p: ViewParams) => int(p.file);

const opt = <T>(cond: boolean, r: () => T): T | undefined => (cond ? r() : undefined);

/** Per view, its requests: its list first, then the selected items' (absent when none is). */
const PLANS = {
  dataset: (p: ViewParams) => ({
    list: req("dataset/topics", {
      q: p.q ?? "",
      ...(p.split ? { split: p.split as (typeof SPLITS)[number] } : {}),
      ...(p.sort ? { sort: p.sort as ParamsOf<"dataset/topics">["sort"] } : {}),
      // A shared URL of a topic (no offset) opens the page that holds it.
      ...(p.offset === undefined && p.topic !== undefined ? { at: int(p.topic, -1) } : {}),
      offset: int(p.offset),
      limit: PAGE.topics,
    }),
    // Drawn after the list, when it comes (the list does not wait for it).
    summary: req("dataset/summary", {
      q: p.q ?? "",
      ...(p.split ? { split: p.split as (typeof SPLITS)[number] } : {}),
    }),
    topic: opt(p.topic !== undefined, () => req("dataset/topic", { id: int(p.topic, -1) })),
  }),
  conversations: (p: ViewParams) => ({
    list: req("conversations/topics", {
      file: fileOf(p),
      q: p.q ?? "",
      ...(p.level ? { level: p.level as ParamsOf<"conversations/topics">["level"] } : {}),
      ...(p.sort ? { sort: p.sort as ParamsOf<"conversations/topics">["sort"] } : {}),
      offset: int(p.offset),
      limit: PAGE.topics,
    }),
    // Drawn after the list, when it comes (the list does not wait for it).
    summary: req("conversations/summary", {
      file: fileOf(p),
      q: p.q ?? "",
      ...(p.level ? { level: p.level as ParamsOf<"conversations/summary">["level"] } : {}),
    }),
    topic: opt(p.topic !== undefined, () =>
      req("conversations/topic", { file: fileOf(p), id: int(p.topic, -1) }),
    ),
    ctx: opt(p.ctx !== undefined, () =>
      req("conversations/context", {
        file: fileOf(p),
        id: int(p.ctx, -1),
        offset: int(p.roffset),
        limit: PAGE.records,
      }),
    ),
  }),
  evaldicts: (p: ViewParams) => ({
    list: req("evaldict/contexts", {
      file: fileOf(p),
      q: p.q ?? "",
      far: int(p.far),
      ...(p.far ? { metric: p.metric ?? "" } : {}),
      ...(p.sort ? { sort: p.sort as ParamsOf<"evaldict/contexts">["sort"] } : {}),
      offset: int(p.offset),
      limit: PAGE.contexts,
    }),
    // Drawn after the list, when it comes (the list does not wait for it).
    summary: req("evaldict/summary", {
      file: fileOf(p),
      q: p.q ?? "",
      far: int(p.far),
      ...(p.far ? { metric: p.metric ?? "" } : {}),
    }),
    ctx: opt(p.ctx !== undefined, () => req("evaldict/context", { file: fileOf(p), id: p.ctx ?? "" })),
  }),
  runs: (p: ViewParams) => ({
    list: req("runs/deltas", {
      measure: p.measure ?? "",
      b: int(p.b, 1),
      // The view's default order is |Δ|; a sort it cannot mean is the API's 400, said in the page.
      sort: (p.sort ?? "abs") as (typeof DELTA_SORTS)[number],
      offset: int(p.offset),
      limit: PAGE.contexts,
      // A shared `#/runs?topic=X` without an offset opens the page holding X.
      ...(p.offset === undefined && p.topic ? { at: p.topic } : {}),
    }),
    summary: req("runs/summary", {}),
    topic: opt(p.topic !== undefined, () =>
      req("runs/topic", {
        id: p.topic ?? "",
        depth: int(p.depth, RUN_DEPTH),
        measure: p.measure ?? "",
        b: int(p.b, 1),
      }),
    ),
  }),
  passages: (p: ViewParams) => ({
    list: req("passages/docs", { file: fileOf(p), q: p.q ?? "", offset: int(p.offset), limit: PAGE.docs }),
    doc: opt(p.doc !== undefined, () => req("passages/doc", { file: fileOf(p), id: p.doc ?? "" })),
  }),
  responses: (p: ViewParams) => ({
    list: req("responses/turns", { q: p.q ?? "", offset: int(p.offset), limit: PAGE.turns }),
    turn: opt(p.turn !== undefined, () => req("responses/turn", { id: p.turn ?? "" })),
  }),
} satisfies Record<View, (p: ViewParams) => { list: Req }>;

/** Which API parameter each of a view's numeric URL parameters becomes (checked as the API checks it). */
const URL_PARAMS: Record<View, Record<string, [RoutePath, string]>> = {
  dataset: {
    topic: ["dataset/topic", "id"],
    offset: ["dataset/topics", "offset"],
    split: ["dataset/topics", "split"],
  },
  conversations: {
    file: ["conversations/topics", "file"],
    offset: ["conversations/topics", "offset"],
    topic: ["conversations/topic", "id"],
    ctx: ["conversations/context", "id"],
    roffset: ["conversations/context", "offset"],
  },
  evaldicts: { file: ["evaldict/contexts", "file"], offset: ["evaldict/contexts", "offset"] },
  runs: { b: ["runs/deltas", "b"] },
  passages: { file: ["passages/docs", "file"], offset: ["passages/docs", "offset"] },
  responses: { offset: ["responses/turns", "offset"] },
};

/**
 * What is wrong with a view's URL parameters, in the API's own words (`id must be a whole number,
 * not "abc"`) with the URL parameter it came from; undefined when nothing is. A bad value is said,
 * never replaced by a default.
 */
export function urlProblem(view: View, p: ViewParams): { error: string; parameter: string } | undefined {
  for (const [k, [route, name]] of Object.entries(URL_PARAMS[view])) {
    const raw = p[k];
    if (raw === undefined || raw === "") continue;
    const spec = (ROUTES[route] as Record<string, ParamSpec>)[name];
    if (spec === undefined)
      throw new Error(`URL_PARAMS names ${route}'s ${name}, which the route does not have`);
    const v = parseValue(name, spec, raw);
    if (typeof v === "object") return { error: v.error, parameter: k };
  }
  return undefined;
}

export function plan<V extends View>(view: V, p: ViewParams): ReturnType<(typeof PLANS)[V]> {
  return PLANS[view](p) as ReturnType<(typeof PLANS)[V]>;
}

/** Every request of a view's plan, in the order the page makes them (the list first). */
export function planRequests(view: View, p: ViewParams): Req[] {
  return Object.values(plan(view, p)).filter((r): r is Req => r !== undefined);
}

/**
 * The URL parameters that open each item of a view's list (what a click there does): a static
 * export inlines their requests too, so its reader can move between the items it holds.
 */
export function itemParams(view: View, p: ViewParams, list: Answers[RoutePath]): ViewParams[] {
  const keep = (extra: ViewParams) => ({ ...p, ...extra });
  switch (view) {
    case "dataset":
      // As the page's links: the list's offset given, so every item shares the list's request.
      return (list as Answers["dataset/topics"]).items.map((t) =>
        keep({ topic: String(t.topic_id), offset: String((list as Answers["dataset/topics"]).offset) }),
      );
    case "conversations":
      return (list as Answers["conversations/topics"]).items.map((t) => ({
        ...(p.file ? { file: p.file } : {}),
        ...(p.q ? { q: p.q } : {}),
        ...(p.level ? { level: p.level } : {}),
        ...(p.sort ? { sort: p.sort } : {}),
        topic: String(t.topic_id),
      }));
    case "evaldicts":
      return (list as Answers["evaldict/contexts"]).items.map((c) => keep({ ctx: c.id }));
    case "runs":
      return (list as Answers["runs/deltas"]).rows.map((r) => keep({ topic: r.topic }));
    case "passages":
      return (list as Answers["passages/docs"]).items.map((d) => keep({ doc: d.id }));
    case "responses":
      return (list as Answers["responses/turns"]).items.map((t) => keep({ turn: t.id }));
  }
}

/**
 * Requests of other views an item's page links to, which a static export inlines too: a turn of
 * the Responses view links to its references' rankings in the Runs view.
 */
export function linkedRequests(view: View, p: ViewParams): Req[] {
  return view === "responses" && p.turn !== undefined ? planRequests("runs", { topic: p.turn }) : [];
}

/** `#/view?a=1&b=2`, empty values left out. */
export function viewHash(view: View, p: ViewParams = {}): string {
  const q = new URLSearchParams(Object.entries(p).filter(([, v]) => v !== undefined && v !== "")).toString();
  return `#/${view}${q ? `?${q}` : ""}`;
}

/** The view and parameters of a hash; an unknown view is the dataset's. */
export function parseHash(hash: string): { view: View; params: ViewParams } {
  const [v, q] = hash.replace(/^#?\/?/, "").split("?");
  const view = (VIEW_NAMES as readonly string[]).includes(v ?? "") ? (v as View) : "dataset";
  return { view, params: Object.fromEntries(new URLSearchParams(q ?? "")) };
}

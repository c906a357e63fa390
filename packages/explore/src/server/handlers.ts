// The API's handlers, one per route of api.ts's table: validated parameters in, the route's answer type out.
import {
  type Answers,
  type ApiError,
  type CONV_SORT_KEYS,
  type ContextNode,
  type EvalContextView,
  type ParsedOf,
  parseParams,
  ROUTES,
  type RoutePath,
} from "../shared/api.js";
import { histogram, sorter } from "../shared/list-summary.js";
import type { ContextFilter, SyntheticSet } from "./conversations.js";
import type { EvalDictFile } from "./eval-dicts.js";
import type { Answer, Explorer } from "./explorer.js";
import { page } from "./paging.js";
import { questionView } from "./questions.js";

/** An answer other than 200: 404 for an unknown id or file, 400 for a parameter out of range. */
class Refusal {
  constructor(
    readonly status: 400 | 404,
    readonly body: ApiError,
  ) {}
}
const notFound = (what: string) => new Refusal(404, { error: `no such ${what}` });
const badParam = (parameter: string, error: string) => new Refusal(400, { error, parameter });

/** The `file`-th input of a kind, or a 404 naming how many there are. */
function nth<T>(list: readonly T[], i: number, what: string): T {
  const x = list[i];
  if (x === undefined)
    throw new Refusal(404, {
      error: `no ${what} ${i}: ${list.length === 0 ? "none was given" : `there are ${list.length} (0–${list.length - 1})`}`,
      parameter: "file",
    });
  return x;
}

type Handlers = { [P in RoutePath]: (e: Explorer, p: ParsedOf<P>) => Promise<Answers[P]> | Answers[P] };

const HANDLERS: Handlers = {
  meta: (e) => e.meta(),
  "dataset/topics": (e, p) => {
    if (!e.dataset) throw notFound("dataset: give --data or --qulac");
    return e.dataset.searchTopics(p.q ?? "", p.split, p.offset, p.limit, {
      sort: p.sort,
      at: p.at < 0 ? undefined : p.at,
    });
  },
  "dataset/summary": (e, p) => {
    if (!e.dataset) throw notFound("dataset: give --data or --qulac");
    return e.dataset.summarizeTopics(p.q ?? "", p.split);
  },
  "dataset/topic": (e, p) => {
    const t = e.dataset?.topic(p.id);
    if (!t) throw notFound(`topic ${p.id}`);
    // Each facet's entries in the loaded dicts keyed by facet (a dict holds one split's facets).
    return {
      ...t,
      facets: t.facets.map((f) => ({
        ...f,
        eval_dicts: e.evalDicts.flatMap((d, i) => (d.keyedByFacet && d.has(f.facet_id) ? [i] : [])),
      })),
    };
  },
  "conversations/topics": (e, p) => {
    const s = nth(e.synthetic, p.file, "synthetic set");
    const request = (t: number) => e.dataset?.topicTexts(t)?.initial_request ?? s.requestOf(t);
    const items = s.topics(contextFilter(e, s, p)).map((t) => {
      const r = request(t.topic_id);
      return { ...t, ...(r ? { initial_request: r } : {}) };
    });
    const by = sorter(p.sort, CONV_SORTS);
    if (by) items.sort(by);
    return page(items, p.offset, p.limit, (t) => t);
  },
  "conversations/summary": (e, p) => {
    const s = nth(e.synthetic, p.file, "synthetic set");
    return s.summarize(
      contextFilter(e, s, p),
      (t) => e.dataset?.topicTexts(t)?.initial_request ?? s.requestOf(t),
    );
  },
  "conversations/topic": (e, p) => {
    const facets = nth(e.synthetic, p.file, "synthetic set").topic(p.id);
    if (facets.length === 0) throw notFound(`topic ${p.id} in this synthetic set`);
    const texts = e.dataset?.topicTexts(p.id);
    return facets.map((f) => {
      // Each history turn with its question's bank id, as the other views show questions.
      const withIds = (n: ContextNode): ContextNode => ({
        ...n,
        history: n.history.map((t) => withQuestionId(e, p.id, f.facet_id, t)),
        ...(n.children ? { children: n.children.map(withIds) } : {}),
      });
      return {
        ...f,
        tree: f.tree.map(withIds),
        ...(texts?.facets[f.facet_id] ? { facet_desc: texts.facets[f.facet_id] } : {}),
      };
    });
  },
  "conversations/context": async (e, p) => {
    const s = nth(e.synthetic, p.file, "synthetic set");
    const c = await s.context(p.id, p.offset, p.limit, e.dataset, e.decoder);
    if (!c) throw notFound(`context ${p.id} in this synthetic set`);
    // The eval dicts with an entry for it: multi-turn ones by context id, single-turn ones by facet.
    const eval_dicts = e.evalDicts.flatMap((d, file) => {
      const key = d.keyedByFacet ? (c.level === 0 ? c.facet_id : undefined) : String(c.context_id);
      return key !== undefined && d.has(key) ? [{ file, key }] : [];
    });
    const r = e.dataset?.topicTexts(c.topic_id)?.initial_request;
    // The multi-turn runs' picks in this context, each scored by a dict keyed by context.
    const picks = eval_dicts
      .filter((d) => !e.evalDicts[d.file]!.keyedByFacet)
      .slice(0, 1)
      .flatMap((d) =>
        picksOf(e, false, d.key).map((k) => {
          const t = k.question === null ? undefined : e.dataset?.bank.get(k.question);
          return { ...k, ...(t !== undefined ? { question_text: t } : {}), dict: d };
        }),
      );
    return {
      ...c,
      history: c.history.map((t) => withQuestionId(e, c.topic_id, c.facet_id, t)),
      records: {
        ...c.records,
        items: c.records.items.map((x) => withQuestionId(e, c.topic_id, c.facet_id, x)),
      },
      ...(r ? { initial_request: r } : {}),
      eval_dicts,
      picks,
    };
  },
  "evaldict/contexts": async (e, p) => {
    const d = nth(e.evalDicts, p.file, "eval dict");
    const ids = await evalDictIds(e, d, p);
    const by = p.sort?.replace(/^-/, "") === "candidates" ? await d.candidateCounts() : undefined;
    const rows = ids.map((id) => ({ id, ...(by ? { candidates: by.get(id) ?? 0 } : {}) }));
    const order = sorter(p.sort, {
      // Numeric ids (multi-turn contexts) in number order, facet ids as text.
      id: (c: { id: string; candidates?: number }) => (/^\d+$/.test(c.id) ? Number(c.id) : c.id),
      candidates: (c) => c.candidates ?? 0,
    });
    if (order) rows.sort(order);
    return page(rows, p.offset, p.limit, (c) => {
      const label = d.keyedByFacet ? e.dataset?.facetDesc(c.id) : contextLabel(e, c.id);
      return { ...c, ...(label ? { label } : {}) };
    });
  },
  "evaldict/summary": async (e, p) => {
    const d = nth(e.evalDicts, p.file, "eval dict");
    const ids = await evalDictIds(e, d, p);
    const n = await d.candidateCounts();
    return { entries: ids.length, candidates: histogram(ids.map((id) => n.get(id) ?? 0)) };
  },
  "evaldict/context": async (e, p) => {
    const d = nth(e.evalDicts, p.file, "eval dict");
    if (!d.has(p.id)) throw notFound(`context ${JSON.stringify(p.id)} in ${d.shortName}`);
    const v = await d.context(p.id, picksOf(e, d.keyedByFacet, p.id));
    const bank = e.dataset?.bank;
    for (const m of v.metrics) {
      for (const q of m.questions) {
        const t = bank?.get(q.question);
        if (t !== undefined) q.text = t;
      }
      for (const k of m.picks) {
        const t = k.question === null ? undefined : bank?.get(k.question);
        if (t !== undefined) k.question_text = t;
      }
    }
    const about = aboutKey(e, d.keyedByFacet, p.id);
    return { ...v, ...(about ? { about } : {}) };
  },
  "runs/summary": (e) => {
    if (!e.runs) throw notFound("runs: give two or more --run");
    return { comparison: e.runs.comparison, scoring: e.runs.describe() };
  },
  "runs/deltas": (e, p) => {
    const runs = e.runs;
    if (!runs) throw notFound("runs: give two or more --run");
    if (p.b >= runs.names.length)
      throw badParam(
        "b",
        `b must be ${runs.names.length === 2 ? "1" : `1–${runs.names.length - 1}`} (a compared run; 0 is the baseline), not ${p.b}`,
      );
    const measures = runs.comparison.measures.map((m) => m.name);
    const measure = p.measure || measures[0]!;
    if (!measures.includes(measure))
      throw badParam(
        "measure",
        `measure must be one of ${measures.join(", ")}, not ${JSON.stringify(measure)}`,
      );
    const d = runs.deltas(measure, p.b)!;
    // The multi-turn tool scores every context of its dict (0 where no run picked): listed are
    // the contexts some run picked in, the others being 0 in every run.
    const multiTurn = runs.scoring.kind === "clariq" && runs.scoring.multiTurn === true;
    // Ordered over the whole list here, so that each page continues the one before it.
    const all = sortDeltas(multiTurn ? d.rows.filter((r) => runs.hasRanking(r.topic)) : d.rows, p.sort);
    const at = p.at ? all.findIndex((r) => r.topic === p.at) : -1;
    const offset = at >= 0 && p.limit > 0 ? at - (at % p.limit) : p.offset;
    const {
      total,
      offset: from,
      items,
    } = page(all, offset, p.limit, (r) => {
      const topic = runs.hasRanking(r.topic) ? r.topic : String(e.dataset?.topicOfFacet(r.topic) ?? r.topic);
      const label =
        topic === r.topic
          ? e.dataset?.topicTexts(Number(topic))?.initial_request
          : e.dataset?.facetDesc(r.topic);
      return { ...r, ranking_topic: topic, ...(label ? { label } : {}) };
    });
    return { ...d, rows: items, total, offset: from };
  },
  "runs/topic": async (e, p) => {
    const runs = e.runs;
    if (!runs) throw notFound("runs: give two or more --run");
    // A run's unit may be a facet (ClariQ's per-facet values) while rankings are per topic.
    const facetTopic = runs.hasRanking(p.id) ? undefined : e.dataset?.topicOfFacet(p.id);
    const topic = facetTopic === undefined ? p.id : String(facetTopic);
    if (!runs.hasRanking(topic)) throw notFound(`topic or facet ${JSON.stringify(p.id)} in the runs`);
    if (p.b >= runs.names.length)
      throw badParam(
        "b",
        `b must be ${runs.names.length === 2 ? "1" : `1–${runs.names.length - 1}`} (a compared run; 0 is the baseline), not ${p.b}`,
      );
    const t = runs.topic(topic, p.depth, p.b);
    const texts = e.dataset?.topicTexts(Number(topic));
    const facet = await entryItems(e, p.id, facetTopic !== undefined, p.measure ?? "");
    return {
      ...t,
      id: p.id,
      values: runs.valuesOf(p.id),
      ...(texts ? { initial_request: texts.initial_request } : {}),
      ...(facetTopic !== undefined ? { facet: { facet_id: p.id, facet_desc: texts?.facets[p.id] } } : {}),
      ...(facet?.dict ? { eval_dict: facet.dict } : {}),
      ...(runs.scoring.kind === "clariq" && runs.scoring.multiTurn ? { context: true } : {}),
      runs: t.runs.map((r) => ({
        ...r,
        entries: r.entries.map((x) => {
          const answer = facet?.answers.get(x.doc);
          const value = facet?.values.get(x.doc);
          return {
            ...x,
            ...(answer !== undefined ? { answer } : {}),
            ...(value !== undefined ? { eval: value } : {}),
          };
        }),
      })),
    };
  },
  "passages/docs": (e, p) => nth(e.passages, p.file, "passage file").list(p.q ?? "", p.offset, p.limit),
  "passages/doc": async (e, p) => {
    const f = nth(e.passages, p.file, "passage file");
    const t = await f.text(p.id);
    if (!t) throw notFound(`document ${JSON.stringify(p.id)}`);
    return e.splitters.explain(p.id, t, f.kind);
  },
  "responses/turns": (e, p) => {
    if (!e.responses) throw notFound("responses: give iKAT 2025 runs (--run) or topics (--topics)");
    return e.responses.turns(p.q ?? "", p.offset, p.limit);
  },
  "responses/turn": async (e, p) => {
    const t = await e.responses?.turn(p.id);
    if (!t) throw notFound(`turn ${JSON.stringify(p.id)}`);
    return t;
  },
  question: async (e, p) => {
    if (!/^Q\d{1,9}$/.test(p.id))
      throw badParam(
        "id",
        `id must be a question id (Q and digits, as Q00706), not ${JSON.stringify(p.id.slice(0, 40))}`,
      );
    if (!e.dataset?.questionBank)
      throw new Refusal(404, { error: "no question bank: give --data (ClariQ's folder)", parameter: "id" });
    const v = await questionView(e, p.id, p.offset, p.limit);
    if (!v)
      throw new Refusal(404, {
        error: `no question ${p.id} in question_bank.tsv or ClariQ's rows`,
        parameter: "id",
      });
    // Multi-turn runs pick one question per context of a multi-turn dict; the others rank per topic.
    const multi = new Set(
      e.picks
        .filter((k) => e.evalDicts.some((d) => !d.keyedByFacet && d.covers(k.byId.keys())))
        .map((k) => k.run),
    );
    for (const c of v.contexts.items)
      if (c.conversation && e.evalDicts.some((d) => !d.keyedByFacet && d.has(c.context)))
        c.picks = picksOf(e, false, c.context).map((k) => ({ ...k, is_this: k.question === p.id }));
    const names = e.runs?.names ?? [];
    return {
      ...v,
      rankings: v.rankings.map((r) => ({ ...r, runs: r.runs.filter((x) => !multi.has(x.run)) })),
      runs: {
        single_turn: names.filter((n) => !multi.has(n)),
        // A lone multi-turn run has picks but no rankings (no comparison): named from its picks.
        multi_turn: [...multi],
      },
    };
  },
};

/**
 * An entry's answer per question (ClariQ's rows of its facet) and each question's value with an
 * answer in `measure` (the dict's first metric otherwise): a facet from the first single-turn dict
 * that has it, a multi-turn context (its facet from a synthetic set) from the first multi-turn one.
 */
async function entryItems(e: Explorer, id: string, byFacet: boolean, measure: string) {
  let facet: string | undefined = byFacet ? id : undefined;
  if (!byFacet)
    for (const s of e.synthetic) {
      const c = /^\d+$/.test(id) ? s.entry(Number(id)) : undefined;
      if (c) {
        facet = c.facet_id;
        break;
      }
    }
  const answers = new Map<string, string>();
  const topic = facet === undefined ? undefined : e.dataset?.topicOfFacet(facet);
  const qa =
    topic === undefined ? [] : (e.dataset?.topic(topic)?.facets.find((f) => f.facet_id === facet)?.qa ?? []);
  for (const r of qa) if (!answers.has(r.question_id)) answers.set(r.question_id, r.answer);
  const values = new Map<string, number>();
  const file = e.evalDicts.findIndex((d) => d.keyedByFacet === byFacet && d.has(id));
  if (file < 0) return { answers, values };
  const d = e.evalDicts[file]!;
  const v = await d.context(id, []);
  const m = v.metrics.find((x) => x.metric === measure) ?? v.metrics[0];
  for (const q of m?.questions ?? []) values.set(q.question, q.with_answer);
  return { answers, values, dict: m ? { file, name: d.shortName, metric: m.metric } : undefined };
}

const gaps = new WeakMap<EvalDictFile, Map<string, number>>();

/**
 * How far below MAX the runs' scored picks of an entry fall at worst (MAX minus the lowest value
 * scored, MIN for a pick not in the dict); -1 with no pick. Memoized: the runs are fixed.
 */
async function pickGap(e: Explorer, d: EvalDictFile, id: string, metric: string): Promise<number> {
  const memo = gaps.get(d) ?? new Map<string, number>();
  gaps.set(d, memo);
  const key = `${metric}\t${id}`;
  let g = memo.get(key);
  if (g === undefined) {
    const m = (await d.context(id, picksOf(e, d.keyedByFacet, id))).metrics.find((x) => x.metric === metric);
    const values = (m?.picks ?? []).flatMap((k) => (k.value === undefined ? [] : [k.value]));
    g = m?.max === undefined || values.length === 0 ? -1 : m.max - Math.min(...values);
    memo.set(key, g);
  }
  return g;
}

/** A history turn with its question's bank id added, when the facet's rows name exactly one. */
function withQuestionId<T extends { question: string; answer: string }>(
  e: Explorer,
  topic: number,
  facet: string,
  t: T,
): T & { question_id?: string } {
  const id = e.dataset?.questionIdOf(topic, facet, t.question, t.answer);
  return id === undefined ? t : { ...t, question_id: id };
}

/** A multi-turn context id's topic and facet, from the first synthetic set that has it. */
function contextLabel(e: Explorer, id: string): string | undefined {
  const n = Number(id);
  for (const s of e.synthetic) {
    const c = s.entry(n);
    if (c) return `topic ${c.topic_id} · ${c.facet_id} · ${c.history.length} asked`;
  }
  return undefined;
}

function aboutKey(e: Explorer, byFacet: boolean, key: string): EvalContextView["about"] {
  if (byFacet) {
    const topic = e.dataset?.topicOfFacet(key);
    if (topic === undefined) return undefined;
    const t = e.dataset?.topicTexts(topic);
    return {
      topic_id: topic,
      initial_request: t?.initial_request,
      facet_id: key,
      facet_desc: t?.facets[key],
    };
  }
  const n = Number(key);
  for (const [file, s] of e.synthetic.entries()) {
    const c = s.entry(n);
    if (c) {
      const t = e.dataset?.topicTexts(c.topic_id);
      return {
        topic_id: c.topic_id,
        initial_request: t?.initial_request,
        facet_id: c.facet_id,
        facet_desc: t?.facets[c.facet_id],
        conversation: { file, context_id: n },
      };
    }
  }
  return undefined;
}

/**
 * The runs' picks for an eval-dict entry. A single-turn dict is keyed by facet (`F0123`): a run's
 * pick for the facet's topic counts. A multi-turn dict is keyed by context: only runs whose ids
 * are mostly this dict's contexts count (a topic id can equal a facet number).
 */
function picksOf(e: Explorer, byFacet: boolean, key: string): { run: string; question: string | null }[] {
  let id = Number(key);
  let runs = e.picks;
  if (byFacet) {
    const topic = e.dataset?.topicOfFacet(key);
    if (topic === undefined) return [];
    id = topic;
  } else
    runs = runs.filter((p) =>
      e.evalDicts.some((d) => !d.keyedByFacet && d.has(key) && d.covers(p.byId.keys())),
    );
  return runs.filter((p) => p.byId.has(id)).map((p) => ({ run: p.run, question: p.byId.get(id) ?? null }));
}

/** Parses, validates, answers: every error is a JSON `{error, parameter?}` with its status. */
/** The entries of an eval dict the list keeps: `q` (entry id, question id or text), a pick `far` below MAX in `metric`. */
async function evalDictIds(
  e: Explorer,
  d: EvalDictFile,
  p: { q: string | undefined; far: number; metric: string | undefined },
): Promise<string[]> {
  let ids = await d.search(p.q ?? "", e.dataset?.questionsMatching(p.q ?? "") ?? new Set());
  if (p.far > 0) {
    const metric = p.metric || d.metrics[0]!;
    if (!d.metrics.includes(metric))
      throw badParam(
        "metric",
        `metric must be one of ${d.metrics.join(", ")}, not ${JSON.stringify(metric)}`,
      );
    const far: string[] = [];
    for (const id of ids) if ((await pickGap(e, d, id, metric)) >= p.far / 100 - 1e-12) far.push(id);
    ids = far;
  }
  return ids;
}

/** The contexts the Conversations list keeps: `q` in a topic's texts, a facet id or a history turn; `level`. */
function contextFilter(
  e: Explorer,
  s: SyntheticSet,
  p: { q: string | undefined; level: string | undefined },
): ContextFilter | undefined {
  const needle = (p.q ?? "").trim().toLowerCase();
  const level = p.level === undefined ? undefined : Number(p.level);
  const texts = new Map<number, string>();
  // A topic's own texts, lowercased once per request (its contexts share them).
  const topicText = (id: number) => {
    let t = texts.get(id);
    if (t === undefined) {
      const x = e.dataset?.topicTexts(id);
      t = [x?.initial_request ?? s.requestOf(id) ?? "", ...Object.entries(x?.facets ?? {}).flat()]
        .join("\n")
        .toLowerCase();
      texts.set(id, t);
    }
    return t;
  };
  return needle === "" && level === undefined
    ? undefined
    : (c) =>
        (level === undefined || c.level === level) &&
        (needle === "" ||
          String(c.topic_id) === needle ||
          c.facet_id.toLowerCase() === needle ||
          topicText(c.topic_id).includes(needle) ||
          c.history.some((t) => `${t.question}\n${t.answer}`.toLowerCase().includes(needle)));
}

/** The columns the Conversations list sorts by (`sort=contexts`, `sort=-records`). */
const CONV_SORTS: Record<
  (typeof CONV_SORT_KEYS)[number],
  (t: {
    topic_id: number;
    initial_request?: string;
    facets: number;
    contexts: number;
    records: number;
  }) => number | string
> = {
  id: (t) => t.topic_id,
  request: (t) => (t.initial_request ?? "").toLowerCase(),
  facets: (t) => t.facets,
  contexts: (t) => t.contexts,
  records: (t) => t.records,
};

export async function answer(e: Explorer, path: string, q: URLSearchParams): Promise<Answer> {
  if (!Object.hasOwn(ROUTES, path)) return { status: 404, body: { error: `no such endpoint: ${path}` } };
  const route = path as RoutePath;
  const parsed = parseParams(route, q);
  if (!parsed.ok) return { status: 400, body: parsed.error };
  try {
    // One route's handler with that route's parsed parameters (TypeScript cannot pair them by itself).
    const h = HANDLERS[route] as (e: Explorer, p: ParsedOf<RoutePath>) => unknown;
    return { status: 200, body: await h(e, parsed.params) };
  } catch (err) {
    if (err instanceof Refusal) return { status: err.status, body: err.body };
    throw err;
  }
}

const byId = (x: { topic: string }, y: { topic: string }) =>
  x.topic < y.topic ? -1 : x.topic > y.topic ? 1 : 0;

/** The Runs list in one of its orders; `delta` (largest first, ties by id) is RunSet.deltas' own. */
function sortDeltas<R extends { topic: string; delta: number }>(
  rows: readonly R[],
  sort: ParsedOf<"runs/deltas">["sort"],
): R[] {
  const out = [...rows];
  if (sort === "abs") out.sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || byId(x, y));
  else if (sort === "id") out.sort(byId);
  return out;
}

// The Dataset and Conversations views' routes: ClariQ/Qulac topics, synthetic sets' topics and contexts.
import type { CONV_SORT_KEYS, ContextNode } from "../shared/api.js";
import { at } from "../shared/checked.js";
import { sorter } from "../shared/list-summary.js";
import type { ContextFilter, SyntheticSet } from "./conversations.js";
import { picksOf } from "./handlers-evaldicts.js";
import { type Handlers, type Inputs, notFound, nth } from "./inputs.js";
import { page } from "./paging.js";
import { summaryOf } from "./summaries.js";

export const DATASET_HANDLERS: Handlers<
  | "dataset/topics"
  | "dataset/summary"
  | "dataset/topic"
  | "conversations/topics"
  | "conversations/summary"
  | "conversations/topic"
  | "conversations/context"
> = {
  "dataset/topics": (e, p) => {
    if (!e.dataset) throw notFound("dataset: give --data or --qulac");
    return e.dataset.searchTopics(p.q ?? "", p.split, p.offset, p.limit, {
      sort: p.sort,
      at: p.at < 0 ? undefined : p.at,
    });
  },
  "dataset/summary": (e, p) => {
    const d = e.dataset;
    if (!d) throw notFound("dataset: give --data or --qulac");
    const q = p.q ?? "";
    return summaryOf(d, [p.split ?? "", q.trim().toLowerCase()], () => d.summarizeTopics(q, p.split));
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
    return summaryOf(s, [(p.q ?? "").trim().toLowerCase(), p.level ?? ""], () =>
      s.summarize(contextFilter(e, s, p), (t) => e.dataset?.topicTexts(t)?.initial_request ?? s.requestOf(t)),
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
      .filter((d) => !at(e.evalDicts, d.file).keyedByFacet)
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
};

/** A history turn with its question's bank id added, when the facet's rows name exactly one. */
function withQuestionId<T extends { question: string; answer: string }>(
  e: Inputs,
  topic: number,
  facet: string,
  t: T,
): T & { question_id?: string } {
  const id = e.dataset?.questionIdOf(topic, facet, t.question, t.answer);
  return id === undefined ? t : { ...t, question_id: id };
}

/** The contexts the Conversations list keeps: `q` in a topic's texts, a facet id or a history turn; `level`. */
function contextFilter(
  e: Inputs,
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

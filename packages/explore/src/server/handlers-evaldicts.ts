// The Eval dicts view's routes, and the runs' picks for an entry (the Conversations and question pages show them too).
import type { EvalContextView } from "../shared/api.js";
import { histogram, sorter } from "../shared/list-summary.js";
import type { EvalDictFile } from "./eval-dicts.js";
import { badParam, type Handlers, type Inputs, notFound, nth } from "./inputs.js";
import { page } from "./paging.js";
import { summaryOf } from "./summaries.js";

export const EVALDICT_HANDLERS: Handlers<"evaldict/contexts" | "evaldict/summary" | "evaldict/context"> = {
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
  "evaldict/summary": (e, p) => {
    const d = nth(e.evalDicts, p.file, "eval dict");
    return summaryOf(d, [p.q ?? "", p.far, p.metric ?? ""], async () => {
      const ids = await evalDictIds(e, d, p);
      const n = await d.candidateCounts();
      return { entries: ids.length, candidates: histogram(ids.map((id) => n.get(id) ?? 0)) };
    });
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
};

const gaps = new WeakMap<EvalDictFile, Map<string, number>>();

/**
 * How far below MAX the runs' scored picks of an entry fall at worst (MAX minus the lowest value
 * scored, MIN for a pick not in the dict); -1 with no pick. Memoized: the runs are fixed.
 */
async function pickGap(e: Inputs, d: EvalDictFile, id: string, metric: string): Promise<number> {
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

/** A multi-turn context id's topic and facet, from the first synthetic set that has it. */
function contextLabel(e: Inputs, id: string): string | undefined {
  const n = Number(id);
  for (const s of e.synthetic) {
    const c = s.entry(n);
    if (c) return `topic ${c.topic_id} · ${c.facet_id} · ${c.history.length} asked`;
  }
  return undefined;
}

function aboutKey(e: Inputs, byFacet: boolean, key: string): EvalContextView["about"] {
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
export function picksOf(
  e: Inputs,
  byFacet: boolean,
  key: string,
): { run: string; question: string | null }[] {
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

/** The entries of an eval dict the list keeps: `q` (entry id, question id or text), a pick `far` below MAX in `metric`. */
async function evalDictIds(
  e: Inputs,
  d: EvalDictFile,
  p: { q: string | undefined; far: number; metric: string | undefined },
): Promise<string[]> {
  let ids = await d.search(p.q ?? "", e.dataset?.questionsMatching(p.q ?? "") ?? new Set());
  if (p.far > 0) {
    // No metric asked: the first (a dict without metrics refuses every name below).
    const metric = p.metric || (d.metrics[0] ?? "");
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

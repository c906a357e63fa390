// The Runs view's routes: the comparison, the per-topic deltas and one topic's rankings side by side.
import type { ParsedOf } from "../shared/api.js";
import { at } from "../shared/checked.js";
import { badParam, type Handlers, type Inputs, notFound } from "./inputs.js";
import { page } from "./paging.js";

export const RUNS_HANDLERS: Handlers<"runs/summary" | "runs/deltas" | "runs/topic"> = {
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
    // No measure asked: the first (a comparison without measures refuses every name below).
    const measure = p.measure || (measures[0] ?? "");
    if (!measures.includes(measure))
      throw badParam(
        "measure",
        `measure must be one of ${measures.join(", ")}, not ${JSON.stringify(measure)}`,
      );
    const d = runs.deltas(measure, p.b);
    if (!d) throw notFound(`measure ${measure} in run ${p.b}`);
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
};

/**
 * An entry's answer per question (ClariQ's rows of its facet) and each question's value with an
 * answer in `measure` (the dict's first metric otherwise): a facet from the first single-turn dict
 * that has it, a multi-turn context (its facet from a synthetic set) from the first multi-turn one.
 */
async function entryItems(e: Inputs, id: string, byFacet: boolean, measure: string) {
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
  const d = at(e.evalDicts, file);
  const v = await d.context(id, []);
  const m = v.metrics.find((x) => x.metric === measure) ?? v.metrics[0];
  for (const q of m?.questions ?? []) values.set(q.question, q.with_answer);
  return { answers, values, dict: m ? { file, name: d.shortName, metric: m.metric } : undefined };
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

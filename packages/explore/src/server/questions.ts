// The question page's data: where one clarifying question was asked or is a candidate, its values there and its ranks.
// The index (question id → contexts) is built on the first request, so the explorer's start-up does not grow.
import { basename } from "node:path";
import { at } from "../shared/checked.js";
import type { QuestionContext, QuestionEval, QuestionView } from "../shared/question-answers.js";
import type { SyntheticSet } from "./conversations.js";
import type { Inputs } from "./inputs.js";

interface Place {
  kind: "conversation" | "dict";
  file: number;
  context: string;
  topic_id?: number;
  facet_id?: string;
  level: number;
  role: "asked" | "candidate";
  turn?: number;
}

/** Per explorer, its question index (a promise: concurrent first requests build it once). */
const INDEX = new WeakMap<Inputs, Promise<Map<string, Place[]>>>();

function indexOf(e: Inputs): Promise<Map<string, Place[]>> {
  let p = INDEX.get(e);
  if (!p) {
    p = build(e);
    INDEX.set(e, p);
    // A failed build (a file gone) is not kept: the next request tries again.
    p.catch(() => INDEX.delete(e));
  }
  return p;
}

async function build(e: Inputs): Promise<Map<string, Place[]>> {
  const out = new Map<string, Place[]>();
  const add = (id: string | undefined, x: Place) => {
    if (id === undefined) return;
    const l = out.get(id);
    if (l) l.push(x);
    else out.set(id, [x]);
  };
  const ds = e.dataset;
  for (const [file, s] of e.synthetic.entries()) {
    const byId = new Map(s.entries().map((c) => [c.context_id, c]));
    const at = (c: ReturnType<SyntheticSet["entries"]>[number]) => ({
      kind: "conversation" as const,
      file,
      context: String(c.context_id),
      topic_id: c.topic_id,
      facet_id: c.facet_id,
      level: c.history.length,
    });
    for (const c of byId.values())
      for (const [i, t] of c.history.entries())
        add(ds?.questionIdOf(c.topic_id, c.facet_id, t.question, t.answer), {
          ...at(c),
          role: "asked",
          turn: i + 1,
        });
    await s.eachRecord((ctx, question, answer) => {
      const c = byId.get(ctx);
      if (c) add(ds?.questionIdOf(c.topic_id, c.facet_id, question, answer), { ...at(c), role: "candidate" });
    });
  }
  // Single-turn dicts (keyed by facet, small): their candidates by key. Multi-turn dicts' contexts
  // are the synthetic sets' (found above), their values looked up per context below.
  for (const [file, d] of e.evalDicts.entries()) {
    if (!d.keyedByFacet) continue;
    for (const key of await d.search("")) {
      // Each metric lists its own candidates (ClariQ's differ between metrics): their union.
      const qs = new Set<string>();
      for (const m of (await d.leaves(key)).values()) for (const q of m.keys()) qs.add(q);
      const topic = ds?.topicOfFacet(key);
      for (const q of qs)
        if (q !== "MAX" && q !== "MIN")
          add(q, {
            kind: "dict",
            file,
            context: key,
            ...(topic !== undefined ? { topic_id: topic } : {}),
            facet_id: key,
            level: 0,
            role: "candidate",
          });
    }
  }
  return out;
}

/** A question's eval values in one dict entry, beside the entry's MAX and MIN (both answer kinds). */
async function evalIn(e: Inputs, file: number, key: string, id: string): Promise<QuestionEval> {
  const d = at(e.evalDicts, file);
  const leaves = await d.leaves(key);
  const pair = (l: Map<string, number> | undefined) => {
    const no_answer = l?.get("no_answer");
    const with_answer = l?.get("with_answer");
    return {
      ...(no_answer !== undefined ? { no_answer } : {}),
      ...(with_answer !== undefined ? { with_answer } : {}),
    };
  };
  let inDict = false;
  const metrics = [...leaves].map(([metric, m]) => {
    inDict ||= m.has(id);
    return { metric, ...pair(m.get(id)), max: pair(m.get("MAX")), min: pair(m.get("MIN")) };
  });
  return { file, dict: basename(d.name), key, in_dict: inDict, metrics };
}

/** The question page's answer, or undefined when neither the bank nor ClariQ's rows know the id. */
export async function questionView(
  e: Inputs,
  id: string,
  offset: number,
  limit: number,
): Promise<Omit<QuestionView, "runs"> | undefined> {
  const ds = e.dataset;
  if (!ds) return undefined;
  const text = ds.bank.get(id);
  const answers = ds.rowsOfQuestion(id);
  if (text === undefined && answers.length === 0) return undefined;
  const places = (await indexOf(e)).get(id) ?? [];
  // A synthetic level-0 context and a single-turn dict's facet entry are one context: one row.
  const covered = new Set(
    places.filter((p) => p.kind === "conversation" && p.level === 0).map((p) => `${p.facet_id}`),
  );
  const rows = places
    .filter((p) => p.kind === "conversation" || !covered.has(p.context))
    .sort(
      // Level first: the level-0 contexts (where single-turn dicts have values) lead the first page.
      (a, b) =>
        a.level - b.level ||
        (a.topic_id ?? 0) - (b.topic_id ?? 0) ||
        (a.facet_id ?? "").localeCompare(b.facet_id ?? "") ||
        a.file - b.file ||
        Number(a.context) - Number(b.context) ||
        a.context.localeCompare(b.context),
    );
  const items: QuestionContext[] = [];
  for (const p of rows.slice(offset, offset + limit)) {
    const evals: QuestionEval[] = [];
    if (p.role === "candidate")
      for (const [file, d] of e.evalDicts.entries()) {
        const key = d.keyedByFacet ? (p.level === 0 ? p.facet_id : undefined) : p.context;
        if (key !== undefined && d.has(key) && (p.kind === "conversation" || file === p.file))
          evals.push(await evalIn(e, file, key, id));
      }
    items.push({
      context: p.context,
      ...(p.topic_id !== undefined ? { topic_id: p.topic_id } : {}),
      ...(p.facet_id !== undefined ? { facet_id: p.facet_id } : {}),
      level: p.level,
      role: p.role,
      ...(p.turn !== undefined ? { turn: p.turn } : {}),
      ...(p.kind === "conversation" ? { conversation: { file: p.file, context_id: Number(p.context) } } : {}),
      evals,
      picks: [],
    });
  }
  // The topics of its facets and contexts, and any where a run ranks it.
  const topics = new Map<string, Set<string>>();
  const facetIn = (t: number | undefined, f: string | undefined) => {
    if (t === undefined) return;
    const s = topics.get(String(t)) ?? new Set<string>();
    topics.set(String(t), s);
    if (f !== undefined) s.add(f);
  };
  for (const a of answers) facetIn(a.topic_id, a.facet_id);
  for (const p of places) facetIn(p.topic_id, p.facet_id);
  const runs = e.runs;
  const rankings: QuestionView["rankings"] = [];
  if (runs) {
    for (const t of runs.topicsRanking(id)) if (!topics.has(t)) topics.set(t, new Set());
    for (const [t, facets] of [...topics].sort((a, b) => Number(a[0]) - Number(b[0])))
      if (runs.hasRanking(t))
        rankings.push({ topic: t, facets: [...facets].sort(), runs: runs.ranksOf(t, id) });
  }
  return {
    question_id: id,
    question: text ?? "",
    in_bank: text !== undefined,
    answers,
    contexts: { total: rows.length, offset, items },
    rankings,
  };
}

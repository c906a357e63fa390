// The documented Parquet layouts of nested records, written from the commands' own JSONL (the
// expected rows of test/parquet-cases/out-b.ts), and the pickles its cases convert (made here,
// never committed).
import { syntheticItem, type TrecWebDoc } from "@convkit/formats";
import { dumpPickle, PyFloat, type PyValue } from "@convkit/pickle";
import type { Row } from "./check.js";

/** The README's iKAT turn layout from `ikat flatten`'s JSONL: ptkb as pairs, 2025 lists empty before 2025. */
export function turnLayout(records: Row[]): Row[] {
  return records.map((r) => ({
    ...r,
    ptkb: Object.entries(r.ptkb as Record<string, string>).map(([id, text]) => ({ id, text })),
    relevant_ptkbs: r.relevant_ptkbs ?? [],
    citations: r.citations ?? [],
  }));
}

/** 2023/2024 run turns exploded on responses; bare PTKB ids as `{id, text: null, score: null}`. */
export function responseLayout(turns: Row[]): Row[] {
  const out: Row[] = [];
  for (const t of turns) {
    const responses = t.responses as Row[];
    if (responses.length === 0)
      out.push({ turn_id: t.turn_id, rank: null, text: null, ptkb_provenance: [], passage_provenance: [] });
    for (const r of responses)
      out.push({
        turn_id: t.turn_id,
        rank: r.rank,
        text: r.text,
        ptkb_provenance: ((r.ptkb_provenance ?? []) as unknown[]).map((p) =>
          typeof p === "object" && p !== null
            ? { id: (p as Row).id, text: (p as Row).text ?? null, score: (p as Row).score ?? null }
            : { id: String(p), text: null, score: null },
        ),
        passage_provenance: (r.passage_provenance as Row[]).map((p) => ({
          id: p.id,
          text: p.text ?? null,
          score: p.score ?? null,
          used: p.used ?? null,
        })),
      });
  }
  return out;
}

/** 2025 run turns: metadata as columns, exploded on responses numbered from 1. */
export function response25Layout(turns: Row[]): Row[] {
  const out: Row[] = [];
  for (const t of turns) {
    const m = t.metadata as Row;
    const turn = { team_id: m.team_id, run_id: m.run_id, run_type: m.run_type, turn_id: t.turn_id };
    const responses = t.responses as Row[];
    const references = t.references;
    if (responses.length === 0)
      out.push({ ...turn, references, response: null, text: null, citations: [], ptkb_provenance: [] });
    responses.forEach((r, i) => {
      out.push({
        ...turn,
        references,
        response: i + 1,
        text: r.text,
        citations: r.citations,
        ptkb_provenance: r.ptkb_provenance,
      });
    });
  }
  return out;
}

/** TrecWeb documents: `passages` an empty list where the document has none. */
export function trecWebLayout(docs: Row[]): Row[] {
  return docs.map((d) => ({ ...d, passages: (d as Partial<TrecWebDoc>).passages ?? [] }));
}

/** args.me arguments: context fields as columns, premises without their (empty) annotations. */
export function argsMeLayout(args: Row[]): Row[] {
  return args.map((a) => ({
    id: a.id,
    conclusion: a.conclusion,
    premises: (a.premises as Row[]).map((p) => ({ text: p.text, stance: p.stance })),
    ...(a.context as Row),
  }));
}

/** A multi-turn eval dict `{metric: {context_id: {question: {no_answer, with_answer}}}}` as ClariQ pickles it. */
export function multiTurnEvalPickle(contexts: readonly (number | string)[]): Buffer {
  const pair = (a: number, b: number): PyValue =>
    new Map<PyValue, PyValue>([
      ["no_answer", new PyFloat(a)],
      ["with_answer", new PyFloat(b)],
    ]);
  const metric = (k: number): PyValue =>
    new Map<PyValue, PyValue>(
      contexts.map((c, i) => [
        c,
        new Map<PyValue, PyValue>([
          ["Q00001", pair(0, 0.5 * k)],
          ["MAX", pair(1, i / 3)],
          ["MIN", pair(0, 0)],
        ]),
      ]),
    );
  return dumpPickle(
    new Map<PyValue, PyValue>([
      ["MRR100", metric(1)],
      ["NDCG20", metric(2)],
    ]),
  );
}

/**
 * A ClariQ synthetic dict whose first record's conversation_context is `[]` and later ones hold
 * turns (polars' read_ndjson failed on that JSONL: "expected null in json value, got object"), with
 * answers that look like dates (pyarrow's read_json inferred timestamps).
 */
export function syntheticPickle(): Buffer {
  const turn = (q: string, a: string) => ({ question: q, answer: a });
  const records = [
    [],
    [turn("is it 2020-01-02?", "2020-01-02")],
    [turn("a", "b"), turn("c", "2021-03-04")],
  ].map((conversation_context, i) =>
    syntheticItem({
      record_id: i + 1,
      topic_id: 101 + i,
      facet_id: `F000${i + 1}`,
      initial_request: 'Tell me about "this".',
      question: i === 0 ? "" : `Q ${i}?`,
      answer: "2019-12-31",
      conversation_context,
      context_id: 1000 + i,
    }),
  );
  return dumpPickle(new Map<PyValue, PyValue>(records));
}

// The context page's records: a synthetic context's records, paged, with ClariQ's and Qulac's ids decoded.

import { at } from "../shared/checked.js";
import type { IdDecoder } from "./clariq-ids.js";
import type { Dataset } from "./dataset.js";
import type { Page } from "./paging.js";

/** A question asked and its answer. */
export interface Turn {
  question: string;
  answer: string;
}

/** What the page needs of a context: its place and the questions already asked (its history). */
interface ContextPlace {
  context_id: number;
  topic_id: number;
  facet_id: string;
  history: Turn[];
}

/**
 * Qulac's record id (`topic-facet[-h1][-h2]-q`, as in qulac_hist012_dict) of a conversation whose
 * every turn has a full `topic-facet-question` id of the same facet; undefined otherwise.
 */
function qulacRecordId(turns: (string | undefined)[]): string | undefined {
  const parts = turns.map((x) => (x === undefined ? undefined : /^(\d+)-(\d+)-(\d+)$/.exec(x)));
  if (parts.some((p) => p === undefined || p === null)) return undefined;
  const full = parts.filter((p) => p !== undefined && p !== null);
  if (full.length < parts.length) return undefined;
  const [, t, f] = at(full, 0);
  if (!full.every((p) => p[1] === t && p[2] === f)) return undefined;
  return [t, f, ...full.map((p) => p[3])].join("-");
}

/** The same texts in any order (ClariQ's histories are sets). */
function sameTexts(a: string[], b: string[]): boolean {
  return a.length === b.length && [...a].sort().join("\u0000") === [...b].sort().join("\u0000");
}

/**
 * The page `slice` of context `c`'s records (their line numbers; `json` reads one), each with the
 * ClariQ id it decodes to and whether it agrees with the record, and the Qulac ids of its history.
 */
export async function contextView(
  c: ContextPlace,
  slice: Page<number>,
  json: (line: number) => Promise<unknown>,
  dataset: Dataset | undefined,
  decoder: IdDecoder | undefined,
) {
  const qulac = dataset?.qulac;
  // Qulac ids by the item a ClariQ id decodes to (unique by construction); without one, by the
  // facet's (question, answer) when exactly one row of the facet has them.
  const byText = (t: Turn) => qulac?.ofText(c.topic_id, c.facet_id, t.question, t.answer);
  const ctxParts = decoder?.contextParts(c.context_id);
  // The context id's decoding, when it says what the context says (same topic, facet and depth).
  const ctx =
    decoder !== undefined &&
    ctxParts !== undefined &&
    ctxParts.topic_id === c.topic_id &&
    decoder.context(c.context_id)?.facet_id === c.facet_id &&
    ctxParts.history.length === c.history.length
      ? { decoder, parts: ctxParts }
      : undefined;
  const history = c.history.map((t, i) => {
    const item = ctx ? ctx.decoder.itemOf(ctx.parts, c.history, i) : undefined;
    const q = item === undefined ? byText(t) : qulac?.ofItem(c.topic_id, c.facet_id, item);
    return { ...t, ...(q ? { qulac_id: q } : {}) };
  });
  const records = [];
  for (const i of slice.items) {
    const r = (await json(i)) as Record<string, unknown>;
    const question = String(r.question ?? "");
    const answer = String(r.answer ?? "");
    const decoded = typeof r.record_id === "number" ? decoder?.record(r.record_id) : undefined;
    const agrees =
      decoder !== undefined &&
      decoded !== undefined &&
      decoded.topic_id === c.topic_id &&
      decoded.facet_id === c.facet_id &&
      decoded.question !== undefined &&
      decoder.questionText(c.topic_id, c.facet_id, decoded.question) === question &&
      sameTexts(
        decoded.history.map((h) => decoder.questionText(c.topic_id, c.facet_id, h) ?? ""),
        c.history.map((t) => t.question),
      );
    const item = agrees ? decoder.recordParts(r.record_id as number)?.question : undefined;
    const qulacId =
      item === undefined ? byText({ question, answer }) : qulac?.ofItem(c.topic_id, c.facet_id, item);
    // A level-0 record's Qulac record id is its question's id: not shown twice.
    const qulacRecord =
      history.length === 0 ? undefined : qulacRecordId([...history.map((t) => t.qulac_id), qulacId]);
    records.push({
      line: i + 1,
      record_id: typeof r.record_id === "number" || typeof r.record_id === "string" ? r.record_id : undefined,
      question,
      answer,
      ...(qulacId ? { qulac_id: qulacId } : {}),
      ...(qulacRecord ? { qulac_record: qulacRecord } : {}),
      ...(decoded
        ? {
            clariq: {
              ...decoded,
              // The id says what the record says: same facet, history and current question.
              agrees,
            },
          }
        : {}),
    });
  }
  const facetNumber = Number(c.facet_id.replace(/^F/, ""));
  return {
    context_id: c.context_id,
    topic_id: c.topic_id,
    facet_id: c.facet_id,
    facet_desc: dataset?.facetDesc(c.facet_id),
    level: c.history.length,
    // ClariQ numbers single-turn contexts by their facet (F0985 → 985); multi-turn ones from 2000 on.
    id_kind:
      c.history.length === 0 && c.context_id === facetNumber
        ? ("facet number" as const)
        : ("multi-turn context" as const),
    history,
    ...(decoder ? { clariq_context: decoder.context(c.context_id) ?? null } : {}),
    records: { total: slice.total, offset: slice.offset, items: records },
  };
}

// What `convert --to parquet` writes for each input format: the record type's declared schema and
// its records as rows (the same records as the JSONL; nested iKAT and args.me records flattened as
// documented in the README, since a Parquet column holds one type).
import {
  ARGS_ME_CONTEXT_FIELDS,
  ARGS_ME_SCHEMA,
  type ArgsMeArgument,
  CLARIFICATION_NEED_SCHEMA,
  CLARIQ_ROW_SCHEMA,
  CLARIQ_TEST_TOPIC_SCHEMA,
  CLUEWEB22_SCHEMA,
  EVAL_ENTRY_SCHEMA,
  type EvalEntry,
  type FormatName,
  HUMAN_MULTI_TURN_SCHEMA,
  IKAT_RESPONSE_SCHEMA,
  IKAT_TURN_SCHEMA,
  IKAT25_RESPONSE_SCHEMA,
  type Ikat25Turn,
  type IkatRunTurn,
  type IkatTopic,
  MULTI_TURN_EVAL_ENTRY_SCHEMA,
  MULTI_TURN_RUN_SCHEMA,
  PASSAGE_HASH_SCHEMA,
  PASSAGE_SCHEMA,
  QRELS_ENTRY_SCHEMA,
  QUESTION_BANK_SCHEMA,
  QULAC_ROW_SCHEMA,
  RUN_ENTRY_SCHEMA,
  SYNTHETIC_RECORD_SCHEMA,
  TOUCHE_TOPIC_SCHEMA,
  TRECWEB_DOC_SCHEMA,
  type TrecWebDoc,
} from "@convkit/formats";
import { flattenTopics, ikatTurnRow } from "@convkit/ikat";
import { InputError } from "@convkit/io";
import type { TableSchema } from "@convkit/parquet";

type Row = Record<string, unknown>;

/** A format's rows: its schema and how one batch of its records becomes rows. */
interface Table {
  schema: TableSchema;
  rows(batch: unknown[]): Row[];
}

const same = (schema: TableSchema): Table => ({ schema, rows: (b) => b as Row[] });

/** Formats whose records are rows as they are (optional fields: nullable columns). */
const FLAT: Partial<Record<FormatName, TableSchema>> = {
  "clariq-topics": CLARIQ_ROW_SCHEMA,
  "clariq-test-topics": CLARIQ_TEST_TOPIC_SCHEMA,
  "question-bank": QUESTION_BANK_SCHEMA,
  "human-multi-turn": HUMAN_MULTI_TURN_SCHEMA,
  qrels: QRELS_ENTRY_SCHEMA,
  run: RUN_ENTRY_SCHEMA,
  "clarification-need-run": CLARIFICATION_NEED_SCHEMA,
  "multi-turn-run": MULTI_TURN_RUN_SCHEMA,
  "qulac-json": QULAC_ROW_SCHEMA,
  passages: PASSAGE_SCHEMA,
  "passage-hashes": PASSAGE_HASH_SCHEMA,
  clueweb22: CLUEWEB22_SCHEMA,
  "touche-topics": TOUCHE_TOPIC_SCHEMA,
};

/** 2023/2024 run turns exploded on their responses (pandas' `explode`: no response, one null row). */
function ikatRunRows(batch: unknown[]): Row[] {
  const out: Row[] = [];
  for (const t of batch as IkatRunTurn[]) {
    if (t.responses.length === 0)
      out.push({ turn_id: t.turn_id, rank: null, text: null, ptkb_provenance: [], passage_provenance: [] });
    for (const r of t.responses)
      out.push({
        turn_id: t.turn_id,
        rank: r.rank,
        text: r.text,
        ptkb_provenance: (r.ptkb_provenance ?? []).map((p) =>
          typeof p === "object" ? p : { id: String(p), text: null, score: null },
        ),
        passage_provenance: r.passage_provenance,
      });
  }
  return out;
}

/** 2025 run turns: metadata as columns, exploded on their responses (numbered from 1). */
function ikat25Rows(batch: unknown[]): Row[] {
  const out: Row[] = [];
  for (const t of batch as Ikat25Turn[]) {
    const turn = { ...t.metadata, turn_id: t.turn_id, references: t.references };
    if (t.responses.length === 0)
      out.push({ ...turn, response: null, text: null, citations: [], ptkb_provenance: [] });
    t.responses.forEach((r, i) => {
      out.push({ ...turn, response: i + 1, ...r });
    });
  }
  return out;
}

function trecWebRows(batch: unknown[]): Row[] {
  return (batch as TrecWebDoc[]).map((d) => ({ ...d, passages: d.passages ?? [] }));
}

const ARGUMENT_KEYS = new Set(["id", "conclusion", "premises", "context"]);
const CONTEXT_KEYS = new Set<string>(ARGS_ME_CONTEXT_FIELDS);

/** args.me arguments with their context's fields as columns; a field the schema lacks is refused, not dropped. */
function argsMeRows(file: string, batch: unknown[]): Row[] {
  const refuse = (a: ArgsMeArgument, what: string, found: string) =>
    new InputError(file, {}, `${what} (args.me's, as ARGS_ME_SCHEMA declares) in argument ${a.id}`, found);
  return (batch as ArgsMeArgument[]).map((a) => {
    for (const k of Object.keys(a))
      if (!ARGUMENT_KEYS.has(k))
        throw refuse(a, "the fields id, conclusion, premises, context", `field ${k}`);
    const context = a.context ?? {};
    for (const k of Object.keys(context))
      if (!CONTEXT_KEYS.has(k))
        throw refuse(a, `context fields ${[...CONTEXT_KEYS].join(", ")}`, `field ${k}`);
    const premises = a.premises.map((p) => {
      if (p.annotations !== undefined && p.annotations.length > 0)
        throw refuse(a, "premises without annotations", JSON.stringify(p.annotations));
      return { text: p.text, stance: p.stance };
    });
    return { id: a.id, conclusion: a.conclusion, premises, ...context };
  });
}

/**
 * The table of `format`'s records; `first` is the first batch, which tells a pickle's kind (a
 * synthetic dict, or an eval dict with facet-id or int contexts).
 */
export function tableOf(format: FormatName, file: string, first: readonly unknown[]): Table {
  const flat = FLAT[format];
  if (flat) return same(flat);
  switch (format) {
    case "ikat-topics":
      return {
        schema: IKAT_TURN_SCHEMA,
        rows: (b) => flattenTopics(b as IkatTopic[]).map((r) => ikatTurnRow(file, r)),
      };
    case "ikat-run":
      return { schema: IKAT_RESPONSE_SCHEMA, rows: ikatRunRows };
    case "ikat25-run":
      return { schema: IKAT25_RESPONSE_SCHEMA, rows: ikat25Rows };
    case "trecweb":
      return { schema: TRECWEB_DOC_SCHEMA, rows: trecWebRows };
    case "args-me":
      return { schema: ARGS_ME_SCHEMA, rows: (b) => argsMeRows(file, b) };
    default:
      return pickleTable(file, first);
  }
}

function pickleTable(file: string, first: readonly unknown[]): Table {
  const r = first[0];
  if (typeof r === "object" && r !== null && "context_id" in r && "record_id" in r)
    return same(SYNTHETIC_RECORD_SCHEMA);
  if (typeof r === "object" && r !== null && "with_answer" in r) {
    const intContexts = typeof (r as EvalEntry).context === "number";
    const want = intContexts ? "number" : "string";
    return {
      schema: intContexts ? MULTI_TURN_EVAL_ENTRY_SCHEMA : EVAL_ENTRY_SCHEMA,
      rows: (b) => {
        for (const e of b as EvalEntry[])
          if (typeof e.context !== want)
            throw new InputError(
              file,
              {},
              `${intContexts ? "int" : "str"} context keys throughout (a column has one type), as the first one`,
              `context ${JSON.stringify(e.context)} of metric ${e.metric}`,
            );
        return (b as EvalEntry[]).map((e) => ({
          ...e,
          aggregate: e.question === "MAX" || e.question === "MIN",
        }));
      },
    };
  }
  throw new InputError(
    file,
    {},
    "a ClariQ synthetic dict or eval dict to write as Parquet (other pickles have no declared table; convert them to JSONL)",
    "another pickle",
  );
}

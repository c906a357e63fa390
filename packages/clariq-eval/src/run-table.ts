// Run files as the upstream tool reads them: pandas read_csv(sep=' ', header=None), typed and checked.
import {
  CLARIFICATION_NEED_SCHEMA,
  MULTI_TURN_RUN_SCHEMA,
  openTableInput,
  type ParquetTable,
  parquetRunEntries,
  RANX_RUN_SCHEMA,
  RUN_ENTRY_SCHEMA,
} from "@convkit/formats";
import {
  type ByteSource,
  describeFound,
  InputError,
  openInput,
  parseDelimited,
  type Row,
  readAll,
  readLineBatches,
} from "@convkit/io";

/** pandas' default NA strings: such a field is NaN, and the tool's fillna('') makes it ''. */
const PANDAS_NA = new Set([
  "",
  "#N/A",
  "#N/A N/A",
  "#NA",
  "-1.#IND",
  "-1.#QNAN",
  "-NaN",
  "-nan",
  "1.#IND",
  "1.#QNAN",
  "<NA>",
  "N/A",
  "NA",
  "NULL",
  "NaN",
  "None",
  "n/a",
  "nan",
  "null",
]);

/** A text field after pandas' NA detection and the tool's fillna(''). */
export function pandasText(s: string): string {
  return PANDAS_NA.has(s) ? "" : s;
}

/** One line of a ranking run: `id 0 item rank score tag` (item: a question id or a quoted question text). */
export interface RankedLine {
  readonly line: number;
  readonly id: number;
  readonly item: string;
  readonly score: number;
}

const INT = /^[-+]?\d+$/;
const FLOAT = /^[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)$/;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The fields of a run line of the plain shape (`width` fields, single spaces, a field either bare
 * without quotes or wholly quoted without inner quotes); undefined for anything else.
 */
function plainFields(text: string, a: number, b: number, width: number): string[] | undefined {
  const fields: string[] = [];
  let i = a;
  for (let k = 0; k < width; k++) {
    if (i > b) return undefined;
    if (text.charCodeAt(i) === 34) {
      const q = text.indexOf('"', i + 1);
      if (q < 0 || q >= b || (q + 1 !== b && text.charCodeAt(q + 1) !== 32)) return undefined;
      fields.push(text.slice(i + 1, q));
      i = q + 2;
    } else {
      let j = text.indexOf(" ", i);
      if (j < 0 || j > b) j = b;
      const f = text.slice(i, j);
      if (f.includes('"')) return undefined;
      fields.push(f);
      i = j + 1;
    }
  }
  return i === b + 1 ? fields : undefined;
}

/**
 * The run's rows, each turned into `T`. Runs of the plain shape (every line `width` fields as
 * {@link plainFields} takes them) are split directly; anything else (quotes within fields,
 * multi-line fields, CRs, a BOM, other widths) goes through the general pandas-like parser.
 */
async function rows<T>(
  path: string,
  width: number,
  each: (row: Row) => T,
  source?: ByteSource,
): Promise<T[]> {
  const src = source ?? (await openInput(path));
  const bytes = await readAll(src);
  const empty = () => new InputError(src.name, { line: 1 }, "at least one run line", "an empty file");
  let text: string | undefined;
  try {
    text = utf8.decode(bytes);
  } catch {
    text = undefined; // the general parser names the line
  }
  if (text !== undefined && text.charCodeAt(0) !== 0xfeff && !text.includes("\r")) {
    const out: T[] = [];
    let ok = true;
    for (let start = 0, line = 1; start < text.length; line++) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      if (end > start) {
        const fields = plainFields(text, start, end, width);
        if (fields === undefined) {
          ok = false;
          break;
        }
        out.push(each({ line, fields }));
      }
      start = end + 1;
    }
    if (ok) {
      if (out.length === 0) throw empty();
      return out;
    }
  }
  const out: T[] = [];
  const again = {
    name: src.name,
    chunks: (async function* () {
      yield bytes;
    })(),
  };
  for await (const b of parseDelimited(src.name, readLineBatches(again), { delimiter: " " }))
    for (const row of b) out.push(each(row));
  if (out.length === 0) throw empty();
  return out;
}

function intAt(file: string, row: Row, k: number, what: string): number {
  const v = row.fields[k] ?? "";
  if (!INT.test(v)) throw new InputError(file, { line: row.line }, what, describeFound(v));
  return Number(v);
}

function numberAt(file: string, row: Row, k: number, what: string): number {
  const v = row.fields[k] ?? "";
  if (!FLOAT.test(v)) throw new InputError(file, { line: row.line }, what, describeFound(v));
  return Number(v);
}

/** Checks that a line has `width` fields; `names` says which (`topic label`). */
function widthAt(file: string, row: Row, width: number, names: string): void {
  if (row.fields.length !== width)
    throw new InputError(
      file,
      { line: row.line },
      `${width} space-separated fields (${names})`,
      `${row.fields.length}`,
    );
}

/**
 * A ranking run as a Parquet table: convkit's run layout or ranx's (formats' trec-parquet.ts), the
 * qid an integer, the item the docno (a question id, or a multi-turn run's question text, which
 * needs no quotes in a table); or what `convkit convert` writes of a multi-turn run
 * (MULTI_TURN_RUN_SCHEMA: context_id as the id, question as the item). Each row's number stands
 * for its line. Text fields go through the same NA rule as the text run's, so a table gives what
 * its lines would.
 */
async function rankedRows(t: ParquetTable): Promise<RankedLine[]> {
  const out: RankedLine[] = [];
  if (t.columns.has("context_id")) {
    for await (const b of t.batches(MULTI_TURN_RUN_SCHEMA))
      for (const r of b)
        out.push({
          line: out.length + 1,
          id: Number(r.context_id),
          item: pandasText(r.question as string),
          score: r.score as number,
        });
  } else if (t.columns.has("qid") || t.columns.has("q_id")) {
    for await (const b of parquetRunEntries(t))
      for (const e of b) {
        const line = out.length + 1;
        if (!INT.test(e.qid))
          throw new InputError(
            t.name,
            { row: line },
            "an integer topic/context id in column qid",
            describeFound(e.qid),
          );
        out.push({ line, id: Number(e.qid), item: pandasText(e.docno), score: e.score });
      }
  } else {
    const names = (s: typeof RUN_ENTRY_SCHEMA) => s.columns.map((c) => c.name).join(", ");
    throw new InputError(
      t.name,
      {},
      `a run as a table: columns ${names(RUN_ENTRY_SCHEMA)} (convkit), ${names(RANX_RUN_SCHEMA)} (ranx) or ${names(MULTI_TURN_RUN_SCHEMA)} (convkit's multi-turn run)`,
      `columns ${[...t.columns.keys()].join(", ") || "none"}`,
    );
  }
  if (out.length === 0) throw new InputError(t.name, {}, "at least one run row", "an empty table");
  return out;
}

/** Reads a ranking run (6 space-separated fields per line; text fields may be quoted), or a Parquet table of one. */
export async function readRankedRun(path: string): Promise<RankedLine[]> {
  const file = path === "-" ? "<stdin>" : path;
  const input = await openTableInput(path);
  if ("parquet" in input) return rankedRows(input.parquet);
  return rows(
    path,
    6,
    (row) => {
      widthAt(file, row, 6, "id 0 question rank score run");
      const score = numberAt(file, row, 4, "a numeric score in field 5");
      return {
        line: row.line,
        id: intAt(file, row, 0, "an integer topic/context id in field 1"),
        item: pandasText(row.fields[2]!),
        score,
      };
    },
    input.source,
  );
}

/**
 * Reads a clarification-need run: `topic label` lines; the last label of a topic wins (as
 * to_dict()). Or a Parquet table of them: columns `topic_id` (int64) and `label` (a number).
 */
export async function readNeedRun(path: string): Promise<{ line: number; topic: number; label: number }[]> {
  const file = path === "-" ? "<stdin>" : path;
  const input = await openTableInput(path);
  if ("parquet" in input) {
    const out: { line: number; topic: number; label: number }[] = [];
    for await (const b of input.parquet.batches(CLARIFICATION_NEED_SCHEMA))
      for (const r of b)
        out.push({ line: out.length + 1, topic: r.topic_id as number, label: r.label as number });
    if (out.length === 0)
      throw new InputError(input.parquet.name, {}, "at least one run row", "an empty table");
    return out;
  }
  return rows(
    path,
    2,
    (row) => {
      widthAt(file, row, 2, "topic label");
      const label = numberAt(file, row, 1, "a numeric label in field 2");
      return { line: row.line, topic: intAt(file, row, 0, "an integer topic id in field 1"), label };
    },
    input.source,
  );
}

// Run files as the upstream tool reads them: pandas read_csv(sep=' ', header=None), typed and checked.
import { describeFound, InputError, openInput, parseDelimited, type Row, readLineBatches } from "@convkit/io";

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

/** The run's rows, each turned into `T` batch by batch (the parsed rows die young). */
async function rows<T>(path: string, each: (row: Row) => T): Promise<T[]> {
  const src = await openInput(path);
  const out: T[] = [];
  for await (const b of parseDelimited(src.name, readLineBatches(src), { delimiter: " " }))
    for (const row of b) out.push(each(row));
  if (out.length === 0) throw new InputError(src.name, { line: 1 }, "at least one run line", "an empty file");
  return out;
}

function intAt(file: string, row: Row, k: number, what: string): number {
  const v = row.fields[k]!;
  if (!INT.test(v)) throw new InputError(file, { line: row.line }, what, describeFound(v));
  return Number(v);
}

/** Reads a ranking run (6 space-separated fields per line; text fields may be quoted). */
export async function readRankedRun(path: string): Promise<RankedLine[]> {
  const file = path === "-" ? "<stdin>" : path;
  return rows(path, (row) => {
    if (row.fields.length !== 6) {
      throw new InputError(
        file,
        { line: row.line },
        "6 space-separated fields (id 0 question rank score run)",
        `${row.fields.length}`,
      );
    }
    const s = row.fields[4]!;
    if (!FLOAT.test(s))
      throw new InputError(file, { line: row.line }, "a numeric score in field 5", describeFound(s));
    return {
      line: row.line,
      id: intAt(file, row, 0, "an integer topic/context id in field 1"),
      item: pandasText(row.fields[2]!),
      score: Number(s),
    };
  });
}

/** Reads a clarification-need run: `topic label` lines; the last label of a topic wins (as to_dict()). */
export async function readNeedRun(path: string): Promise<{ line: number; topic: number; label: number }[]> {
  const file = path === "-" ? "<stdin>" : path;
  return rows(path, (row) => {
    if (row.fields.length !== 2)
      throw new InputError(
        file,
        { line: row.line },
        "2 space-separated fields (topic label)",
        `${row.fields.length}`,
      );
    const label = row.fields[1]!;
    if (!FLOAT.test(label))
      throw new InputError(file, { line: row.line }, "a numeric label in field 2", describeFound(label));
    return {
      line: row.line,
      topic: intAt(file, row, 0, "an integer topic id in field 1"),
      label: Number(label),
    };
  });
}

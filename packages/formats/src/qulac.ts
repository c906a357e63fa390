// Qulac: `qulac.json` (pandas column-oriented JSON) and the hist012 dict layouts.
import { describeFound, InputError, readText, type WriteOptions, writeAtomic } from "@convkit/io";
import { Fields, isJsonObject, parseJsonText } from "@convkit/json";
import type { QulacRow } from "./records.js";
import { displayName } from "./table.js";

/** Columns of `qulac.json`, in the file's order. */
export const QULAC_COLUMNS = [
  "topic_id",
  "facet_id",
  "topic_facet_id",
  "topic_facet_question_id",
  "topic",
  "topic_type",
  "facet_type",
  "topic_desc",
  "facet_desc",
  "question",
  "answer",
] as const satisfies readonly (keyof QulacRow)[];

/**
 * Rows of `qulac.json` (`{column: {row_index: value}}`) in row-index order. Strings are exactly as
 * JSON decodes them: the published `\'` stays a backslash and a quote.
 */
export async function readQulacJson(path: string): Promise<QulacRow[]> {
  const file = displayName(path);
  const text = await readText(path);
  const doc = Fields.of(
    parseJsonText(file, text),
    (_path, _expected, found) => new InputError(file, { line: 1 }, "a JSON object of columns", found),
  );
  // Each column checked as an object once and read as it is: a Fields (a Map of its 11,039 cells)
  // per column cost start-up 0.14 s of the explorer's 2.3 s.
  const columns = new Map(
    QULAC_COLUMNS.map((c) => {
      const col = doc.get(c);
      if (!isJsonObject(col)) throw new InputError(file, {}, `a column "${c}"`, "none");
      return [c, col];
    }),
  );
  const cell = (c: (typeof QULAC_COLUMNS)[number], i: string): unknown => {
    const col = columns.get(c);
    if (col === undefined) throw new InputError(file, {}, `a column "${c}"`, "none");
    return Object.hasOwn(col, i) ? col[i] : undefined;
  };
  // Shortened: a cell may hold megabytes.
  const bad = (c: string, i: string, expected: string, v: unknown) =>
    new InputError(file, {}, `${expected} at ${c}[${i}]`, describeFound(JSON.stringify(v) ?? "nothing"));
  const int = (c: (typeof QULAC_COLUMNS)[number], i: string): number => {
    const v = cell(c, i);
    if (typeof v !== "number" || !Number.isInteger(v)) throw bad(c, i, "an integer", v);
    return v;
  };
  const str = (c: (typeof QULAC_COLUMNS)[number], i: string): string => {
    const v = cell(c, i);
    if (typeof v !== "string") throw bad(c, i, "a string", v);
    return v;
  };
  const index = Object.keys(columns.get("topic_id") ?? {}).sort((a, b) => Number(a) - Number(b));
  // Built in QULAC_COLUMNS' order: the record's keys and the first bad cell as before.
  return index.map((i) => ({
    topic_id: int("topic_id", i),
    facet_id: int("facet_id", i),
    topic_facet_id: str("topic_facet_id", i),
    topic_facet_question_id: str("topic_facet_question_id", i),
    topic: str("topic", i),
    topic_type: str("topic_type", i),
    facet_type: str("facet_type", i),
    topic_desc: str("topic_desc", i),
    facet_desc: str("facet_desc", i),
    question: str("question", i),
    answer: str("answer", i),
  }));
}

/** pandas `DataFrame.to_json()` text of the rows (column-oriented, `/` escaped, non-ASCII as `\uXXXX`). */
export function formatQulacJson(rows: readonly QulacRow[]): string {
  const parts: string[] = [];
  for (const c of QULAC_COLUMNS) {
    const cells = rows.map((r, i) => `"${i}":${pandasJson(r[c])}`);
    parts.push(`"${c}":{${cells.join(",")}}`);
  }
  return `{${parts.join(",")}}`;
}

function pandasJson(v: string | number): string {
  if (typeof v === "number") return String(v);
  return JSON.stringify(v)
    .replaceAll("/", "\\/")
    .replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export async function writeQulacJson(
  target: string,
  rows: readonly QulacRow[],
  options?: WriteOptions,
): Promise<void> {
  await writeAtomic(target, (sink) => sink.write(formatQulacJson(rows)), options);
}

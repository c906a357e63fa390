// Qulac: `qulac.json` (pandas column-oriented JSON) and the hist012 dict layouts.
import { describeFound, InputError, readText, type WriteOptions, writeAtomic } from "@convkit/io";
import { parseJsonText } from "@convkit/json";
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

const INT_COLUMNS = new Set(["topic_id", "facet_id"]);

/**
 * Rows of `qulac.json` (`{column: {row_index: value}}`) in row-index order. Strings are exactly as
 * JSON decodes them: the published `\'` stays a backslash and a quote.
 */
export async function readQulacJson(path: string): Promise<QulacRow[]> {
  const file = displayName(path);
  const text = await readText(path);
  const doc = parseJsonText(file, text);
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
    throw new InputError(
      file,
      { line: 1 },
      "a JSON object of columns",
      Array.isArray(doc) ? "an array" : typeof doc,
    );
  }
  const cols = doc as Record<string, Record<string, unknown>>;
  for (const c of QULAC_COLUMNS) {
    if (typeof cols[c] !== "object" || cols[c] === null)
      throw new InputError(file, {}, `a column "${c}"`, "none");
  }
  const index = Object.keys(cols.topic_id!).sort((a, b) => Number(a) - Number(b));
  return index.map((i) => {
    const row: Record<string, unknown> = {};
    for (const c of QULAC_COLUMNS) {
      const v = cols[c]![i];
      const ok = INT_COLUMNS.has(c) ? Number.isInteger(v) : typeof v === "string";
      if (!ok) {
        throw new InputError(
          file,
          {},
          `${INT_COLUMNS.has(c) ? "an integer" : "a string"} at ${c}[${i}]`,
          // Shortened: a cell may hold megabytes.
          describeFound(JSON.stringify(v) ?? "nothing"),
        );
      }
      row[c] = v;
    }
    return row as unknown as QulacRow;
  });
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

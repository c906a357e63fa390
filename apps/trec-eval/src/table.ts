// trec_eval's output as a table: one row a printed value, read back from the very text trec_eval's
// layout prints, so that the table holds exactly the numbers the text shows (and upstream prints).

/** A row of TREC_EVAL_VALUE_SCHEMA. */
export interface TrecEvalRow {
  measure: string;
  topic: string;
  value: number;
}

/** A printed value: an int, `%6.4f`, or nan/inf as formatFixed writes them. */
function printed(text: string): number {
  const t = text.trim();
  if (t === "nan" || t === "-nan") return Number.NaN;
  if (t === "inf" || t === "-inf") return t === "inf" ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  const v = Number(t);
  if (t === "" || Number.isNaN(v)) throw new Error(`trec_eval printed a value that is not a number: ${text}`);
  return v;
}

/**
 * The rows of trec_eval's text (`measure<TAB>topic<TAB>value` lines, the measure padded); `runid`
 * and quoted values (relstring) are no numbers and are left out, as `compare --per-topic` does.
 */
export function trecEvalRows(text: string): TrecEvalRow[] {
  const rows: TrecEvalRow[] = [];
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const [name, topic, value] = line.split("\t") as [string, string, string];
    const measure = name.trimEnd();
    if (measure === "runid" || value.startsWith("'")) continue;
    rows.push({ measure, topic, value: printed(value) });
  }
  return rows;
}

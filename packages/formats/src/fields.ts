// Field-level parsing shared by the line formats: numbers and headers, with located errors.
import { describeFound, InputError, type Row } from "@convkit/io";

/** 1-based character column of field `k` in an unquoted row (good enough to point at it). */
function columnOf(row: Row, k: number, delimiterLength = 1): number {
  let col = 1;
  for (const f of row.fields.slice(0, k)) col += f.length + delimiterLength;
  return col;
}

const INT = /^[-+]?\d+$/;

/**
 * Field `k` of a row as text: checked access for a row whose width the reader checked, so that a
 * missing field is an InputError at its line and never an undefined taken for a string.
 */
export function textField(file: string, row: Row, k: number): string {
  const v = row.fields[k];
  if (v === undefined)
    throw new InputError(file, { line: row.line }, `at least ${k + 1} fields`, `${row.fields.length}`);
  return v;
}

/** An integer field (as pandas/int() accept: optional sign, digits, surrounding spaces). */
export function intField(file: string, row: Row, k: number, what = "an integer"): number {
  const raw = row.fields[k] ?? "";
  const t = raw.trim();
  if (!INT.test(t))
    throw new InputError(file, { line: row.line, col: columnOf(row, k) }, what, describeFound(raw));
  return Number(t);
}

/** A float field as C's strtod/Python's float() read it (inf/nan included). */
export function floatField(file: string, row: Row, k: number, what = "a number"): number {
  const raw = row.fields[k] ?? "";
  const v = parseFloatStrict(raw);
  if (v === undefined)
    throw new InputError(file, { line: row.line, col: columnOf(row, k) }, what, describeFound(raw));
  return v;
}

/** Python float() semantics on a string, or undefined. */
export function parseFloatStrict(raw: string): number | undefined {
  const t = raw.trim();
  if (t === "") return undefined;
  if (/^[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)$/.test(t)) return Number(t);
  const low = t.toLowerCase();
  if (/^[-+]?(inf|infinity)$/.test(low)) return low.startsWith("-") ? -Infinity : Infinity;
  if (/^[-+]?nan$/.test(low)) return Number.NaN;
  return undefined;
}

/** Checks a header row against the expected column names. */
export function expectHeader(file: string, row: Row, names: readonly string[]): void {
  if (row.fields.length !== names.length || row.fields.some((f, i) => f !== names[i])) {
    throw new InputError(
      file,
      { line: row.line },
      `the header ${JSON.stringify(names.join("\t"))}`,
      describeFound(row.fields.join("\t"), 80),
    );
  }
}

/** Checks the field count of a row. */
export function expectWidth(file: string, row: Row, n: number, what = "tab-separated fields"): void {
  if (row.fields.length !== n) {
    throw new InputError(file, { line: row.line }, `${n} ${what}`, `${row.fields.length}`);
  }
}

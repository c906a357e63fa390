// Delimited text as pandas reads and writes it (QUOTE_MINIMAL, `""` inside quotes), writing via csv-stringify.
import { createRequire } from "node:module";
import { InputError } from "./errors.js";
import type { LineBatch } from "./lines.js";
import { type WriteOptions, writeAtomic } from "./sink.js";

/** One parsed row and the line it starts on. */
export interface Row {
  readonly line: number;
  readonly fields: string[];
}

/** Options of {@link parseDelimited}. */
export interface DelimitedOptions {
  delimiter?: string;
  /** Honour `"` quoting as pandas' C parser does (default true). TREC-style files set false. */
  quoting?: boolean;
  /** Skip lines that are empty (pandas `skip_blank_lines`, default true). */
  skipBlank?: boolean;
}

/**
 * Parses line batches into rows. A field that starts with `"` is quoted: it ends at a `"` not
 * followed by another, `""` stands for `"`, and it may span lines (as pandas allows).
 */
export async function* parseDelimited(
  name: string,
  batches: AsyncIterable<LineBatch>,
  options: DelimitedOptions = {},
): AsyncIterable<Row[]> {
  const delim = options.delimiter ?? "\t";
  const quoting = options.quoting ?? true;
  const skipBlank = options.skipBlank ?? true;
  let pendingText: string | undefined;
  let pendingLine = 0;
  for await (const batch of batches) {
    const rows: Row[] = [];
    for (let i = 0; i < batch.lines.length; i++) {
      const lineNo = batch.firstLine + i;
      let text = batch.lines[i]!;
      let start = lineNo;
      if (pendingText !== undefined) {
        text = `${pendingText}\n${text}`;
        start = pendingLine;
        pendingText = undefined;
      }
      if (skipBlank && text.length === 0) continue;
      if (!quoting || text.indexOf('"') < 0) {
        rows.push({ line: start, fields: text.split(delim) });
        continue;
      }
      const fields = splitQuoted(text, delim);
      if (fields === undefined) {
        pendingText = text;
        pendingLine = start;
        continue;
      }
      rows.push({ line: start, fields });
    }
    if (rows.length > 0) yield rows;
  }
  if (pendingText !== undefined) {
    throw new InputError(name, { line: pendingLine }, 'a closing quote (")', "end of file");
  }
}

/** Splits one record; undefined when a quoted field is still open at the end (it continues on the next line). */
export function splitQuoted(text: string, delim: string): string[] | undefined {
  const out: string[] = [];
  let i = 0;
  const n = text.length;
  for (;;) {
    if (text.charCodeAt(i) === 34) {
      let value = "";
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) return undefined;
        value += text.slice(j, q);
        if (text.charCodeAt(q + 1) === 34) {
          value += '"';
          j = q + 2;
          continue;
        }
        j = q + 1;
        break;
      }
      // Characters after the closing quote belong to the field (pandas keeps them).
      const d = text.indexOf(delim, j);
      const end = d < 0 ? n : d;
      value += text.slice(j, end);
      out.push(value);
      if (d < 0) return out;
      i = d + delim.length;
    } else {
      const d = text.indexOf(delim, i);
      if (d < 0) {
        out.push(text.slice(i));
        return out;
      }
      out.push(text.slice(i, d));
      i = d + delim.length;
    }
  }
}

/** Checks a row's width; the message names the file, line and the expected count. */
export function expectFields(name: string, row: Row, count: number): string[] {
  if (row.fields.length !== count) {
    throw new InputError(name, { line: row.line }, `${count} tab-separated fields`, `${row.fields.length}`);
  }
  return row.fields;
}

type Stringify = typeof import("csv-stringify/sync").stringify;
let stringifyFn: Stringify | undefined;

/** csv-stringify, loaded on first use (readers never need it; startup time counts). */
function stringify(...args: Parameters<Stringify>): string {
  stringifyFn ??= (createRequire(import.meta.url)("csv-stringify/sync") as { stringify: Stringify })
    .stringify;
  return stringifyFn(...args);
}

/** Formats rows as pandas `to_csv(sep=...)` does with QUOTE_MINIMAL (via csv-stringify). */
export function formatDelimited(rows: readonly (readonly (string | number)[])[], delimiter = "\t"): string {
  if (rows.length === 0) return "";
  return stringify(rows as (string | number)[][], {
    delimiter,
    quote: '"',
    escape: '"',
    record_delimiter: "\n",
    quoted_match: /\r/,
    cast: { number: (v) => String(v) },
  });
}

/** Writes a header and batches of rows as a delimited file, atomically. */
export async function writeDelimited(
  target: string,
  header: readonly string[] | undefined,
  batches:
    | AsyncIterable<readonly (readonly (string | number)[])[]>
    | Iterable<readonly (readonly (string | number)[])[]>,
  options: WriteOptions & { delimiter?: string } = {},
): Promise<number> {
  let n = 0;
  await writeAtomic(
    target,
    async (sink) => {
      if (header) await sink.write(formatDelimited([header], options.delimiter));
      for await (const batch of batches) {
        n += batch.length;
        await sink.write(formatDelimited(batch, options.delimiter));
      }
    },
    options,
  );
  return n;
}

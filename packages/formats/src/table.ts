// Opening line formats: decompress, split lines, parse delimited rows, in batches.
import {
  type ByteSource,
  type DelimitedOptions,
  openInput,
  parseDelimited,
  type Row,
  readLineBatches,
} from "@convkit/io";

/** Rows of a delimited file (any compression), in batches. */
export async function* rowsOf(path: string, options: DelimitedOptions = {}): AsyncIterable<Row[]> {
  const src = await openInput(path);
  yield* parseDelimited(src.name, readLineBatches(src), options);
}

/**
 * Rows of a whitespace-separated file as trec_eval splits them (runs of spaces/tabs, blank lines
 * skipped); with `comments`, also lines starting with `#` (trec_eval 10 skips those). `source`: bytes
 * already open (decompressed), read instead of `path`.
 */
export async function* whitespaceRowsOf(
  path: string,
  options: { comments?: boolean; source?: ByteSource } = {},
): AsyncIterable<Row[]> {
  const src = options.source ?? (await openInput(path));
  for await (const b of readLineBatches(src)) {
    const rows: Row[] = [];
    for (const [i, l] of b.lines.entries()) {
      if (options.comments && l.charCodeAt(0) === 0x23) continue;
      const t = l.trim();
      if (t.length === 0) continue;
      rows.push({ line: b.firstLine + i, fields: t.split(/[ \t]+/) });
    }
    if (rows.length > 0) yield rows;
  }
}

/** Display name used in errors for a path (`-` is stdin). */
export function displayName(path: string): string {
  return path === "-" ? "<stdin>" : path;
}

/** Maps each batch of rows, skipping the first `skip` rows of the file (headers). */
export async function* mapRows<T>(
  batches: AsyncIterable<Row[]>,
  parse: (row: Row, index: number) => T,
  onHeader?: (row: Row) => void,
): AsyncIterable<T[]> {
  let index = 0;
  for await (const batch of batches) {
    const out: T[] = [];
    for (const row of batch) {
      if (index === 0 && onHeader) {
        onHeader(row);
        index++;
        continue;
      }
      out.push(parse(row, index++));
    }
    if (out.length > 0) yield out;
  }
}

/** Collects all batches (for small files and tests). */
export async function collect<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const b of batches) for (const x of b) out.push(x);
  return out;
}

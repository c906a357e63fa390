// TREC run and qrels files, read as trec_eval reads them (a run in trec_eval's order: @convkit/trec-eval's writeRun).
import type { ByteSource, Row, WriteOptions } from "@convkit/io";
import { formatPyFloat } from "@convkit/pycompat";
import { expectWidth, floatField, intField, textField } from "./fields.js";
import { writeLines } from "./lines.js";
import type { QrelsEntry, RunEntry } from "./records.js";
import { displayName, mapRows, whitespaceRowsOf } from "./table.js";
import { openTableInput, parquetQrelsEntries, parquetRunEntries } from "./trec-parquet.js";

/** How trec_eval itself reads: `#` comment lines skipped, and a run line's fields after the sixth ignored. */
export interface TrecReadOptions {
  trecEval?: boolean;
  /** The bytes to read instead of opening `path` (already decompressed; `path` then only names them). */
  source?: ByteSource;
}

/**
 * Qrels lines `qid iter docno rel` (whitespace-separated; rel an integer, may be negative), or a
 * Parquet table of them (trec-parquet.ts: convkit's layout or ranx's), told by content.
 */
export async function* readQrels(path: string, options: TrecReadOptions = {}): AsyncIterable<QrelsEntry[]> {
  const file = displayName(path);
  const input = await openTableInput(path, options.source);
  if ("parquet" in input) return yield* parquetQrelsEntries(input.parquet);
  yield* mapRows(whitespaceRowsOf(path, { comments: options.trecEval, source: input.source }), (row) =>
    qrelsEntryOf(file, row),
  );
}

/** One qrels row as {@link readQrels} reads it (an InputError naming `file` when it is not one). */
export function qrelsEntryOf(file: string, row: Row): QrelsEntry {
  expectWidth(file, row, 4, "whitespace-separated fields (qid iter docno rel)");
  return {
    qid: textField(file, row, 0),
    iter: textField(file, row, 1),
    docno: textField(file, row, 2),
    rel: intField(file, row, 3, "an integer relevance grade"),
  };
}

/**
 * Run lines `qid Q0 docno rank score tag`; the rank column is kept but, as in trec_eval, means
 * nothing. Or a Parquet table of them (trec-parquet.ts: convkit's layout or ranx's), told by content.
 */
export async function* readRun(path: string, options: TrecReadOptions = {}): AsyncIterable<RunEntry[]> {
  const file = displayName(path);
  const input = await openTableInput(path, options.source);
  if ("parquet" in input) return yield* parquetRunEntries(input.parquet);
  yield* mapRows(whitespaceRowsOf(path, { comments: options.trecEval, source: input.source }), (row) =>
    runEntryOf(file, row, options),
  );
}

/** One run row as {@link readRun} reads it (an InputError naming `file` when it is not one). */
export function runEntryOf(file: string, row: Row, options: TrecReadOptions = {}): RunEntry {
  if (!options.trecEval || row.fields.length < 6)
    expectWidth(file, row, 6, "whitespace-separated fields (qid Q0 docno rank score tag)");
  return {
    qid: textField(file, row, 0),
    q0: textField(file, row, 1),
    docno: textField(file, row, 2),
    rank: intField(file, row, 3, "an integer rank"),
    score: floatField(file, row, 4, "a numeric score"),
    tag: textField(file, row, 5),
  };
}

/** A run score as text: integral scores as integers (as upstream's int scores), others as Python's `repr(float)`. */
export function formatScore(x: number): string {
  return Number.isSafeInteger(x) ? String(x) : formatPyFloat(x);
}

/** Formats one run line. */
export function formatRunLine(e: RunEntry): string {
  return `${e.qid} ${e.q0} ${e.docno} ${e.rank} ${formatScore(e.score)} ${e.tag}`;
}

/** Writes qrels lines `qid iter docno rel`. */
export function writeQrels(
  target: string,
  batches: AsyncIterable<readonly QrelsEntry[]> | Iterable<readonly QrelsEntry[]>,
  options?: WriteOptions,
): Promise<number> {
  return writeLines(target, batches, (e) => `${e.qid} ${e.iter} ${e.docno} ${e.rel}`, options);
}

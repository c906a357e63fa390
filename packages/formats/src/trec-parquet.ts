// TREC runs and qrels that come as Parquet tables, told from text by content (`PAR1`), in two
// layouts: convkit's own (RUN_ENTRY_SCHEMA, QRELS_ENTRY_SCHEMA: what `convkit convert` writes) and
// ranx's (`Run.save`/`Qrels.save` to .parquet: pandas `to_dataframe().to_parquet`, columns
// `q_id, doc_id, score`). A ranx run has no rank and no tag: each row's rank is its place among
// its topic's rows in the file (ranx writes them sorted, so the ranks its TREC output would have;
// trec_eval ignores ranks anyway), and the tag is the file's name without `.parquet`/`.parq`/`.pq`
// (whitespace as `_`; `ranx` for stdin), the runid trec_eval prints.
import { open, stat } from "node:fs/promises";
import { basename } from "node:path";
import { type ByteSource, InputError, openInput, peek, readAll } from "@convkit/io";
import { isParquetHead, openParquet, type ParquetTable, type TableSchema } from "@convkit/parquet";
import {
  QRELS_ENTRY_SCHEMA,
  RANX_QRELS_SCHEMA,
  RANX_RUN_SCHEMA,
  RUN_ENTRY_SCHEMA,
} from "./parquet-schemas.js";
import type { QrelsEntry, RunEntry } from "./records.js";

export { isParquetHead };

/** An input opened: a Parquet table, or text (`source`: bytes already peeked at; undefined: open `path`). */
export type TableInput = { parquet: ParquetTable } | { source: ByteSource | undefined };

/**
 * What the file at `path` is: a regular file starting with `PAR1`, another regular file (or one
 * that will not open: the text reader's open names the problem), or a pipe or FIFO, which would
 * lose the bytes read here and is peeked at instead.
 */
async function sniffFile(path: string): Promise<"parquet" | "text" | "stream"> {
  let fh: Awaited<ReturnType<typeof open>> | undefined;
  try {
    // stat, not open: opening and closing a FIFO would cut off the writer's bytes.
    if (!(await stat(path)).isFile()) return "stream";
    fh = await open(path, "r");
    const head = new Uint8Array(4);
    const { bytesRead } = await fh.read(head, 0, 4, 0);
    return isParquetHead(head.subarray(0, bytesRead)) ? "parquet" : "text";
  } catch {
    return "text";
  } finally {
    await fh?.close();
  }
}

/** Whether `path` is a regular file starting with `PAR1` (stdin and pipes: false). */
export async function isParquetFile(path: string): Promise<boolean> {
  return path !== "-" && (await sniffFile(path)) === "parquet";
}

/**
 * `path` (or `source`, bytes already opened) as a Parquet table when it starts with `PAR1`, else
 * as text. A regular file is sniffed in place; stdin and pipes are peeked at, and a Parquet one is
 * read whole (within `--max-input-bytes`).
 */
export async function openTableInput(path: string, source?: ByteSource): Promise<TableInput> {
  if (source === undefined && path !== "-") {
    const kind = await sniffFile(path);
    if (kind === "parquet") return { parquet: await openParquet(path) };
    if (kind === "text") return { source: undefined };
  }
  const src = source ?? (await openInput(path));
  const { head, rest } = await peek(src.chunks, 4);
  const again: ByteSource = { name: src.name, chunks: rest };
  if (!isParquetHead(head)) return { source: again };
  return { parquet: await openParquet(path, await readAll(again)) };
}

/** Which layout a table's columns are: convkit's (`qid`), ranx's (`q_id`), or neither. */
function layout(t: ParquetTable, own: TableSchema, ranx: TableSchema, what: string): "own" | "ranx" {
  if (t.columns.has("qid")) return "own";
  if (t.columns.has("q_id")) return "ranx";
  const names = (s: TableSchema) => s.columns.map((c) => c.name).join(", ");
  throw new InputError(
    t.name,
    {},
    `${what} as a table: columns ${names(own)} (convkit) or ${names(ranx)} (ranx)`,
    `columns ${[...t.columns.keys()].join(", ") || "none"}`,
  );
}

/** The tag of a ranx run read from `path` (ranx keeps none in the file; see the top of this file). */
export function ranxRunTag(path: string): string {
  if (path === "-" || path === "<stdin>") return "ranx";
  const stem = basename(path)
    .replace(/\.(parquet|parq|pq)$/i, "")
    .replace(/\s/g, "_");
  return stem === "" ? "ranx" : stem;
}

/** A Parquet run's rows as run entries, one batch per row group. */
export async function* parquetRunEntries(t: ParquetTable): AsyncIterable<RunEntry[]> {
  if (layout(t, RUN_ENTRY_SCHEMA, RANX_RUN_SCHEMA, "a run") === "own") {
    yield* t.batches(RUN_ENTRY_SCHEMA) as AsyncIterable<RunEntry[]>;
    return;
  }
  // ranx's own Run refuses a non-float score (Run.from_df asserts float64): an int64 score is its
  // qrels layout, given where a run was meant (read as a run, it would score silently).
  if (t.columns.get("score") === "int64")
    throw new InputError(
      t.name,
      {},
      "a run as a table: a ranx run's score is a double (ranx's Run.from_df asserts float64)",
      "an int64 score, ranx's qrels layout",
    );
  const tag = ranxRunTag(t.name);
  const ranks = new Map<string, number>();
  for await (const rows of t.batches(RANX_RUN_SCHEMA)) {
    const out: RunEntry[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      const qid = r.q_id as string;
      const rank = (ranks.get(qid) ?? 0) + 1;
      ranks.set(qid, rank);
      out[i] = { qid, q0: "Q0", docno: r.doc_id as string, rank, score: r.score as number, tag };
    }
    yield out;
  }
}

/** A Parquet qrels table's rows as qrels entries, one batch per row group (ranx's: iter `0`). */
export async function* parquetQrelsEntries(t: ParquetTable): AsyncIterable<QrelsEntry[]> {
  if (layout(t, QRELS_ENTRY_SCHEMA, RANX_QRELS_SCHEMA, "qrels") === "own") {
    yield* t.batches(QRELS_ENTRY_SCHEMA) as AsyncIterable<QrelsEntry[]>;
    return;
  }
  for await (const rows of t.batches(RANX_QRELS_SCHEMA))
    yield rows.map((r) => ({
      qid: r.q_id as string,
      iter: "0",
      docno: r.doc_id as string,
      rel: r.score as number,
    }));
}

/** Whether a table's columns are a run's or qrels' (format detection; undefined: neither). */
export function trecTableKind(columns: ReadonlyMap<string, string>): "run" | "qrels" | undefined {
  if (columns.has("qid") && columns.has("docno")) return columns.has("rel") ? "qrels" : "run";
  if (columns.has("q_id") && columns.has("doc_id")) return columns.get("score") === "int64" ? "qrels" : "run";
  return undefined;
}

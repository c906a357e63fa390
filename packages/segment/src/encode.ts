// A batch of documents → the bytes of each output (passage JSONL, hash TSV, TrecWeb) and the passage
// rows of the Parquet output: the work a pool thread does.
import { hash } from "node:crypto";
import {
  formatIkatTrecWeb,
  formatPassageLine,
  jsonDocument,
  type PassageRecord,
  type WebDocument,
} from "@convkit/formats";
import { ByteBuilder, InputError } from "@convkit/io";
import { parseJsonText } from "@convkit/json";
import { pyStrip, pyStripStart } from "@convkit/pycompat";
import { IKAT, MSMARCO, type SegmentOptions, segmentDocument, segmentDocumentLocated } from "./passages.js";
import { refusedTextError, splitterFor } from "./splitters.js";

/** A document to segment. */
export type SourceDocument = WebDocument;

/** What to write. */
export type PassageFormat = "jsonl" | "parquet" | "hashes" | "trecweb";

/** The outputs a pool thread encodes as bytes (Parquet is encoded by the writer, on the main thread). */
export type ByteFormat = Exclude<PassageFormat, "parquet">;

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Raw JSONL bytes, whole lines only (decoded and parsed in the pool). Errors name lines counted
 * from the unit's first line as 1: the job, which knows where the unit starts, renumbers them.
 */
export interface JsonlBytes {
  file: string;
  data: Uint8Array;
}

/**
 * Visits the JSON value of each line of a unit, each line decoded on its own (no unit-sized
 * string: those are V8 large objects, fresh pages every time) with a trailing `\r` dropped; blank
 * lines are skipped. Returns the unit's line count.
 */
export function forEachJsonLine(b: JsonlBytes, visit: (value: unknown, line: number) => void): number {
  const data = b.data;
  let line = 0;
  for (let start = 0; start < data.length; ) {
    line++;
    const nl = data.indexOf(10, start);
    const next = nl < 0 ? data.length : nl + 1;
    let end = nl < 0 ? data.length : nl;
    if (end > start && data[end - 1] === 13) end--;
    let text: string;
    try {
      text = utf8.decode(data.subarray(start, end));
    } catch {
      throw new InputError(b.file, { line }, "UTF-8 text", "bytes that are not UTF-8");
    }
    start = next;
    if (text.trim().length === 0) continue;
    visit(parseJsonText(b.file, text, line), line);
  }
  return line;
}

/** One batch of work (plain data: it crosses to worker threads): documents, or JSONL bytes to parse first. */
export interface SegmentTask {
  docs?: SourceDocument[];
  bytes?: JsonlBytes;
  preset: "ikat" | "msmarco";
  /** Overrides of the preset's window, stride, length and separator. */
  overrides?: Partial<Pick<SegmentOptions, "window" | "stride" | "maxLength" | "idSeparator">>;
  splitter: string;
  /** The spaCy pipeline folder of the `spacy` splitter. */
  spacyModel?: string;
  /** The `spacy` splitter's share of the default cache sizes (1/N for each of N worker threads). */
  cacheShare?: number;
  formats: PassageFormat[];
  /** MS MARCO: `url\ntitle\n` in front of each passage's contents. */
  urlTitle?: boolean;
  /**
   * Each passage's `start` and `end` in the JSONL and Parquet outputs: code point offsets in the
   * document's text of the passage's sentences (not of a `--url-title` prefix).
   */
  offsets?: boolean;
  /** Buffers of earlier outputs, written out and handed back: outputs are built in them again. */
  spare?: ArrayBuffer[];
}

/**
 * Output bytes are built here, one builder per format, for every batch of the thread; a batch's
 * outputs leave in the builders' own buffers, and buffers handed back take their place.
 */
const out: Record<ByteFormat, ByteBuilder> = {
  jsonl: new ByteBuilder(),
  hashes: new ByteBuilder(),
  trecweb: new ByteBuilder(),
};
const spares: ArrayBuffer[] = [];
const NEWLINE = new Uint8Array([10]);

/** The encoded outputs of a batch (each in an ArrayBuffer of its own: they can be transferred, then handed back). */
export interface SegmentResult {
  jsonl: Uint8Array;
  hashes: Uint8Array;
  trecweb: Uint8Array;
  /** The passages as the JSONL's objects (`url` where the JSONL line has one), when Parquet is asked for. */
  rows: PassageRecord[];
  passages: number;
  docs: number;
  inputChars: number;
  /** Input bytes of the task (JSONL bytes as read; else the texts' length). */
  inputBytes: number;
  /** Lines of the task's JSONL bytes (0 for documents). */
  lines: number;
}

/** Segments a batch and encodes every requested output. */
export function encodeSegmentTask(t: SegmentTask): SegmentResult {
  const o: SegmentOptions = { ...(t.preset === "ikat" ? IKAT : MSMARCO), ...t.overrides };
  const split = splitterFor(t.splitter, t.spacyModel, t.cacheShare);
  const want = new Set(t.formats);
  // A batch that failed may have left bytes behind.
  for (const b of Object.values(out)) b.clear();
  const rows: PassageRecord[] = [];
  let passages = 0;
  let inputChars = 0;
  let docs = 0;
  // Each document segmented as soon as its line is parsed: none outlives its own turn (a unit's
  // documents parsed first all lived through the whole unit, surviving scavenges into the old space).
  const segmentOne = (d: SourceDocument, line: number): void => {
    inputChars += d.text.length;
    docs++;
    let ps: string[];
    let at: number[] | undefined;
    try {
      if (t.offsets) ({ passages: ps, offsets: at } = segmentDocumentLocated(d.text, split, o));
      else ps = segmentDocument(d.text, split, o);
    } catch (e) {
      // Only JSON's \u escapes make lone surrogates: TrecWeb's text is decoded UTF-8.
      if (!t.bytes) throw e;
      const what = `the text of document ${JSON.stringify(d.id)}`;
      throw refusedTextError(e, t.bytes.file, line, what, pyStripStart(d.text));
    }
    passages += ps.length;
    const url = d.url === undefined ? undefined : pyStrip(d.url);
    for (const [k, p] of ps.entries()) {
      const id = `${d.id}${o.idSeparator}${k}`;
      if (want.has("jsonl") || want.has("parquet")) {
        const contents = t.urlTitle ? `${url ?? ""}\n${d.title ?? ""}\n${p}` : p;
        const row: PassageRecord =
          t.preset === "ikat" && url !== undefined ? { id, contents, url } : { id, contents };
        if (at) {
          const [start, end] = [at[2 * k], at[2 * k + 1]];
          if (start === undefined || end === undefined) throw new RangeError(`passage ${k}: no offsets`);
          row.start = start;
          row.end = end;
        }
        if (want.has("jsonl")) {
          out.jsonl.string(formatPassageLine(row));
          out.jsonl.bytes(NEWLINE);
        }
        if (want.has("parquet")) rows.push(row);
      }
      if (want.has("hashes")) out.hashes.string(`${d.id}\t${k}\t${hash("md5", p, "hex")}\n`);
    }
    if (want.has("trecweb") && ps.length > 0) {
      out.trecweb.string(
        formatIkatTrecWeb({ docno: d.id, title: d.title ?? "", url: url ?? "", passages: ps }),
      );
      out.trecweb.bytes(NEWLINE);
    }
  };
  const bytesIn = t.bytes;
  let lines = 0;
  if (bytesIn)
    lines = forEachJsonLine(bytesIn, (v, line) => segmentOne(jsonDocument(bytesIn.file, v, line), line));
  else for (const d of t.docs ?? []) segmentOne(d, 0);
  if (t.spare) spares.push(...t.spare);
  const bytes = (f: ByteFormat) => (want.has(f) ? out[f].handOver(spares.pop()) : new Uint8Array(0));
  return {
    jsonl: bytes("jsonl"),
    hashes: bytes("hashes"),
    trecweb: bytes("trecweb"),
    rows,
    passages,
    docs,
    inputChars,
    inputBytes: t.bytes ? t.bytes.data.length : inputChars,
    lines,
  };
}

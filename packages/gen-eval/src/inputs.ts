// gen:eval's inputs: per-topic candidate documents (TREC run or pickle), document texts, facet qrels.

import { createReadStream, existsSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import {
  collect,
  detectFormat,
  jsonDocument,
  readClueWeb22,
  readJsonl,
  readQrels,
  readRun,
  readTrecWeb,
} from "@convkit/formats";
import { InputError, inputLimits, lineTooLong, sniffCompression } from "@convkit/io";
import { parseJsonText, tryParseJson } from "@convkit/json";
import { PyTuple, type PyValue, readPickleFile } from "@convkit/pickle";
import { trecOrder } from "@convkit/trec-eval";

/**
 * Candidate documents per topic, best first, cut at `depth`: from a TREC run (trec_eval's order:
 * score descending, ties by docno descending) or a pickle `{topic: [docno, …]}`,
 * `{topic: [(docno, score), …]}` or `{topic: {docno: score}}` (ClariQ's `top10k_docs_dict`).
 */
export async function readCandidateLists(path: string, depth: number): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  const fmt = await detectFormat(path);
  if (fmt === "pickle" || fmt === "tar") {
    const d = await readPickleFile(path);
    if (!(d instanceof Map)) throw new InputError(path, {}, "a dict {topic: documents}", typeof d);
    for (const [k, v] of d) {
      const topic = Number(k);
      if (!Number.isInteger(topic)) throw new InputError(path, {}, "int topic ids as keys", String(k));
      out.set(topic, rankedDocnos(path, v).slice(0, depth));
    }
    return out;
  }
  const byTopic = new Map<number, { docno: string; score: number }[]>();
  for await (const b of readRun(path))
    for (const r of b) {
      const t = Number(r.qid);
      if (!Number.isInteger(t)) throw new InputError(path, {}, "int topic ids in the first column", r.qid);
      const l = byTopic.get(t) ?? [];
      l.push({ docno: r.docno, score: r.score });
      byTopic.set(t, l);
    }
  for (const [t, l] of byTopic) out.set(t, trecSorted(l).slice(0, depth));
  return out;
}

function trecSorted(l: { docno: string; score: number }[]): string[] {
  return l.sort(trecOrder).map((x) => x.docno);
}

function rankedDocnos(path: string, v: PyValue): string[] {
  if (v instanceof Map) return trecSorted([...v].map(([d, s]) => ({ docno: String(d), score: Number(s) })));
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === "string")) return v as string[];
    const items = v.map((x) => {
      const arr = x instanceof PyTuple ? x.items : Array.isArray(x) ? x : undefined;
      if (!arr || typeof arr[0] !== "string")
        throw new InputError(
          path,
          {},
          "docnos or (docno, score) pairs",
          JSON.stringify(x)?.slice(0, 40) ?? "?",
        );
      return { docno: arr[0], score: Number(arr[1] ?? 0) };
    });
    return trecSorted(items);
  }
  throw new InputError(path, {}, "a list or dict of documents per topic", typeof v);
}

/** Where a document's text is: in memory, or a JSONL line of a plain file (byte range). */
type Stored = string | { file: string; start: number; end: number; line: number };

/**
 * The wanted documents' texts. Lines of plain (uncompressed) JSONL files are remembered as byte
 * ranges and read back when their topic comes, so memory holds offsets, not texts; texts of
 * compressed files, TrecWeb and ClueWeb22 are held in memory until released.
 */
export class DocumentStore {
  private readonly docs = new Map<string, Stored>();
  private readonly handles = new Map<string, FileHandle>();

  /** Adds a text or a byte range. */
  set(docno: string, where: Stored): void {
    this.docs.set(docno, where);
  }

  has(docno: string): boolean {
    return this.docs.has(docno);
  }

  /** Texts in the given order; byte ranges of one file are read in one go when they lie close together. */
  async texts(docnos: readonly string[]): Promise<string[]> {
    const out: string[] = new Array(docnos.length);
    const ranges = new Map<string, { i: number; start: number; end: number; line: number }[]>();
    docnos.forEach((d, i) => {
      const w = this.docs.get(d);
      if (w === undefined) throw new Error(`document ${d} not loaded`);
      if (typeof w === "string") out[i] = w;
      else {
        const l = ranges.get(w.file) ?? [];
        l.push({ i, start: w.start, end: w.end, line: w.line });
        ranges.set(w.file, l);
      }
    });
    for (const [file, list] of ranges) {
      let fh = this.handles.get(file);
      if (!fh) {
        fh = await open(file, "r");
        this.handles.set(file, fh);
      }
      list.sort((a, b) => a.start - b.start);
      const lo = list[0]!.start;
      const hi = list.reduce((m, r) => Math.max(m, r.end), 0);
      const needed = list.reduce((n, r) => n + (r.end - r.start), 0);
      const text = (buf: Buffer, r: (typeof list)[number], base: number) =>
        jsonDocument(
          file,
          parseJsonText(file, buf.toString("utf8", r.start - base, r.end - base), r.line),
          r.line,
        ).text;
      if (hi - lo <= 2 * needed + (1 << 20)) {
        // Close together (a topic's documents usually are): one read.
        const buf = Buffer.allocUnsafe(hi - lo);
        await fh.read(buf, 0, buf.length, lo);
        for (const r of list) out[r.i] = text(buf, r, lo);
      } else {
        for (const r of list) {
          const buf = Buffer.allocUnsafe(r.end - r.start);
          await fh.read(buf, 0, buf.length, r.start);
          out[r.i] = text(buf, r, r.start);
        }
      }
    }
    return out;
  }

  /** Forgets a document (its text leaves memory). */
  release(docno: string): void {
    this.docs.delete(docno);
  }

  async close(): Promise<void> {
    for (const fh of this.handles.values()) await fh.close();
    this.handles.clear();
  }
}

/** The id of a line that starts `{"id": "…"` (or docid / docno): read without parsing the (long) rest. */
const LEADING_ID = /^\{\s*"(?:id|docid|docno)"\s*:\s*"((?:[^"\\]|\\.)*)"/;

/**
 * Byte ranges of the wanted documents' lines in a plain JSONL file. A line that starts with its
 * id is not parsed here (its text is checked when its topic reads it); any other line is parsed.
 */
async function indexJsonl(path: string, wanted: ReadonlySet<string>, store: DocumentStore): Promise<void> {
  let carry: Buffer = Buffer.alloc(0);
  let offset = 0; // file offset of carry[0]
  let line = 0;
  const take = (buf: Buffer, start: number, end: number, fileStart: number) => {
    line++;
    const head = buf.toString("utf8", start, Math.min(end, start + 512));
    const lead = LEADING_ID.exec(head)?.[1];
    const decoded = lead === undefined ? undefined : tryParseJson(`"${lead}"`);
    let id: string;
    // An id that is no JSON string (a bad escape, a raw tab) goes with its line through the
    // parse, which names the line and column.
    if (decoded?.ok && typeof decoded.value === "string") id = decoded.value;
    else {
      const text = buf.toString("utf8", start, end);
      if (text.trim() === "") return;
      id = jsonDocument(path, parseJsonText(path, text, line), line).id;
    }
    if (wanted.has(id)) store.set(id, { file: path, start: fileStart, end: fileStart + (end - start), line });
  };
  // A line that spans reads is kept as its pieces and joined once its end comes (joined on every
  // read, a long line was copied quadratically), no longer than the line cap.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const max = inputLimits().lineBytes;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    const firstEnd = chunk.indexOf(10);
    if (carry.length + pendingBytes + (firstEnd < 0 ? chunk.length : firstEnd) > max)
      throw lineTooLong(path, { line: line + 1 }, max);
    if (firstEnd < 0) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      continue;
    }
    const buf = carry.length || pendingBytes ? Buffer.concat([carry, ...pending, chunk]) : chunk;
    pending = [];
    pendingBytes = 0;
    let s = 0;
    for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, s)) {
      take(buf, s, i, offset + s);
      s = i + 1;
    }
    carry = buf.subarray(s);
    offset += s;
  }
  if (pendingBytes > 0) carry = Buffer.concat([carry, ...pending]);
  if (carry.length) take(carry, 0, carry.length, offset);
}

/**
 * The wanted documents from TrecWeb, ClueWeb22 JSONL or JSONL `{id|docid|docno, text|contents|body}`
 * (any compression), the format detected from the content.
 */
export async function loadDocumentStore(
  paths: readonly string[],
  wanted: ReadonlySet<string>,
): Promise<DocumentStore> {
  const store = new DocumentStore();
  for (const path of paths) {
    const fmt = await detectFormat(path);
    const plain = path !== "-" && existsSync(path) && sniffCompression(await readHead(path)) === "none";
    if (plain && fmt !== "trecweb" && fmt !== "clueweb22") {
      await indexJsonl(path, wanted, store);
    } else if (fmt === "trecweb") {
      for await (const b of readTrecWeb(path))
        for (const d of b)
          if (wanted.has(d.docno)) store.set(d.docno, [d.title, d.body].filter(Boolean).join(" "));
    } else if (fmt === "clueweb22") {
      for await (const b of readClueWeb22(path))
        for (const d of b) if (wanted.has(d["ClueWeb22-ID"])) store.set(d["ClueWeb22-ID"], d["Clean-Text"]);
    } else {
      for await (const b of readJsonl(path, (v, line) => jsonDocument(path, v, line)))
        for (const d of b) if (wanted.has(d.id)) store.set(d.id, d.text);
    }
  }
  return store;
}

async function readHead(path: string): Promise<Uint8Array> {
  const fh = await open(path, "r");
  try {
    const b = Buffer.alloc(4);
    const { bytesRead } = await fh.read(b, 0, 4, 0);
    return b.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Facet qrels `F0001 0 docno grade` as facet → [docno, grade] pairs. */
export async function readFacetQrels(path: string): Promise<Map<string, [string, number][]>> {
  const out = new Map<string, [string, number][]>();
  for (const e of await collect(readQrels(path))) {
    const l = out.get(e.qid) ?? [];
    l.push([e.docno, e.rel]);
    out.set(e.qid, l);
  }
  return out;
}

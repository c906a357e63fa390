// A batch of documents → the bytes of each output (passage JSONL, hash TSV, TrecWeb): the work a pool thread does.
import { createHash } from "node:crypto";
import {
  formatIkatTrecWeb,
  formatPassageLine,
  jsonDocument,
  parseJsonText,
  type WebDocument,
} from "@convkit/formats";
import { InputError } from "@convkit/io";
import { IKAT, MSMARCO, pyStrip, type SegmentOptions, segmentDocument } from "./passages.js";
import { SPLITTERS } from "./splitters.js";

/** A document to segment. */
export type SourceDocument = WebDocument;

/** What to write. */
export type PassageFormat = "jsonl" | "hashes" | "trecweb";

/** JSON Lines still to parse (done in the pool, off the reading thread), with where they came from. */
export interface JsonlLines {
  file: string;
  firstLine: number;
  lines: string[];
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Raw JSONL bytes, whole lines only (decoded and parsed in the pool), with where they came from. */
export interface JsonlBytes {
  file: string;
  firstLine: number;
  data: Uint8Array;
}

function bytesToLines(b: JsonlBytes): JsonlLines {
  let text: string;
  try {
    text = utf8.decode(b.data);
  } catch {
    // Find the line that is not UTF-8, for the message.
    let line = b.firstLine;
    let start = 0;
    for (let i = b.data.indexOf(10); ; i = b.data.indexOf(10, start)) {
      const end = i < 0 ? b.data.length : i;
      try {
        utf8.decode(b.data.subarray(start, end));
      } catch {
        throw new InputError(b.file, { line }, "UTF-8 text", "bytes that are not UTF-8");
      }
      if (i < 0) break;
      start = i + 1;
      line++;
    }
    throw new InputError(b.file, { line: b.firstLine }, "UTF-8 text", "bytes that are not UTF-8");
  }
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return {
    file: b.file,
    firstLine: b.firstLine,
    lines: lines.map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l)),
  };
}

function parseLines(b: JsonlLines): SourceDocument[] {
  const out: SourceDocument[] = [];
  for (let i = 0; i < b.lines.length; i++) {
    const l = b.lines[i]!;
    if (l.trim().length === 0) continue;
    out.push(jsonDocument(b.file, parseJsonText(b.file, l, b.firstLine + i), b.firstLine + i));
  }
  return out;
}

/** One batch of work (plain data: it crosses to worker threads): documents, or JSONL lines to parse first. */
export interface SegmentTask {
  docs?: SourceDocument[];
  lines?: JsonlLines;
  bytes?: JsonlBytes;
  preset: "ikat" | "msmarco";
  /** Overrides of the preset's window, stride, length and separator. */
  overrides?: Partial<Pick<SegmentOptions, "window" | "stride" | "maxLength" | "idSeparator">>;
  splitter: string;
  formats: PassageFormat[];
  /** MS MARCO: `url\ntitle\n` in front of each passage's contents. */
  urlTitle?: boolean;
}

/** The encoded outputs of a batch. */
export interface SegmentResult {
  jsonl: Uint8Array;
  hashes: Uint8Array;
  trecweb: Uint8Array;
  passages: number;
  docs: number;
  inputChars: number;
  /** Input bytes of the task (JSONL bytes as read; else the texts' length). */
  inputBytes: number;
}

/** Segments a batch and encodes every requested output. */
export function encodeSegmentTask(t: SegmentTask): SegmentResult {
  const o: SegmentOptions = { ...(t.preset === "ikat" ? IKAT : MSMARCO), ...t.overrides };
  const split = SPLITTERS[t.splitter];
  if (!split) throw new Error(`unknown splitter ${t.splitter}`);
  const want = new Set(t.formats);
  let jsonl = "";
  let hashes = "";
  let trecweb = "";
  let passages = 0;
  let inputChars = 0;
  let docs = 0;
  const docsIn = t.docs ?? parseLines(t.lines ?? bytesToLines(t.bytes!));
  for (const d of docsIn) {
    inputChars += d.text.length;
    docs++;
    const ps = segmentDocument(d.text, split, o);
    passages += ps.length;
    const url = d.url === undefined ? undefined : pyStrip(d.url);
    ps.forEach((p, k) => {
      const id = `${d.id}${o.idSeparator}${k}`;
      if (want.has("jsonl")) {
        const contents = t.urlTitle ? `${url ?? ""}\n${d.title ?? ""}\n${p}` : p;
        jsonl += `${formatPassageLine(t.preset === "ikat" && url !== undefined ? { id, contents, url } : { id, contents })}\n`;
      }
      if (want.has("hashes"))
        hashes += `${d.id}\t${k}\t${createHash("md5").update(p, "utf8").digest("hex")}\n`;
    });
    if (want.has("trecweb") && ps.length > 0) {
      trecweb += `${formatIkatTrecWeb({ docno: d.id, title: d.title ?? "", url: url ?? "", passages: ps })}\n`;
    }
  }
  return {
    jsonl: Buffer.from(jsonl, "utf8"),
    hashes: Buffer.from(hashes, "utf8"),
    trecweb: Buffer.from(trecweb, "utf8"),
    passages,
    docs,
    inputChars,
    inputBytes: t.bytes ? t.bytes.data.length : inputChars,
  };
}

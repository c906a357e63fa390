// ClueWeb22 `txt` files: one gzip member per JSON record, and `.offset` files for random access.
import { open, readFile } from "node:fs/promises";
import { gunzipSync, gzipSync } from "node:zlib";
import { describeFound, InputError, messageOf, type WriteOptions, writeAtomic } from "@convkit/io";
import { Fields, inputMismatch, parseJsonText } from "@convkit/json";
import { readJsonl } from "./jsonl.js";
import type { ClueWeb22Record } from "./records.js";
import { displayName } from "./table.js";

const FIELDS = ["ClueWeb22-ID", "URL", "URL-hash", "Language", "Clean-Text"] as const;

/** A record checked through Fields; its message says which record field was not a string. */
function checkRecord(
  file: string,
  v: unknown,
  where: { line: number } | { offset: number },
): ClueWeb22Record {
  const o = Fields.of(v, inputMismatch(file, where));
  const field = (f: (typeof FIELDS)[number]): string => {
    const x = o.get(f);
    if (typeof x !== "string")
      throw new InputError(
        file,
        where,
        `a string "${f}" in the ClueWeb22 txt record`,
        describeFound(JSON.stringify(x ?? null)),
      );
    return x;
  };
  return {
    "ClueWeb22-ID": field("ClueWeb22-ID"),
    URL: field("URL"),
    "URL-hash": field("URL-hash"),
    Language: field("Language"),
    "Clean-Text": field("Clean-Text"),
  };
}

/** Records of a ClueWeb22 `txt/…/*.json.gz` file (all members), in batches. */
export function readClueWeb22(path: string): AsyncIterable<ClueWeb22Record[]> {
  const file = displayName(path);
  return readJsonl(path, (v, line) => checkRecord(file, v, { line }));
}

/** The byte offsets of an `.offset` file: fixed 11-byte lines `%010d\n`. */
export async function readClueWeb22Offsets(path: string): Promise<number[]> {
  const buf = await readFile(path);
  if (buf.length % 11 !== 0)
    throw new InputError(
      path,
      { offset: buf.length - (buf.length % 11) },
      "11-byte lines (%010d\\n)",
      `${buf.length % 11} trailing bytes`,
    );
  const out: number[] = [];
  for (let i = 0; i < buf.length; i += 11) {
    const s = buf.toString("latin1", i, i + 10);
    if (!/^\d{10}$/.test(s) || buf[i + 10] !== 0x0a)
      throw new InputError(
        path,
        { offset: i },
        "a 10-digit offset and a newline",
        describeFound(buf.toString("latin1", i, i + 11)),
      );
    out.push(Number(s));
  }
  return out;
}

/** Record `n` of a `.json.gz` file, read directly through its offsets (no scan). */
export async function readClueWeb22Record(
  jsonGz: string,
  offsets: readonly number[],
  n: number,
): Promise<ClueWeb22Record> {
  const start = offsets[n];
  if (start === undefined)
    throw new InputError(jsonGz, {}, `a record number below ${Math.max(0, offsets.length - 1)}`, String(n));
  const fh = await open(jsonGz, "r");
  try {
    const end = offsets[n + 1] ?? (await fh.stat()).size;
    const buf = Buffer.alloc(end - start);
    await fh.read(buf, 0, buf.length, start);
    let text: string;
    try {
      text = gunzipSync(buf).toString("utf8");
    } catch (e) {
      throw new InputError(jsonGz, { offset: start }, "a complete gzip member", messageOf(e));
    }
    return checkRecord(jsonGz, parseJsonText(jsonGz, text), { offset: start });
  } finally {
    await fh.close();
  }
}

/** Writes records as ClueWeb22 does (each its own gzip member) plus the `.offset` file beside it. */
export async function writeClueWeb22(
  target: string,
  records: readonly ClueWeb22Record[],
  options?: WriteOptions,
): Promise<void> {
  const offsets: number[] = [];
  let pos = 0;
  await writeAtomic(
    target,
    async (sink) => {
      for (const r of records) {
        const member = gzipSync(`${JSON.stringify(r)}\n`);
        offsets.push(pos);
        pos += member.length;
        await sink.write(member);
      }
    },
    options,
  );
  offsets.push(pos);
  const offsetPath = target.replace(/\.json\.gz$/, ".offset");
  await writeAtomic(offsetPath, (sink) =>
    sink.write(offsets.map((o) => `${String(o).padStart(10, "0")}\n`).join("")),
  );
}

export { FIELDS as CLUEWEB22_FIELDS };

// Line-aligned reading: strict UTF-8 line batches with 1-based line numbers, and raw byte units of whole lines.
import { type FileHandle, open } from "node:fs/promises";
import { InputError } from "./errors.js";
import { type ByteSource, openHandleInput, openInput, readAll, sniffCompression } from "./source.js";

/** Consecutive lines of a file: `lines[i]` is line `firstLine + i` (no `\n`, a trailing `\r` removed). */
export interface LineBatch {
  readonly firstLine: number;
  readonly lines: string[];
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Whether bytes start with the UTF-8 byte order mark (dropped from a file's first bytes). */
function startsWithBom(b: Uint8Array): boolean {
  return b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
}

function decodeOrThrow(name: string, bytes: Uint8Array, firstLine: number): string {
  try {
    return decoder.decode(bytes);
  } catch {
    // Find the offending line and byte to report where the file is broken.
    let line = firstLine;
    let start = 0;
    for (let i = 0; i <= bytes.length; i++) {
      if (i === bytes.length || bytes[i] === 0x0a) {
        const piece = bytes.subarray(start, i);
        try {
          decoder.decode(piece);
        } catch {
          const col = firstBadByte(piece);
          throw new InputError(
            name,
            { line, col: col + 1 },
            "valid UTF-8",
            `byte 0x${(piece[col] ?? 0).toString(16).padStart(2, "0")}`,
          );
        }
        line++;
        start = i + 1;
      }
    }
    throw new InputError(name, { line: firstLine }, "valid UTF-8", "an invalid sequence");
  }
}

/**
 * A whole file's bytes as text, strictly: invalid UTF-8 is an {@link InputError} at its line and
 * column (where `Buffer.toString` would put U+FFFD and read on). A leading BOM is dropped.
 */
export function decodeUtf8(name: string, bytes: Uint8Array): string {
  return decodeOrThrow(name, startsWithBom(bytes) ? bytes.subarray(3) : bytes, 1);
}

/** A whole file (or `-`, compressed or not) as text, strictly decoded ({@link decodeUtf8}). */
export async function readText(path: string): Promise<string> {
  const source = await openInput(path);
  return decodeUtf8(source.name, await readAll(source));
}

function firstBadByte(piece: Uint8Array): number {
  let lo = 0;
  let hi = piece.length;
  // Largest prefix that decodes (a cut inside a sequence also fails, so step back to a lead byte).
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      decoder.decode(piece.subarray(0, mid));
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  return lo;
}

/** Splits a byte source into batches of lines; invalid UTF-8 is an {@link InputError}. */
export async function* readLineBatches(source: ByteSource): AsyncIterable<LineBatch> {
  let carry: Uint8Array | undefined;
  let lineNo = 1;
  let first = true;
  for await (let chunk of source.chunks) {
    if (first && chunk.length > 0) {
      first = false;
      if (startsWithBom(chunk)) chunk = chunk.subarray(3);
    }
    const last = chunk.lastIndexOf(0x0a);
    if (last < 0) {
      carry = carry ? Buffer.concat([carry, chunk]) : chunk;
      continue;
    }
    const body = carry ? Buffer.concat([carry, chunk.subarray(0, last)]) : chunk.subarray(0, last);
    carry = chunk.subarray(last + 1);
    if (carry.length === 0) carry = undefined;
    const lines = decodeOrThrow(source.name, body, lineNo).split("\n");
    stripCr(lines);
    yield { firstLine: lineNo, lines };
    lineNo += lines.length;
  }
  if (carry && carry.length > 0) {
    const lines = decodeOrThrow(source.name, carry, lineNo).split("\n");
    stripCr(lines);
    yield { firstLine: lineNo, lines };
  }
}

function stripCr(lines: string[]): void {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.length > 0 && l.charCodeAt(l.length - 1) === 13) lines[i] = l.slice(0, -1);
  }
}

/** A cap on the length of a line (its bytes, a `\r` before the `\n` included), and what the error says was expected. */
export interface LineCap {
  bytes: number;
  /** E.g. `a line of at most 16,777,216 bytes (--max-line-bytes)`. */
  expected: string;
}

/**
 * Line numbers and line lengths of the bytes read, in order: a line past the cap is an
 * {@link InputError} at its line as soon as the bytes read show it, before the rest of it is read.
 */
class LineCapCheck {
  /** The line the next byte belongs to. */
  private line = 1;
  /** Bytes of that line so far. */
  private length = 0;

  constructor(
    private readonly name: string,
    private readonly cap: LineCap,
  ) {}

  see(bytes: Uint8Array): void {
    let from = 0;
    for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, from)) {
      this.check(this.length + nl - from);
      this.length = 0;
      this.line++;
      from = nl + 1;
    }
    this.length += bytes.length - from;
    this.check(this.length);
  }

  private check(length: number): void {
    if (length > this.cap.bytes)
      throw new InputError(this.name, { line: this.line }, this.cap.expected, "a longer one");
  }
}

/**
 * A file's bytes in units of whole lines of about `unitBytes` each (a line longer than that comes
 * whole, in a larger unit), every unit in an ArrayBuffer of its own so it can be transferred to a
 * worker thread; a leading UTF-8 BOM is dropped. A plain file is read straight into the units (no
 * copy between chunks and units); a compressed file is decompressed from the same open handle,
 * and stdin (`-`) or split parts go through {@link openInput}. With `cap`, a line longer than
 * `cap.bytes` is an {@link InputError} at its line, raised once that many bytes of it are read
 * (it is never held whole); the lines are then counted as they are read. A pipe or FIFO given by
 * path (`<(zcat x.gz)`) is read as a stream, like stdin.
 */
export async function* readLineUnits(
  path: string,
  unitBytes: number,
  cap?: LineCap,
): AsyncIterable<Uint8Array> {
  const fh = path === "-" ? undefined : await open(path).catch(() => undefined);
  if (!fh) {
    const source = await openInput(path);
    yield* streamUnits(source.chunks, unitBytes, cap && new LineCapCheck(source.name, cap));
    return;
  }
  try {
    const check = cap && new LineCapCheck(path, cap);
    // Positioned reads on a plain regular file only; a pipe (`<(zcat x.gz)`, a FIFO) cannot seek,
    // and it and a compressed file are read as a stream from the handle already open.
    const head = new Uint8Array(3);
    const plain =
      (await fh.stat()).isFile() &&
      sniffCompression(head.subarray(0, (await fh.read(head, 0, 3, 0)).bytesRead)) === "none";
    if (plain) yield* plainFileUnits(fh, unitBytes, check);
    else yield* streamUnits((await openHandleInput(fh, path)).chunks, unitBytes, check);
  } finally {
    await fh.close();
  }
}

/** Units read with positioned reads into buffers of their own, each cut after its last line end; a line longer than a buffer doubles it. */
async function* plainFileUnits(
  fh: FileHandle,
  unitBytes: number,
  check: LineCapCheck | undefined,
): AsyncIterable<Uint8Array> {
  // Units are overwritten by reads before use: no zero fill (allocUnsafeSlow: an ArrayBuffer of its own).
  let buf: Uint8Array = Buffer.allocUnsafeSlow(unitBytes);
  let filled = 0;
  let position = 0;
  let first = true;
  // Bytes of `buf` the cap check has seen (it sees them once the BOM is gone).
  let seen = 0;
  for (;;) {
    const { bytesRead } = await fh.read(buf, filled, buf.length - filled, position);
    position += bytesRead;
    filled += bytesRead;
    if (first && filled >= 3) {
      first = false;
      if (startsWithBom(buf)) {
        buf.copyWithin(0, 3, filled);
        filled -= 3;
        continue;
      }
    }
    if (check && (!first || bytesRead === 0)) {
      check.see(buf.subarray(seen, filled));
      seen = filled;
    }
    if (bytesRead === 0) {
      if (filled > 0) yield buf.subarray(0, filled);
      return;
    }
    if (filled < buf.length) continue;
    const end = buf.lastIndexOf(10) + 1;
    const tail = buf.length - end;
    // Room past the carried tail, so the next read reads something (a read of 0 bytes is the end).
    const next = Buffer.allocUnsafeSlow(Math.max(unitBytes, 2 * tail));
    next.set(buf.subarray(end));
    if (end > 0) yield buf.subarray(0, end);
    filled = tail;
    seen = tail;
    buf = next;
  }
}

/** Units from a stream of chunks: collected until large enough, then copied once, cut after the last line end. */
async function* streamUnits(
  chunks: AsyncIterable<Uint8Array>,
  unitBytes: number,
  check: LineCapCheck | undefined,
): AsyncIterable<Uint8Array> {
  let parts: Uint8Array[] = [];
  let size = 0;
  let first = true;
  const cut = (final: boolean): Uint8Array => {
    const last = parts[parts.length - 1]!;
    const lastEnd = final ? last.length : last.lastIndexOf(10) + 1;
    const data = new Uint8Array(size - last.length + lastEnd);
    let at = 0;
    for (let i = 0; i < parts.length - 1; i++) {
      data.set(parts[i]!, at);
      at += parts[i]!.length;
    }
    data.set(last.subarray(0, lastEnd), at);
    const rest = last.subarray(lastEnd);
    parts = rest.length ? [rest] : [];
    size = rest.length;
    return data;
  };
  for await (let chunk of chunks) {
    if (first && chunk.length > 0) {
      first = false;
      if (startsWithBom(chunk)) chunk = chunk.subarray(3);
    }
    check?.see(chunk);
    parts.push(chunk);
    size += chunk.length;
    if (size >= unitBytes && chunk.lastIndexOf(10) >= 0) yield cut(false);
  }
  if (size > 0) yield cut(true);
}

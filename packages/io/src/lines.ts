// Line-aligned reading: strict UTF-8 line batches with 1-based line numbers, and raw byte units of whole lines.
import { type FileHandle, open, stat } from "node:fs/promises";
import { InputError, throwIfParquet } from "./errors.js";
import { inputLimits, lineTooLong, MAX_STRING_LENGTH, textTooLong, utf16Length } from "./limits.js";
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
  // A text V8 cannot hold as one string fails to decode like invalid UTF-8: say what it is.
  if (bytes.length > MAX_STRING_LENGTH) {
    const units = utf16Length(bytes);
    if (units > MAX_STRING_LENGTH) throw textTooLong(name, units);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    if (firstLine === 1) throwIfParquet(name, bytes);
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

/**
 * A whole file (or `-`, compressed or not) as text, strictly decoded ({@link decodeUtf8}); more
 * than the process's whole-input cap ({@link inputLimits}) is an {@link InputError}.
 */
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

/**
 * Splits a byte source into batches of lines; invalid UTF-8 is an {@link InputError}, and so is a
 * line longer than `maxLineBytes` (the process's {@link inputLimits} by default), raised as soon as
 * that many bytes of it are read. A line that spans many chunks is kept as their list and joined
 * once its end comes: copied once, not once per chunk.
 */
export async function* readLineBatches(
  source: ByteSource,
  maxLineBytes = inputLimits().lineBytes,
): AsyncIterable<LineBatch> {
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let lineNo = 1;
  let first = true;
  for await (let chunk of source.chunks) {
    if (first && chunk.length > 0) {
      first = false;
      if (startsWithBom(chunk)) chunk = chunk.subarray(3);
    }
    const firstEnd = chunk.indexOf(0x0a);
    if (pendingBytes + (firstEnd < 0 ? chunk.length : firstEnd) > maxLineBytes)
      throw lineTooLong(source.name, { line: lineNo }, maxLineBytes);
    if (firstEnd < 0) {
      if (chunk.length > 0) pending.push(chunk);
      pendingBytes += chunk.length;
      continue;
    }
    const last = chunk.lastIndexOf(0x0a);
    const body =
      pending.length > 0 ? Buffer.concat([...pending, chunk.subarray(0, last)]) : chunk.subarray(0, last);
    const tail = chunk.subarray(last + 1);
    pending = tail.length > 0 ? [tail] : [];
    pendingBytes = tail.length;
    const lines = decodeOrThrow(source.name, body, lineNo).split("\n");
    // Lines within a chunk longer than the cap (a cap below the chunk size): each is checked.
    if (chunk.length > maxLineBytes) checkLineLengths(source.name, body, lineNo, maxLineBytes);
    stripCr(lines);
    yield { firstLine: lineNo, lines };
    lineNo += lines.length;
    if (pendingBytes > maxLineBytes) throw lineTooLong(source.name, { line: lineNo }, maxLineBytes);
  }
  if (pendingBytes > 0) {
    const lines = decodeOrThrow(source.name, Buffer.concat(pending), lineNo).split("\n");
    stripCr(lines);
    yield { firstLine: lineNo, lines };
  }
}

function checkLineLengths(name: string, body: Uint8Array, firstLine: number, max: number): void {
  let line = firstLine;
  let from = 0;
  for (let nl = body.indexOf(0x0a); ; nl = body.indexOf(0x0a, from)) {
    const end = nl < 0 ? body.length : nl;
    if (end - from > max) throw lineTooLong(name, { line }, max);
    if (nl < 0) return;
    line++;
    from = nl + 1;
  }
}

function stripCr(lines: string[]): void {
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.length > 0 && l.charCodeAt(l.length - 1) === 13) lines[i] = l.slice(0, -1);
  }
}

/**
 * Line lengths of the bytes read, in order: a line past the cap is {@link lineTooLong} at its
 * first byte's offset, as soon as the bytes read show it, before the rest of it is read. Lines
 * are not counted (a scan per line would cost the fast readers a fifth of their time): only lines
 * that span reads are measured, and every line of a read longer than the cap.
 */
class LineCapCheck {
  /** Offset of the current line's first byte. */
  private start = 0;
  /** Bytes seen. */
  private pos = 0;

  constructor(
    private readonly name: string,
    private readonly max: number,
  ) {}

  /** A leading BOM dropped before the bytes seen: offsets stay the file's. */
  skipped(n: number): void {
    this.start += n;
    this.pos += n;
  }

  see(bytes: Uint8Array): void {
    const firstEnd = bytes.indexOf(10);
    if (firstEnd < 0) {
      this.pos += bytes.length;
      this.check(this.pos);
      return;
    }
    this.check(this.pos + firstEnd);
    let from = firstEnd + 1;
    if (bytes.length > this.max)
      for (let nl = bytes.indexOf(10, from); nl >= 0; nl = bytes.indexOf(10, from)) {
        this.start = this.pos + from;
        this.check(this.pos + nl);
        from = nl + 1;
      }
    else from = bytes.lastIndexOf(10) + 1;
    this.start = this.pos + from;
    this.pos += bytes.length;
    this.check(this.pos);
  }

  /** `end`: the offset of the current line's end so far. */
  private check(end: number): void {
    if (end - this.start > this.max) throw lineTooLong(this.name, { offset: this.start }, this.max);
  }
}

/**
 * A file's bytes in units of whole lines of about `unitBytes` each (a line longer than that comes
 * whole, in a larger unit), every unit in an ArrayBuffer of its own so it can be transferred to a
 * worker thread; a leading UTF-8 BOM is dropped. A plain file is read straight into the units (no
 * copy between chunks and units); a compressed file is decompressed from the same open handle,
 * and stdin (`-`), split parts and a pipe or FIFO given by path (`<(zcat x.gz)`) go through
 * {@link openInput} (which replays what an earlier reader of a pipe took). A line longer than
 * `maxLineBytes` (the process's {@link inputLimits} by default) is an {@link InputError} at its
 * first byte, raised once that many bytes of it are read (it is never held whole).
 */
export async function* readLineUnits(
  path: string,
  unitBytes: number,
  maxLineBytes = inputLimits().lineBytes,
): AsyncIterable<Uint8Array> {
  // Only a regular file is opened here: opening a FIFO a second time would wait for a writer.
  const regular =
    path !== "-" &&
    (await stat(path).then(
      (s) => s.isFile(),
      () => false,
    ));
  const fh = regular ? await open(path).catch(() => undefined) : undefined;
  if (!fh) {
    const source = await openInput(path);
    yield* streamUnits(source.chunks, unitBytes, new LineCapCheck(source.name, maxLineBytes));
    return;
  }
  try {
    const check = new LineCapCheck(path, maxLineBytes);
    // Positioned reads on a plain file; a compressed one is read as a stream from the same handle.
    const head = new Uint8Array(3);
    const plain = sniffCompression(head.subarray(0, (await fh.read(head, 0, 3, 0)).bytesRead)) === "none";
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
  check: LineCapCheck,
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
        check.skipped(3);
        continue;
      }
    }
    if (!first || bytesRead === 0) {
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
  check: LineCapCheck,
): AsyncIterable<Uint8Array> {
  let parts: Uint8Array[] = [];
  let size = 0;
  let first = true;
  const cut = (final: boolean): Uint8Array => {
    const last = parts.pop();
    if (last === undefined) return new Uint8Array(0);
    const lastEnd = final ? last.length : last.lastIndexOf(10) + 1;
    const data = new Uint8Array(size - last.length + lastEnd);
    let at = 0;
    for (const p of parts) {
      data.set(p, at);
      at += p.length;
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
      if (startsWithBom(chunk)) {
        chunk = chunk.subarray(3);
        check.skipped(3);
      }
    }
    check.see(chunk);
    parts.push(chunk);
    size += chunk.length;
    if (size >= unitBytes && chunk.lastIndexOf(10) >= 0) yield cut(false);
  }
  if (size > 0) yield cut(true);
}

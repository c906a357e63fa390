// Strict UTF-8 line reading in batches, with 1-based line numbers for error messages.
import { InputError } from "./errors.js";
import type { ByteSource } from "./source.js";

/** Consecutive lines of a file: `lines[i]` is line `firstLine + i` (no `\n`, a trailing `\r` removed). */
export interface LineBatch {
  readonly firstLine: number;
  readonly lines: string[];
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

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
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
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

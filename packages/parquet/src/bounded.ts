// Page decompression with memory bounded by what the footer claims. A page header states its
// uncompressed size and the decompressors allocate it up front (hyparquet's snappy, gzip, brotli,
// lz4); fzstd ignores it and allocates what the zstd frame header says, then grows with the data.
// A lying header (a 4 GB page in a 1 KB file) must be refused before anything is allocated.
import type { Compressors } from "hyparquet";
import { compressors, decompressZstd } from "hyparquet-compressors";

/** Thrown for a page that claims more than its row group may hold (reader.ts names the file). */
export class PageTooLarge extends Error {
  constructor(
    readonly expected: string,
    readonly found: string,
  ) {
    super(`${expected}, found ${found}`);
  }
}

const MAX_BLOCK = 128 << 10;

/**
 * What fzstd allocates for `input`: `output`, an upper bound of the frames' content (a frame's
 * stated size, else its blocks' sizes: raw and RLE blocks give their size, a compressed one at most
 * a block's maximum), and `window`, the largest window of a frame without a stated size (a buffer
 * dropped after its frame). Undefined when the bytes are not zstd frames (fzstd then fails itself).
 */
function zstdAllocBound(input: Uint8Array): { output: number; window: number } | undefined {
  const v = new DataView(input.buffer, input.byteOffset, input.byteLength);
  let at = 0;
  let output = 0;
  let window = 0;
  while (at < input.length) {
    if (at + 8 > input.length) return undefined;
    const magic = v.getUint32(at, true);
    if ((magic & 0xfffffff0) === 0x184d2a50) {
      at += 8 + v.getUint32(at + 4, true); // a skippable frame
      continue;
    }
    if (magic !== 0xfd2fb528) return undefined;
    const fhd = v.getUint8(at + 4);
    at += 5;
    const single = (fhd & 0x20) !== 0;
    let ws = 0;
    if (!single) {
      const wd = v.getUint8(at++);
      const base = 2 ** (10 + (wd >> 3));
      ws = base + (base / 8) * (wd & 7);
    }
    at += (1 << (fhd & 3)) >> 1; // the dictionary id: 0, 1, 2 or 4 bytes
    const fcsBytes = fhd >> 6 === 0 ? (single ? 1 : 0) : 1 << (fhd >> 6); // 2, 4 or 8 bytes
    let fcs = 0;
    for (let i = fcsBytes - 1; i >= 0; i--) fcs = fcs * 256 + (input[at + i] ?? 0);
    if (fcsBytes === 2) fcs += 256;
    at += fcsBytes;
    let blocks = 0;
    for (let last = false; !last; ) {
      if (at + 3 > input.length) return undefined;
      const h = v.getUint8(at) | (v.getUint8(at + 1) << 8) | (v.getUint8(at + 2) << 16);
      at += 3;
      last = (h & 1) === 1;
      const type = (h >> 1) & 3;
      const size = h >>> 3;
      if (type === 3) return undefined;
      blocks += type === 2 ? MAX_BLOCK : size;
      at += type === 1 ? 1 : size;
    }
    if (fhd & 0x04) at += 4;
    if (fcs > 0) output += fcs;
    else {
      output += blocks;
      window = Math.max(window, ws);
    }
  }
  return { output, window };
}

/**
 * hyparquet's decompressors, each refusing a page that claims more than `cap` bytes (the row
 * group's claimed uncompressed size, itself within the input limit) before allocating it.
 */
export function boundedCompressors(cap: number): Compressors {
  const out: Compressors = {};
  const check = (n: number) => {
    if (n > cap) throw new PageTooLarge(`a page of at most ${cap} bytes uncompressed`, `one claiming ${n}`);
  };
  for (const [codec, inflate] of Object.entries(compressors) as [
    keyof Compressors,
    NonNullable<Compressors[keyof Compressors]>,
  ][])
    out[codec] = (input, n) => {
      check(n);
      return inflate(input, n);
    };
  out.ZSTD = (input, n) => {
    check(n);
    // The frames' content may exceed the page by a last block's slack (a compressed block's size
    // is known only once inflated); a window up to the page or zstd's default-level 8 MiB.
    const b = zstdAllocBound(input);
    if (b !== undefined && (b.output > n + MAX_BLOCK || b.window > Math.max(n, 8 << 20)))
      throw new PageTooLarge(
        `zstd frames of at most ${n} bytes`,
        `frames claiming ${Math.max(b.output, b.window)}`,
      );
    return decompressZstd(input);
  };
  return out;
}

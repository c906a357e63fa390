// Issue #39, item 3: one line and whole-input cap for every reader, lines linear in their length,
// bombs stopped at the cap; item 8: a FIFO or `<(...)` read once, its head replayed.
import { execFileSync } from "node:child_process";
import { createWriteStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { bytesConcatenated, tempDir } from "@convkit/test-helpers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_INPUT_LIMITS, setInputLimits } from "./limits.js";
import { readLineBatches, readText } from "./lines.js";
import { type ByteSource, openInput, openRaw, prefetch, readAll } from "./source.js";

const d = tempDir("limits-");

afterEach(() => setInputLimits(DEFAULT_INPUT_LIMITS));

/** `n` bytes of one line, in chunks of `chunk` bytes, then a newline. */
function oneLine(n: number, chunk: number): ByteSource {
  const piece = Buffer.alloc(chunk, 0x61);
  return {
    name: "mem",
    chunks: (async function* () {
      for (let left = n; left > 0; left -= chunk) yield left >= chunk ? piece : piece.subarray(0, left);
      yield Buffer.from("\n");
    })(),
  };
}

async function lineLengths(src: ByteSource, max?: number): Promise<number[]> {
  const out: number[] = [];
  for await (const b of readLineBatches(src, max)) for (const l of b.lines) out.push(l.length);
  return out;
}

/** A gzip bomb: `members` gzip members of 64 MiB of zeros each (64 KiB each on disk). */
function gzipBomb(path: string, members: number, head = Buffer.alloc(0)): void {
  const zeros = gzipSync(Buffer.alloc(64 << 20));
  writeFileSync(path, Buffer.concat([gzipSync(head), ...Array.from({ length: members }, () => zeros)]));
}

describe("readLineBatches", () => {
  it("is linear in a line's length: a line of n bytes in 64 KiB chunks is joined once (n bytes copied), not per chunk", async () => {
    // Joined once per chunk (before), a line of 64 MiB in 64 KiB chunks copied 32 GiB: quadratic.
    for (const n of [8 << 20, 32 << 20]) {
      const joined = await bytesConcatenated(async () => {
        expect(await lineLengths(oneLine(n, 1 << 16))).toEqual([n]);
      });
      expect(joined).toBe(n);
    }
  }, 60_000);

  it("a line past the cap is one InputError at its line, raised before the rest of it is read", async () => {
    await expect(lineLengths(oneLine(1000, 64), 999)).rejects.toThrow(
      "mem:1: expected a line of at most 999 bytes (raise with --max-line-bytes), found a longer one",
    );
    expect(await lineLengths(oneLine(1000, 64), 1000)).toEqual([1000]);
    // Lines inside one chunk are checked too, and numbered.
    const src: ByteSource = {
      name: "mem",
      chunks: (async function* () {
        yield Buffer.from(`ab\n${"x".repeat(50)}\ncd\n`);
      })(),
    };
    await expect(lineLengths(src, 10)).rejects.toThrow("mem:2: expected a line of at most 10 bytes");
  });

  it("a gzip bomb without newlines stops at the line cap (the default): memory stays near it", async () => {
    const f = join(d, "bomb.gz");
    gzipBomb(f, 160, Buffer.from("first line\n")); // 10 GiB of zeros after a line
    setInputLimits({ lineBytes: 32 << 20 });
    const before = process.memoryUsage().arrayBuffers;
    await expect(lineLengths(await openInput(f))).rejects.toThrow(
      `${f}:2: expected a line of at most 33,554,432 bytes (raise with --max-line-bytes), found a longer one`,
    );
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(200 << 20);
  }, 60_000);
});

describe("whole-input reads", () => {
  it("readAll and readText stop a bomb at the whole-input cap, with one line naming the option", async () => {
    const f = join(d, "bomb.json.gz");
    gzipBomb(f, 160);
    setInputLimits({ wholeBytes: 48 << 20 });
    const before = process.memoryUsage().arrayBuffers;
    await expect(readText(f)).rejects.toThrow(
      new RegExp(
        `^${f}: expected at most 50,331,648 bytes to hold whole, after decompression \\(raise with --max-input-bytes\\), found more \\([\\d,]+ bytes read\\)$`,
      ),
    );
    await expect(readAll(await openInput(f), 1000)).rejects.toThrow("expected at most 1,000 bytes");
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(200 << 20);
    // Up to the cap, all is read.
    writeFileSync(join(d, "ok.txt"), "x".repeat(1000));
    expect((await readAll(await openInput(join(d, "ok.txt")), 1000)).length).toBe(1000);
  }, 60_000);

  it("prefetch reads ahead a bounded amount, and stops when its reader stops", async () => {
    let pulled = 0;
    const endless: ByteSource = {
      name: "endless",
      chunks: (async function* () {
        for (;;) {
          pulled += 1 << 20;
          yield Buffer.alloc(1 << 20);
        }
      })(),
    };
    const src = prefetch(endless);
    await new Promise((r) => setTimeout(r, 300));
    // Unread: no more than the read-ahead (64 MiB), not as much as arrived in the time.
    expect(pulled).toBeLessThanOrEqual(66 << 20);
    for await (const _ of src.chunks) break;
    const after = pulled;
    await new Promise((r) => setTimeout(r, 100));
    expect(pulled - after).toBeLessThanOrEqual(1 << 20);
  });
});

describe("a FIFO or pipe given by path", () => {
  it("is read once: a second reader gets it from its first byte (the head the first one took replayed)", async () => {
    const f = join(d, "fifo");
    execFileSync("mkfifo", [f]);
    const text = Array.from({ length: 20_000 }, (_, i) => `${i} 0 doc${i} 1`).join("\n");
    createWriteStream(f).end(text);
    // The first reader (format detection) takes a head and stops.
    const first = openRaw(f).chunks[Symbol.asyncIterator]();
    const head = (await first.next()).value as Uint8Array;
    expect(head.length).toBeGreaterThan(0);
    await first.return?.();
    const again = await readAll(openRaw(f));
    expect(again.toString()).toBe(text);
  });
  it("a reader that stopped while still waiting for a chunk takes nothing from the next reader", async () => {
    // What a decompressor does when format detection stops it: its feeder had asked the stream for
    // more, and gets it after the next reader started (bzip2 on stdin: "Data integrity error").
    const f = join(d, "fifo-orphan");
    execFileSync("mkfifo", [f]);
    const head = "HEAD ".repeat(1000);
    const rest = Array.from({ length: 20_000 }, (_, i) => `${i} 0 doc${i} 1`).join("\n");
    const writer = createWriteStream(f);
    writer.write(head);
    const first = openRaw(f).chunks[Symbol.asyncIterator]();
    expect(Buffer.from((await first.next()).value as Uint8Array).toString()).toBe(head);
    const orphan = first.next(); // waits: nothing more is written yet
    const again = readAll(openRaw(f));
    writer.end(rest);
    expect((await again).toString()).toBe(head + rest);
    await orphan;
  });
});

describe("limits set on the main thread reach its workers", () => {
  it("a fresh instance of the module (what a worker thread loads, with the env it copied) has them", async () => {
    setInputLimits({ lineBytes: 5 << 20, wholeBytes: 7 << 20 });
    vi.resetModules();
    const fresh = await import("./limits.js");
    expect(fresh.inputLimits()).toEqual({ lineBytes: 5 << 20, wholeBytes: 7 << 20 });
    setInputLimits(DEFAULT_INPUT_LIMITS);
    vi.resetModules();
    expect((await import("./limits.js")).inputLimits()).toEqual(DEFAULT_INPUT_LIMITS);
  });
});

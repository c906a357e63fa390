import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { tempDir } from "@convkit/test-helpers";
import tar from "tar-stream";
import { describe, expect, it } from "vitest";
import { readLineBatches } from "./lines.js";
import { writeAtomic } from "./sink.js";
import { openInput, readAll } from "./source.js";
import { extractTar, openPayload } from "./tar.js";

async function tarball(
  entries: { name: string; body: string | Buffer; type?: "file" | "directory" }[],
): Promise<Buffer> {
  const pack = tar.pack();
  for (const e of entries)
    if (e.type === "directory") pack.entry({ name: e.name, type: "directory" });
    else pack.entry({ name: e.name }, e.body);
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const c of pack) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

describe("byte sources", () => {
  it("decompresses multi-member gzip by content, whatever the name", async () => {
    const d = tempDir();
    const f = join(d, "records.bin");
    writeFileSync(f, Buffer.concat([gzipSync("one\n"), gzipSync("two\n"), gzipSync("three\n")]));
    expect((await readAll(await openInput(f))).toString()).toBe("one\ntwo\nthree\n");
  });

  it("a reader that stops after the head of a large gzip file ends (the feeder does not wait for ever)", async () => {
    const d = tempDir();
    const f = join(d, "big.json.gz");
    // Inflated far past what the gunzip stream buffers: its writer has to wait for room.
    writeFileSync(f, gzipSync(Buffer.from(`${"0123456789abcdef".repeat(64)}\n`.repeat(16_000))));
    const readHead = (async () => {
      for await (const c of (await openInput(f)).chunks) return c.length;
      return 0;
    })();
    // No clock of its own: a feeder that waits for ever hangs this await, and the test's
    // generous timeout reports it (a busy machine only makes it slower, never fail).
    expect(await readHead).toBeGreaterThan(0);
  }, 120_000);

  it("reports a truncated gzip member with the file and byte offset", async () => {
    const d = tempDir();
    const f = join(d, "cut.gz");
    const whole = gzipSync("x".repeat(10000) + Math.random());
    writeFileSync(f, whole.subarray(0, whole.length - 12));
    await expect(readAll(await openInput(f))).rejects.toThrow(
      `${f}:byte ${whole.length - 12}: expected a complete gzip member, found end of file`,
    );
  });

  it("decompresses bzip2 through the system bzip2", async () => {
    const d = tempDir();
    const f = join(d, "a.txt");
    writeFileSync(f, "hello bzip2\n");
    execFileSync("bzip2", [f]);
    expect((await readAll(await openInput(`${f}.bz2`))).toString()).toBe("hello bzip2\n");
  });

  it("reads a tar.gz split in .aa/.ab parts as one payload without unpacking to disk", async () => {
    const d = tempDir();
    const tgz = gzipSync(await tarball([{ name: "x.pkl", body: "payload bytes" }]));
    const cut = Math.floor(tgz.length / 2);
    writeFileSync(join(d, "x.pkl.tar.gz.aa"), tgz.subarray(0, cut));
    writeFileSync(join(d, "x.pkl.tar.gz.ab"), tgz.subarray(cut));
    const src = await openPayload(join(d, "x.pkl.tar.gz"));
    expect((await readAll(src)).toString()).toBe("payload bytes");
    expect(readdirSync(d)).toEqual(["x.pkl.tar.gz.aa", "x.pkl.tar.gz.ab"]);
  });

  it("a payload read straight off the stream: long (prefixed) names, a member by name, a directory first, a cut archive", async () => {
    const d = tempDir();
    const body = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251));
    const long = `${"dir/".repeat(30)}x.pkl`; // over 100 bytes: split into ustar's prefix and name
    const f = join(d, "a.tar.gz");
    writeFileSync(
      f,
      gzipSync(
        await tarball([
          { name: long, body },
          { name: "b.txt", body: "second" },
        ]),
      ),
    );
    const first = await openPayload(f);
    expect(first.name).toBe(`${f}!${long}`);
    expect(Buffer.compare(await readAll(first), body)).toBe(0);
    expect((await readAll(await openPayload(f, "b.txt"))).toString()).toBe("second");
    const g = join(d, "dir-first.tar.gz");
    writeFileSync(
      g,
      gzipSync(
        await tarball([
          { name: "d/", body: "", type: "directory" },
          { name: "d/x.pkl", body },
        ]),
      ),
    );
    expect(Buffer.compare(await readAll(await openPayload(g)), body)).toBe(0);
    const tarBytes = await tarball([{ name: "x.pkl", body }]);
    const h = join(d, "cut.tar");
    writeFileSync(h, tarBytes.subarray(0, 512 + 1000));
    await expect(readAll(await openPayload(h))).rejects.toThrow(
      `${h}:byte 1512: expected the 300000 bytes of the archive's member, found end of file`,
    );
  });

  it("refuses a tar member whose path climbs out of the target, writing nothing", async () => {
    const d = tempDir();
    const target = join(d, "out");
    const f = join(d, "evil.tar.gz");
    writeFileSync(
      f,
      gzipSync(
        await tarball([
          { name: "ok.txt", body: "fine" },
          { name: "../escape.txt", body: "bad" },
        ]),
      ),
    );
    await expect(extractTar(f, target)).rejects.toThrow(
      'expected tar member paths inside the archive, found member "../escape.txt"',
    );
    expect(existsSync(join(d, "escape.txt"))).toBe(false);
  });

  it("writeAtomic leaves no file and no temp file when the writer fails", async () => {
    const d = tempDir();
    const target = join(d, "out.jsonl");
    await expect(
      writeAtomic(target, async (sink) => {
        await sink.write("partial\n".repeat(200000));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(readdirSync(d)).toEqual([]);
  });

  it("writeAtomic writes small and large parts (strings and bytes) in order, plain and gzipped", async () => {
    const d = tempDir();
    const parts: (string | Uint8Array)[] = [];
    for (let i = 0; i < 400; i++) {
      const big = i % 37 === 0;
      const text = `${i}:${"é".repeat(big ? 70_000 : i % 50)}\n`;
      parts.push(i % 2 ? text : Buffer.from(text));
    }
    const expected = Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : p)));
    for (const gzip of [false, true]) {
      const target = join(d, `parts-${gzip}.txt`);
      await writeAtomic(
        target,
        async (sink) => {
          for (const p of parts) await sink.write(p);
        },
        { gzip },
      );
      expect((await readAll(await openInput(target))).equals(expected)).toBe(true);
    }
  });

  it("a released part's bytes are out: overwriting it in release() changes nothing written", async () => {
    const d = tempDir();
    for (const gzip of [false, true]) {
      const target = join(d, `released-${gzip}.txt`);
      const expected: Buffer[] = [];
      let released = 0;
      let parts = 0;
      await writeAtomic(
        target,
        async (sink) => {
          for (let i = 0; i < 300; i++) {
            // Large parts are written as they are, small ones copied into a run.
            const part = Buffer.from(`${i}:${"x".repeat(i % 3 === 0 ? 100_000 : i % 40)}\n`);
            expected.push(Buffer.from(part));
            parts++;
            await sink.write(part, () => {
              released++;
              part.fill(0x21);
            });
          }
        },
        { gzip },
      );
      expect(released).toBe(parts);
      expect((await readAll(await openInput(target))).equals(Buffer.concat(expected))).toBe(true);
    }
  });

  it("splits lines across chunk boundaries and strips a BOM", async () => {
    async function* chunks() {
      yield Buffer.from([0xef, 0xbb, 0xbf, 0x61]);
      yield Buffer.from("b\nc");
      yield Buffer.from("d\n\ne");
    }
    const lines: string[] = [];
    for await (const b of readLineBatches({ name: "x", chunks: chunks() })) lines.push(...b.lines);
    expect(lines).toEqual(["ab", "cd", "", "e"]);
  });
});

import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createGzip, gzipSync } from "node:zlib";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { readLineUnits, readText } from "./lines.js";

async function units(path: string, minBytes: number, cap?: number): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const u of readLineUnits(path, minBytes, cap)) out.push(u);
  return out;
}

/** Lines of random lengths (some far longer than a unit), with `\r\n` and non-ASCII. */
function sampleText(seed: number, lines: number): string {
  let s = seed;
  const rnd = () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const len = rnd() < 0.05 ? 5000 + Math.floor(rnd() * 20000) : Math.floor(rnd() * 300);
    out.push(`${i}:${"é😀x".repeat(len / 3)}${rnd() < 0.2 ? "\r" : ""}`);
  }
  return out.join("\n");
}

describe("readLineUnits", () => {
  const d = tempDir();
  for (const trailingNewline of [true, false]) {
    it(`units are whole lines of about the unit size and give back the file${trailingNewline ? "" : " (no final newline)"}`, async () => {
      const text = sampleText(trailingNewline ? 3 : 4, 400) + (trailingNewline ? "\n" : "");
      const bytes = Buffer.from(text);
      const f = join(d, `plain-${trailingNewline}.jsonl`);
      writeFileSync(f, bytes);
      const got = await units(f, 4096);
      expect(Buffer.concat(got).equals(bytes)).toBe(true);
      for (const u of got.slice(0, -1)) expect(u[u.length - 1]).toBe(10);
      const lines = text.split("\n").map((l) => Buffer.byteLength(l) + 1);
      for (const u of got) {
        // Larger than a unit only when it holds a line that is.
        if (u.length > 4096)
          expect(
            Math.max(
              ...Buffer.from(u)
                .toString()
                .split("\n")
                .map((l) => Buffer.byteLength(l) + 1),
            ),
          ).toBeGreaterThan(4096 / 2);
      }
      // Units are full: the next unit's first line would not have fitted.
      for (let i = 0; i + 1 < got.length; i++) {
        const next = got[i + 1]!;
        const firstLine = next.indexOf(10) < 0 ? next.length : next.indexOf(10) + 1;
        expect(got[i]!.length + firstLine).toBeGreaterThan(4096);
      }
      // A line longer than a unit comes whole, in a grown unit.
      expect(Math.max(...lines)).toBeGreaterThan(8192);
      expect(Math.max(...got.map((u) => u.length))).toBeGreaterThan(8192);
    });
  }

  it("a gzip file gives the same bytes as the plain file; units are cut at line ends there too", async () => {
    // One line longer than gunzip's 1 MiB output chunks: a chunk without a line end.
    const bytes = Buffer.from(`${sampleText(5, 150)}\n${"y".repeat(3 << 20)}\n${sampleText(7, 150)}\n`);
    const f = join(d, "same.json.gz");
    writeFileSync(f, gzipSync(bytes));
    const got = await units(f, 4096);
    expect(Buffer.concat(got).equals(bytes)).toBe(true);
    for (const u of got.slice(0, -1)) expect(u[u.length - 1]).toBe(10);
  });

  it("every unit has an ArrayBuffer of its own (it can be transferred without taking another's bytes)", async () => {
    const f = join(d, "own.jsonl");
    writeFileSync(f, `${sampleText(6, 300)}\n`);
    const got = await units(f, 2048);
    const buffers = new Set(got.map((u) => u.buffer));
    expect(buffers.size).toBe(got.length);
    // Transferring one (as to a worker) leaves the others intact.
    const copies = got.map((u) => Buffer.from(u));
    structuredClone(got[0], { transfer: [got[0]!.buffer as ArrayBuffer] });
    for (let i = 1; i < got.length; i++) expect(Buffer.from(got[i]!).equals(copies[i]!)).toBe(true);
  });

  it("drops a UTF-8 BOM; an empty file gives no unit", async () => {
    const f = join(d, "bom.jsonl");
    writeFileSync(f, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("a\nb\n")]));
    expect(Buffer.concat(await units(f, 1)).toString()).toBe("a\nb\n");
    const g = join(d, "bom.jsonl.gz");
    writeFileSync(g, gzipSync(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("a\nb\n")])));
    expect(Buffer.concat(await units(g, 1)).toString()).toBe("a\nb\n");
    const e = join(d, "empty.jsonl");
    writeFileSync(e, "");
    expect(await units(e, 16)).toEqual([]);
  });

  it("with a cap, a longer line is an InputError at its first byte; lines up to the cap are read as without one", async () => {
    const lines = ["short", "x".repeat(100), "é".repeat(50), "y".repeat(101), "after"];
    for (const [name, write, bom] of [
      ["plain.jsonl", (b: Buffer) => b, 0],
      ["bom.jsonl", (b: Buffer) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]), 3],
      ["capped.jsonl.gz", (b: Buffer) => gzipSync(b), 0],
    ] as const) {
      const f = join(d, name);
      // Lines 1-3 are at most 100 bytes (the BOM and the `\n` aside); line 4 is 101, at byte 208.
      writeFileSync(f, write(Buffer.from(`${lines.slice(0, 3).join("\n")}\n`)));
      expect(Buffer.concat(await units(f, 16, 100)).toString(), name).toBe(
        `${lines.slice(0, 3).join("\n")}\n`,
      );
      writeFileSync(f, write(Buffer.from(lines.join("\n"))));
      for (const unit of [16, 4096])
        await expect(units(f, unit, 100), name).rejects.toThrow(
          `${f}:byte ${208 + bom}: expected a line of at most 100 bytes (raise with --max-line-bytes), found a longer one`,
        );
      // The last line, without a final newline, is checked too.
      writeFileSync(f, write(Buffer.from(`a\n${"z".repeat(101)}`)));
      await expect(units(f, 4096, 100), name).rejects.toThrow(`${f}:byte ${2 + bom}: expected`);
    }
  });

  it("with a cap, a line far longer than memory allows is refused once the cap is read (1 GiB, gzip members)", async () => {
    // 64 gzip members of 16 MiB of "a" each: one line of 1 GiB after a short one, 1 MiB on disk.
    const member = gzipSync(Buffer.alloc(16 << 20, 0x61));
    const f = join(d, "huge.jsonl.gz");
    writeFileSync(f, Buffer.concat([gzipSync("first\n"), ...Array.from({ length: 64 }, () => member)]));
    await expect(units(f, 1 << 19, 4 << 20)).rejects.toThrow(
      `${f}:byte 6: expected a line of at most 4,194,304 bytes (raise with --max-line-bytes), found a longer one`,
    );
  });

  it("a line over the cap stops the reading: what was read of a 1 GiB line is counted, not the heap", async () => {
    // From a pipe, gzip of letters without a line end (incompressible enough that the pipe's and
    // streams' buffers hold little of it): what the writer got to hand over when the reader
    // refused is what convkit read, whatever the engine's collector did.
    const f = join(d, "huge-line.gz");
    execFileSync("mkfifo", [f]);
    const block = Buffer.alloc(1 << 20);
    for (let i = 0, s = 1; i < block.length; i++) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      block[i] = 0x61 + ((s >>> 16) % 26);
    }
    const gz = createGzip();
    const out = createWriteStream(f);
    out.on("error", () => {});
    gz.pipe(out);
    let fed = 0;
    let stopped = false;
    const reading = units(f, 1 << 19, 4 << 20).finally(() => {
      stopped = true;
      gz.destroy();
    });
    gz.write("first\n");
    while (!stopped && fed < 1 << 30) {
      fed += block.length;
      if (!gz.write(block)) await Promise.race([once(gz, "drain"), reading.catch(() => {})]);
    }
    await expect(reading).rejects.toThrow(`${f}:byte 6: expected a line of at most 4,194,304 bytes`);
    // The cap (4 MiB) and the buffers between the two sides, not the gigabyte.
    expect(fed).toBeLessThan(32 << 20);
  });

  // `convkit segment sentences <(zcat x.jsonl.gz)`: the path is a pipe, which cannot seek.
  it("a FIFO given by path (as a shell's <(...) gives one) is read as a stream: plain or gzip, the same bytes", async () => {
    const bytes = Buffer.from(`${sampleText(8, 200)}\n`);
    for (const [name, content] of [
      ["fifo-plain", bytes],
      ["fifo-gzip", gzipSync(bytes)],
    ] as const) {
      const f = join(d, name);
      execFileSync("mkfifo", [f]);
      // The writer's open waits for the reader's (on libuv's threads, not the event loop).
      createWriteStream(f).end(content);
      const got = await units(f, 4096);
      expect(Buffer.concat(got).equals(bytes), name).toBe(true);
      for (const u of got.slice(0, -1)) expect(u[u.length - 1], name).toBe(10);
    }
  });

  it("a missing file is an InputError naming it", async () => {
    await expect(units(join(d, "nope.jsonl"), 16)).rejects.toThrow(/nope\.jsonl: expected an existing file/);
  });
});

describe("readText", () => {
  it("a whole file as text, plain or gzipped, without its BOM; invalid UTF-8 is an error at line and column", async () => {
    const dir = tempDir();
    const text = '{"a": "é😀"}\n{"b": 1}\n';
    writeFileSync(
      join(dir, "ok.json.gz"),
      gzipSync(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])),
    );
    expect(await readText(join(dir, "ok.json.gz"))).toBe(text);
    const bad = join(dir, "bad.json");
    writeFileSync(
      bad,
      Buffer.concat([Buffer.from('{"a": 1}\n{"b": "x'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]),
    );
    await expect(readText(bad)).rejects.toThrow(`${bad}:2:9: expected valid UTF-8, found byte 0xc3`);
  });
});

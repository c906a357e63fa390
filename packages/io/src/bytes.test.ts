import { describe, expect, it } from "vitest";
import { ByteBuilder } from "./bytes.js";

describe("ByteBuilder", () => {
  it("writes strings as the UTF-8 Buffer.from gives (non-ASCII, astral, a lone surrogate)", () => {
    const b = new ByteBuilder();
    const parts = ["plain", ' "quoted"\t', "é中", "\u{1F600}", "\uD800", "end\n"];
    for (const p of parts) b.string(p);
    expect(b.take().equals(Buffer.from(parts.join("")))).toBe(true);
  });

  it("grows past its first buffer; mixed bytes, strings and numbers stay in order", () => {
    const b = new ByteBuilder();
    const expected: Buffer[] = [];
    for (let i = 0; i < 3000; i++) {
      const s = `${"é".repeat(i % 700)}|`;
      b.string(s);
      b.uint(i * 7919);
      b.bytes(Uint8Array.of(10));
      expected.push(Buffer.from(`${s}${i * 7919}\n`));
    }
    const out = b.take();
    expect(out.length).toBeGreaterThan(1 << 20);
    expect(out.equals(Buffer.concat(expected))).toBe(true);
  });

  it("take() hands out a copy in an ArrayBuffer of its own, and resets", () => {
    const b = new ByteBuilder();
    b.string("abc");
    const first = b.take();
    expect(first.byteOffset).toBe(0);
    expect(first.buffer.byteLength).toBe(3);
    b.string("xy");
    expect(b.take().toString()).toBe("xy");
    expect(first.toString()).toBe("abc");
    expect(b.take().length).toBe(0);
  });

  it("handOver() gives its own buffer away (no copy) and goes on in the one handed back", () => {
    const b = new ByteBuilder();
    b.string("first");
    const first = b.handOver();
    expect(first.toString()).toBe("first");
    expect(first.byteOffset).toBe(0);
    // The caller owns it: writing on does not touch it.
    b.string("second");
    expect(first.toString()).toBe("first");
    const second = b.handOver(first.buffer as ArrayBuffer);
    expect(second.toString()).toBe("second");
    // The builder now writes into the returned buffer, from its start.
    b.string("third");
    const third = b.handOver();
    expect(third.buffer).toBe(first.buffer);
    expect(third.toString()).toBe("third");
    // A buffer too small to be worth keeping is not used.
    b.string("x");
    expect(b.handOver(new ArrayBuffer(8)).toString()).toBe("x");
    b.string("y");
    expect(b.handOver().buffer.byteLength).toBeGreaterThanOrEqual(1 << 20);
  });
});

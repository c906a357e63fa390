// The encoder's buffers are reused from row group to row group, but one grown by a huge value is let
// go at its reset: a 40 MB passage early in a file must not be held until the file ends.
import { expect, it } from "vitest";
import { Bytes, Growing } from "./bytes.js";

it("a buffer grown past 32 MiB is let go at reset; a smaller one is kept", () => {
  const b = new Bytes();
  b.str("x".repeat(1 << 20));
  const kept = b.buf;
  b.reset();
  expect(b.buf).toBe(kept);
  b.str("y".repeat(40 << 20));
  expect(b.buf.length).toBeGreaterThan(32 << 20);
  b.reset();
  expect(b.buf.length).toBe(1 << 16);
  expect(b.len).toBe(0);

  const g = new Growing((n) => new Uint32Array(n));
  for (let i = 0; i < 9 << 20; i++) g.push(i);
  expect(g.get(123_456)).toBe(123_456);
  g.reset();
  expect(g.a.length).toBe(1024);
});

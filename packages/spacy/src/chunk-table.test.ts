import { describe, expect, it } from "vitest";
import { ChunkTable, hashOf } from "./chunk-table.js";

describe("ChunkTable", () => {
  it("finds chunks in place by text, not by hash alone", () => {
    const t = new ChunkTable(8);
    const text = "the cat sat; the dog";
    t.set(text, 0, 3, 7, 1);
    // Same hash and length, other characters: a miss, then its own entry.
    expect(t.get(text, 4, 7, 7)).toBeUndefined();
    t.set(text, 4, 7, 7, Int32Array.of(2, 3));
    expect(t.get("xx the", 3, 6, 7)).toBe(1);
    expect(t.get(text, 4, 7, 7)).toEqual(Int32Array.of(2, 3));
    expect(t.get(text, 0, 2, 7)).toBeUndefined();
  });

  it("says when it is full and forgets everything on clear", () => {
    const t = new ChunkTable(3);
    const words = ["a", "bb", "ccc"];
    for (const [i, w] of words.entries()) {
      expect(t.full).toBe(false);
      t.set(w, 0, w.length, hashOf(w, 0, w.length), i);
    }
    expect(t.full).toBe(true);
    expect(t.get("xbb", 1, 3, hashOf("bb", 0, 2))).toBe(1);
    t.clear();
    expect(t.full).toBe(false);
    expect(t.get("bb", 0, 2, hashOf("bb", 0, 2))).toBeUndefined();
  });

  it("grows past its first buffers (long chunks, many entries)", () => {
    const t = new ChunkTable(5000);
    const long = "x".repeat(70_000);
    t.set(long, 0, long.length, hashOf(long, 0, long.length), 9);
    for (let i = 0; i < 4000; i++) t.set(`w${i}`, 0, `w${i}`.length, hashOf(`w${i}`, 0, `w${i}`.length), i);
    expect(t.get(long, 0, long.length, hashOf(long, 0, long.length))).toBe(9);
    expect(t.get("w3999", 0, 5, hashOf("w3999", 0, 5))).toBe(3999);
  });
});

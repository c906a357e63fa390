import { describe, expect, it } from "vitest";
import { ChunkTable, hashOf, MISS } from "./chunk-table.js";

/** The entries a code stands for in `t`. */
function tokens(t: ChunkTable, code: number): number[] {
  if (code >= 0) return [code];
  const o = -code - 2;
  return Array.from(t.lists.subarray(o + 1, o + 1 + t.lists[o]!));
}

describe("ChunkTable", () => {
  it("finds chunks in place by text, not by hash alone", () => {
    const t = new ChunkTable(8);
    const text = "the cat sat; the dog";
    t.set(text, 0, 3, 7, Int32Array.of(1), 0, 1);
    // Same hash and length, other characters: a miss, then its own entry.
    expect(t.get(text, 4, 7, 7)).toBe(MISS);
    t.set(text, 4, 7, 7, Int32Array.of(9, 2, 3, 9), 1, 3);
    expect(t.get("xx the", 3, 6, 7)).toBe(1);
    expect(tokens(t, t.get(text, 4, 7, 7))).toEqual([2, 3]);
    expect(t.get(text, 0, 2, 7)).toBe(MISS);
  });

  it("says when it is full and forgets everything on clear", () => {
    const t = new ChunkTable(3);
    const words = ["a", "bb", "ccc"];
    for (const [i, w] of words.entries()) {
      expect(t.full).toBe(false);
      t.set(w, 0, w.length, hashOf(w, 0, w.length), Int32Array.of(i, i + 10), 0, i === 2 ? 2 : 1);
    }
    expect(t.full).toBe(true);
    expect(t.get("xbb", 1, 3, hashOf("bb", 0, 2))).toBe(1);
    expect(tokens(t, t.get("ccc", 0, 3, hashOf("ccc", 0, 3)))).toEqual([2, 12]);
    t.clear();
    expect(t.full).toBe(false);
    expect(t.get("bb", 0, 2, hashOf("bb", 0, 2))).toBe(MISS);
  });

  it("grows past its first buffers (long chunks, many entries, long token lists)", () => {
    const t = new ChunkTable(5000);
    const long = "x".repeat(70_000);
    const many = Int32Array.from({ length: 20_000 }, (_, i) => i);
    t.set(long, 0, long.length, hashOf(long, 0, long.length), many, 0, many.length);
    for (let i = 0; i < 4000; i++)
      t.set(`w${i}`, 0, `w${i}`.length, hashOf(`w${i}`, 0, `w${i}`.length), many, i, i + 2);
    expect(tokens(t, t.get(long, 0, long.length, hashOf(long, 0, long.length)))).toEqual(Array.from(many));
    expect(tokens(t, t.get("w3999", 0, 5, hashOf("w3999", 0, 5)))).toEqual([3999, 4000]);
  });

  it("finds every entry again after growing", () => {
    const t = new ChunkTable(4);
    const words = Array.from({ length: 1000 }, (_, i) => `w${i}`);
    for (const [i, w] of words.entries()) {
      if (t.full) t.grow();
      t.set(w, 0, w.length, hashOf(w, 0, w.length), Int32Array.of(i), 0, 1);
    }
    expect(words.every((w, i) => t.get(w, 0, w.length, hashOf(w, 0, w.length)) === i)).toBe(true);
    expect(t.get("w1000", 0, 5, hashOf("w1000", 0, 5))).toBe(MISS);
  });
});

import { describe, expect, it } from "vitest";
import { ChunkTable, hashOf, MISS } from "./chunk-table.js";
import { unitsOf } from "./utf16.js";

/** The entries a code stands for in `t`. */
function tokens(t: ChunkTable, code: number): number[] {
  if (code >= 0) return [code];
  const o = -code - 2;
  return Array.from(t.lists.subarray(o + 1, o + 1 + t.lists[o]!));
}

/** A whole string's hash. */
const hash = (s: string) => hashOf(unitsOf(s), 0, s.length);

describe("ChunkTable", () => {
  it("finds chunks in place by their code units, not by hash alone", () => {
    const t = new ChunkTable(8);
    const text = unitsOf("the cat sat; the dog");
    t.set(text, 0, 3, 7, Int32Array.of(1), 0, 1);
    // Same hash and length, other characters: a miss, then its own entry.
    expect(t.get(text, 4, 7, 7)).toBe(MISS);
    t.set(text, 4, 7, 7, Int32Array.of(9, 2, 3, 9), 1, 3);
    expect(t.get(unitsOf("xx the"), 3, 6, 7)).toBe(1);
    expect(tokens(t, t.get(text, 4, 7, 7))).toEqual([2, 3]);
    expect(t.get(text, 0, 2, 7)).toBe(MISS);
  });

  it("tells chunks apart in every unit, those kept in the slot and those kept beside it", () => {
    // Lengths around the slot's inline room (8 units), each differing from the next in one unit.
    const words: string[] = [];
    for (let n = 1; n <= 12; n++)
      for (let k = 0; k < n; k++) {
        const u = Array.from({ length: n }, (_, i) => (i === k ? "é" : "a"));
        words.push(u.join(""));
      }
    const t = new ChunkTable(words.length);
    // One hash for all: only the units tell them apart.
    for (const [i, w] of words.entries()) t.set(unitsOf(w), 0, w.length, 5, Int32Array.of(i), 0, 1);
    expect(words.map((w) => t.get(unitsOf(w), 0, w.length, 5))).toEqual(words.map((_, i) => i));
    expect(t.get(unitsOf("a".repeat(9)), 0, 9, 5)).toBe(MISS);
  });

  it("says when it is full and forgets everything on clear", () => {
    const t = new ChunkTable(3);
    const words = ["a", "bb", "ccc"];
    for (const [i, w] of words.entries()) {
      expect(t.full).toBe(false);
      t.set(unitsOf(w), 0, w.length, hash(w), Int32Array.of(i, i + 10), 0, i === 2 ? 2 : 1);
    }
    expect(t.full).toBe(true);
    expect(t.get(unitsOf("xbb"), 1, 3, hash("bb"))).toBe(1);
    expect(tokens(t, t.get(unitsOf("ccc"), 0, 3, hash("ccc")))).toEqual([2, 12]);
    t.clear();
    expect(t.full).toBe(false);
    expect(t.get(unitsOf("bb"), 0, 2, hash("bb"))).toBe(MISS);
  });

  it("grows past its first buffers (long chunks, many entries, long token lists)", () => {
    const t = new ChunkTable(5000);
    const long = "x".repeat(70_000);
    const many = Int32Array.from({ length: 20_000 }, (_, i) => i);
    t.set(unitsOf(long), 0, long.length, hash(long), many, 0, many.length);
    for (let i = 0; i < 4000; i++)
      t.set(
        unitsOf(`w${i}-long-enough`),
        0,
        `w${i}-long-enough`.length,
        hash(`w${i}-long-enough`),
        many,
        i,
        i + 2,
      );
    expect(tokens(t, t.get(unitsOf(long), 0, long.length, hash(long)))).toEqual(Array.from(many));
    expect(tokens(t, t.get(unitsOf("w3999-long-enough"), 0, 17, hash("w3999-long-enough")))).toEqual([
      3999, 4000,
    ]);
  });

  it("finds every entry again after growing", () => {
    const t = new ChunkTable(4);
    const words = Array.from({ length: 1000 }, (_, i) => (i % 2 ? `w${i}` : `word number ${i}`));
    for (const [i, w] of words.entries()) {
      if (t.full) t.grow();
      t.set(unitsOf(w), 0, w.length, hash(w), Int32Array.of(i), 0, 1);
    }
    expect(words.every((w, i) => t.get(unitsOf(w), 0, w.length, hash(w)) === i)).toBe(true);
    expect(t.get(unitsOf("w1000"), 0, 5, hash("w1000"))).toBe(MISS);
  });
});

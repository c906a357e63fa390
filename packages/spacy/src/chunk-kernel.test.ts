// The tokenizer's WebAssembly tables (wasm/chunks.ts) against plain JavaScript: a Map of strings for
// what a table holds, FNV-1a over code units for the hash. Seeded, no ../shared. The chunk cache's
// generations, rotation and special cases are checked through the whole tokenizer against the
// cache-free reference (tokenizer.diff.test.ts).
import { isPySpace } from "@convkit/pycompat";
import { rng } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { ChunkKernel, MISS, T_LEXICON } from "./chunk-kernel.js";
import * as K from "./chunks-wasm.js";

/** FNV-1a over a string's UTF-16 code units, written out plainly. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

const UNITS = ["a", "b", "é", "中", "😀", " ", "\u0000", "ÿ", "Ā"];

function randomString(next: () => number, max: number): string {
  const n = Math.floor(next() * (max + 1));
  let s = "";
  while (s.length < n) s += UNITS[Math.floor(next() * UNITS.length)]!;
  return s;
}

describe("the tokenizer's kernel tables", () => {
  it("hash a range of the text as FNV-1a over its code units, pieces included", () => {
    const next = rng(51);
    const kernel = new ChunkKernel(64);
    for (let i = 0; i < 300; i++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 12) }, () => randomString(next, 12)).join(
        next() < 0.5 ? " " : "\u00a0 ",
      );
      kernel.loadText(text);
      kernel.fn.scan(text.length, 0);
      const piece = new Int32Array(3);
      for (let k = 0; k < kernel.pieces; k++) {
        kernel.piece(k, piece);
        const b = piece[1]! < 0 ? ~piece[1]! : piece[1]!;
        expect(piece[2]).toBe(fnv1a(text.slice(piece[0], b)));
        expect(kernel.fn.hashOf(kernel.textAt, piece[0]!, b)).toBe(piece[2]);
      }
    }
  });

  it("split text where @convkit/io's isPySpace (Python's str.isspace) does, on every code unit", () => {
    const kernel = new ChunkKernel(64);
    const differ: number[] = [];
    for (let c = 0; c < 0x10000; c++) {
      kernel.loadText(`a${String.fromCharCode(c)}b`);
      kernel.fn.scan(3, 0);
      if (kernel.pieces > 1 !== isPySpace(c)) differ.push(c);
    }
    expect(differ).toEqual([]);
  });

  it("find what a Map finds, through growth, for keys held in the slot and beside it", () => {
    const next = rng(52);
    const kernel = new ChunkKernel(16, 4);
    const fn = kernel.fn;
    const want = new Map<string, number>();
    const lookup = (s: string) => {
      const at = kernel.loadScratch(s);
      return fn.get(T_LEXICON, at, 0, s.length, fn.hashOf(at, 0, s.length));
    };
    for (let i = 0; i < 5000; i++) {
      const s = randomString(next, next() < 0.1 ? 40 : 10);
      if (want.has(s)) continue;
      expect(lookup(s)).toBe(MISS);
      const at = kernel.loadScratch(s);
      const h = fn.hashOf(at, 0, s.length);
      expect(fn.intern(T_LEXICON, at, 0, s.length, h, want.size)).toBe(want.size);
      // Asked again with another code: the one it holds.
      expect(fn.intern(T_LEXICON, at, 0, s.length, h, -7)).toBe(want.size);
      want.set(s, want.size);
    }
    expect(fn.sizeOf(T_LEXICON)).toBe(want.size);
    const bad = [...want].filter(([s, id]) => lookup(s) !== id);
    expect(bad).toEqual([]);
  });

  it("tell apart keys of one hash and length that differ in any one unit", () => {
    const kernel = new ChunkKernel(16, 4);
    const fn = kernel.fn;
    // Every length around the 4-unit reads and the 8 units a slot holds, one unit changed at each place.
    const keys: string[] = [];
    for (let n = 1; n <= 13; n++) {
      keys.push("a".repeat(n));
      for (let k = 0; k < n; k++) keys.push(`${"a".repeat(k)}b${"a".repeat(n - k - 1)}`);
    }
    for (const [i, s] of keys.entries()) fn.intern(T_LEXICON, kernel.loadScratch(s), 0, s.length, 7, i);
    const found = keys.map((s) => fn.get(T_LEXICON, kernel.loadScratch(s), 0, s.length, 7));
    expect(found).toEqual(keys.map((_, i) => i));
    expect(fn.get(T_LEXICON, kernel.loadScratch("c"), 0, 1, 7)).toBe(MISS);
  });

  it("forget everything on clear and start filling again", () => {
    const kernel = new ChunkKernel(16, 4);
    const fn = kernel.fn;
    const put = (s: string, id: number) =>
      fn.intern(T_LEXICON, kernel.loadScratch(s), 0, s.length, fnv1a(s), id);
    const get = (s: string) => fn.get(T_LEXICON, kernel.loadScratch(s), 0, s.length, fnv1a(s));
    for (let i = 0; i < 100; i++) put(`word ${i}`, i);
    fn.clearTable(T_LEXICON);
    expect(fn.sizeOf(T_LEXICON)).toBe(0);
    expect(get("word 5")).toBe(MISS);
    put("word 5", 1);
    expect(get("word 5")).toBe(1);
    expect(K.T_LEXICON).toBe(T_LEXICON);
  });
});

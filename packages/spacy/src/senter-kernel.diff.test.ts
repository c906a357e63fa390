// Differential tests of the senter's WebAssembly kernel (wasm/senter.ts) against the plain
// JavaScript path (senter.ts, float64, the hashes of hashing.ts/symbols.ts): seeded random weights
// of the kernel's architecture, random lexicons (ASCII, accents, CJK, emoji, symbol names, special
// norms, a lexeme-norm table), random token sequences. No ../shared. Every S − I margin of every
// token must agree within MARGIN_BOUND, and every decision whose margin is beyond it.
import { rng } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { hashKey, type MaxoutNorm, type SenterWeights } from "./folder.js";
import { hashString } from "./hashing.js";
import { Lexicon } from "./lexicon.js";
import { Senter } from "./senter.js";
import { SenterKernel } from "./senter-kernel.js";
import { stringId } from "./symbols.js";
import type { TokenizedText } from "./tokenizer.js";

/**
 * How far the kernel's float32 margin may be from the plain path's float64 one. Each float32
 * operation rounds by at most 2⁻²⁴ relative; the deepest chain (the mix as 20 projected rows, layer
 * norm, 16-term shares, 3 adds, layer norm, 48-term layer, layer norm, 16-term score) with these
 * weights (|w| ≤ 1, norms of unit variance) stays under 1e-4 with margin to spare: the errors seen
 * are under 1e-5.
 */
const MARGIN_BOUND = 1e-4;

function randomLayer(next: () => number, nO: number, nP: number, nI: number): MaxoutNorm {
  const f = (n: number, scale = 1) => Float32Array.from({ length: n }, () => (next() * 2 - 1) * scale);
  return { nO, nP, nI, W: f(nO * nP * nI), b: f(nO * nP, 0.5), G: f(nO, 1.5), beta: f(nO, 0.5) };
}

function randomWeights(seed: number, depth = 2): SenterWeights {
  const next = rng(seed);
  const width = 16;
  const attrs = ["NORM", "PREFIX", "SUFFIX", "SHAPE", "SPACY"] as const;
  return {
    width,
    embeddings: attrs.map((attr, i) => {
      const rows = [997, 500, 513, 301, 50][i]!;
      return {
        attr,
        seed: Math.floor(next() * 2 ** 32),
        rows,
        E: Float32Array.from({ length: rows * width }, () => next() * 2 - 1),
      };
    }),
    mix: randomLayer(next, width, 3, 5 * width),
    window: 1,
    encoder: Array.from({ length: depth }, () => randomLayer(next, width, 2, 3 * width)),
    outW: Float32Array.from({ length: 2 * width }, () => next() * 2 - 1),
    outB: Float32Array.from({ length: 2 }, () => next() - 0.5),
    labels: ["I", "S"],
  };
}

const PIECES = [
  "a",
  "Z",
  "é",
  "İ",
  "ß",
  "ﬁ",
  "中",
  "文",
  "😀",
  "👍🏽",
  "1",
  "٣",
  "²",
  ".",
  "'",
  "’",
  "-",
  "$",
  "€",
  " ",
  "\u00a0",
];
/** Strings spaCy gives a fixed id (symbols) or that the base norms change. */
const SPECIAL = ["X", "x", "xx", "d", "prep", "det", "_", "'s", "’", "—", "--", "US$", "…", "''", "DATE"];

function randomString(next: () => number): string {
  if (next() < 0.1) return SPECIAL[Math.floor(next() * SPECIAL.length)]!;
  const n = 1 + Math.floor(next() * (next() < 0.05 ? 120 : 9));
  let s = "";
  for (let i = 0; i < n; i++)
    s += PIECES[Math.floor(next() * (i === 0 ? PIECES.length - 2 : PIECES.length))]!;
  return s;
}

/** A lexicon of random entries (some with a special case's norm) and a lexeme-norm table over some of them. */
function randomLexicon(next: () => number, size: number): { lexicon: Lexicon; norms: Map<string, string> } {
  const lexicon = new Lexicon();
  const norms = new Map<string, string>();
  while (lexicon.size < size) {
    const orth = randomString(next);
    if (next() < 0.05) lexicon.getSpecial({ orth, norm: randomString(next) });
    else lexicon.get(orth);
    if (next() < 0.1) norms.set(hashKey(stringId(orth)), next() < 0.5 ? "det" : randomString(next));
  }
  return { lexicon, norms };
}

function randomTokens(next: () => number, lexicon: Lexicon, n: number): TokenizedText {
  const lex = Int32Array.from({ length: n }, () => Math.floor(next() * lexicon.size));
  const spacy = Uint8Array.from({ length: n }, () => (next() < 0.7 ? 1 : 0));
  return { length: n, lex, spacy, start: new Int32Array(n) };
}

describe("the senter kernel against the plain path", () => {
  it("gives spaCy's string ids (MurmurHash64A, seed 1; symbols) on random strings", () => {
    const next = rng(11);
    const kernel = SenterKernel.for(randomWeights(1), [])!;
    expect(kernel).toBeDefined();
    const strings = [...SPECIAL, "", "a".repeat(7), "a".repeat(8), "a".repeat(9), "ab😀".repeat(40)];
    for (let i = 0; i < 3000; i++) strings.push(randomString(next));
    const bad = strings.filter((s) => JSON.stringify(kernel.stringId(s)) !== JSON.stringify(stringId(s)));
    expect(bad).toEqual([]);
    // A symbol's id is its small number, not its hash.
    expect(kernel.stringId("X")).toEqual({ hi: 0, lo: 101 });
    expect(kernel.stringId("garden")).toEqual(hashString("garden"));
  });

  for (const [seed, depth] of [
    [21, 2],
    [22, 2],
    [23, 1],
    [24, 4],
  ] as const)
    it(`every token's S − I within ${MARGIN_BOUND} on random weights, lexicons and texts (seed ${seed}, depth ${depth})`, () => {
      const next = rng(seed);
      const w = randomWeights(seed, depth);
      const { lexicon, norms } = randomLexicon(next, 3000);
      const fast = new Senter(w, lexicon, norms, { blockTokens: 50 });
      const plain = new Senter(w, lexicon, norms, { simd: false });
      let worst = 0;
      let tokens = 0;
      let flipped = 0;
      for (let text = 0; text < 100; text++) {
        const t = randomTokens(next, lexicon, 1 + Math.floor(next() * (text % 10 === 0 ? 400 : 40)));
        const a = fast.margins(t);
        const b = plain.margins(t);
        const da = fast.predict(t);
        const db = plain.predict(t);
        for (let i = 0; i < t.length; i++) {
          worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
          if (da[i] !== db[i] && Math.abs(b[i]!) > MARGIN_BOUND) flipped++;
        }
        tokens += t.length;
      }
      expect(tokens).toBeGreaterThan(3000);
      expect(worst).toBeLessThan(MARGIN_BOUND);
      expect(flipped).toBe(0);
    });

  it("holds each embedding table projected through the mixing layer: float64 sums in input order, rounded once", () => {
    const w = randomWeights(41);
    const kernel = SenterKernel.for(w, [])!;
    const { nO, nP, nI, W } = w.mix;
    const bad: string[] = [];
    w.embeddings.forEach((e, t) => {
      for (let r = 0; r < e.rows; r += 7) {
        const got = kernel.projectedRow(t, r);
        for (let row = 0; row < nO * nP; row++) {
          let sum = 0;
          for (let i = 0; i < w.width; i++) sum += W[row * nI + t * w.width + i]! * e.E[r * w.width + i]!;
          // thinc's row (output k, piece p) is the kernel's piece-major p·nO + k.
          const pm = (row % nP) * nO + Math.floor(row / nP);
          if (got[pm] !== Math.fround(sum))
            bad.push(`table ${t} row ${r} sum ${row}: ${got[pm]} ≠ ${Math.fround(sum)}`);
        }
      }
    });
    expect(bad).toEqual([]);
  });

  it("keeps records and decisions through clear() (slots reused, no stale record read)", () => {
    const next = rng(31);
    const w = randomWeights(31);
    const { lexicon, norms } = randomLexicon(next, 500);
    const fast = new Senter(w, lexicon, norms);
    const plain = new Senter(w, lexicon, norms, { simd: false });
    const texts = Array.from({ length: 20 }, () => randomTokens(next, lexicon, 80));
    const before = texts.map((t) => Array.from(fast.margins(t)));
    fast.clear();
    // Other entries first, so that the texts' entries get other slots than before.
    fast.margins(randomTokens(next, lexicon, 300));
    const after = texts.map((t) => Array.from(fast.margins(t)));
    expect(after).toEqual(before);
    for (const t of texts) expect(Array.from(fast.predict(t))).toEqual(Array.from(plain.predict(t)));
  });

  it("keeps decisions through makeRoom() (the first slots kept in place, the rest reused)", () => {
    const next = rng(32);
    const w = randomWeights(32);
    const { lexicon, norms } = randomLexicon(next, 12_000);
    const fast = new Senter(w, lexicon, norms);
    const plain = new Senter(w, lexicon, norms, { simd: false });
    // Past the kept slots, so that makeRoom both keeps and forgets entries.
    const texts = Array.from({ length: 40 }, () => randomTokens(next, lexicon, 600));
    const before = texts.map((t) => Array.from(fast.margins(t)));
    expect(fast.cachedEntries).toBeGreaterThan(10_000);
    fast.makeRoom();
    expect(fast.cachedEntries).toBe(8192);
    fast.margins(randomTokens(next, lexicon, 3000));
    const after = [...texts]
      .reverse()
      .map((t) => Array.from(fast.margins(t)))
      .reverse();
    expect(after).toEqual(before);
    for (const t of texts.slice(0, 5))
      expect(Array.from(fast.predict(t))).toEqual(Array.from(plain.predict(t)));
  });

  it("the kernel's shapes: another architecture gets no kernel (the plain path runs it)", () => {
    const w = randomWeights(41);
    expect(SenterKernel.for({ ...w, window: 2 }, [])).toBeUndefined();
    expect(
      SenterKernel.for({ ...w, encoder: [...w.encoder, ...w.encoder, ...w.encoder] }, []),
    ).toBeUndefined();
  });
});

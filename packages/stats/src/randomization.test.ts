// The randomization test: exact enumeration against a brute-force count, and seeded draws that do not depend on order or thread.
import { describe, expect, it } from "vitest";
import { randomizationTest, Xoshiro128 } from "./randomization.js";

/** Every sign vector, recursively, with its sum left to right: an independent count. */
function bruteForce(d: number[], alternative: "two-sided" | "greater" | "less"): number {
  const obs = d.reduce((s, x) => s + x, 0);
  const tol = 1e-10 * d.reduce((s, x) => s + Math.abs(x), 0);
  let count = 0;
  const signs: number[] = [];
  const walk = (i: number) => {
    if (i === d.length) {
      const s = d.reduce((acc, x, k) => acc + (signs[k]! > 0 ? x : -x), 0);
      const hit =
        alternative === "greater"
          ? s >= obs - tol
          : alternative === "less"
            ? s <= obs + tol
            : Math.abs(s) >= Math.abs(obs) - tol;
      if (hit) count++;
      return;
    }
    for (const sg of [1, -1]) {
      signs[i] = sg;
      walk(i + 1);
    }
  };
  walk(0);
  return count;
}

describe("randomizationTest", () => {
  it("enumerates all 2^n sign patterns up to 20 pairs: p = count / 2^n, as a brute-force count", () => {
    const rng = new Xoshiro128(7);
    for (const n of [1, 2, 5, 8, 11]) {
      // Graded-looking differences with ties and zeros.
      const d = Array.from({ length: n }, () => ((rng.next() % 9) - 4) / 4);
      for (const alt of ["two-sided", "greater", "less"] as const) {
        const r = randomizationTest(Float64Array.from(d), { alternative: alt });
        expect(r.exact).toBe(true);
        expect(r.tried).toBe(2 ** n);
        expect(r.p * 2 ** n, `n=${n} ${alt} ${d}`).toBe(bruteForce(d, alt));
      }
    }
  });

  it("draws: the same seed and key give the same p whatever ran before; p = (count + 1) / (B + 1)", () => {
    const rng = new Xoshiro128(3);
    const d = Float64Array.from({ length: 60 }, () => (rng.next() / 2 ** 32 - 0.45) * 0.3);
    const other = Float64Array.from({ length: 40 }, (_, i) => (i % 3) - 1);
    const o = { permutations: 2000, seed: 11, key: "ndcg\trunA\trunB" };
    const first = randomizationTest(d, o);
    randomizationTest(other, { ...o, key: "other" });
    const again = randomizationTest(d, o);
    expect(again.p).toBe(first.p);
    expect(first.exact).toBe(false);
    const count = first.p * 2001 - 1;
    expect(Math.abs(count - Math.round(count))).toBeLessThan(1e-9);
    // A different seed or key is another stream.
    const seeds = new Set([11, 12, 13, 14, 15].map((seed) => randomizationTest(d, { ...o, seed }).p));
    expect(seeds.size).toBeGreaterThan(1);
  });

  it("a clear difference is significant and none is not", () => {
    const better = Float64Array.from({ length: 50 }, (_, i) => 0.05 + (i % 5) * 0.01);
    expect(randomizationTest(better, { permutations: 999 }).p).toBe(1 / 1000);
    const none = Float64Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? 0.1 : -0.1));
    expect(randomizationTest(none, { permutations: 999 }).p).toBe(1);
  });
});

// The paired randomization (sign-flip permutation) test: seeded and reproducible, or exact by enumerating every sign pattern.
import type { Alternative } from "./paired.js";

/** Up to this many pairs every one of the 2^n sign patterns is tried (a million at 20). */
export const EXACT_MAX_PAIRS = 20;

export interface RandomizationOptions {
  /** Sign patterns drawn when n > EXACT_MAX_PAIRS (default 10,000). */
  permutations?: number;
  seed?: number;
  /**
   * Names the test (e.g. measure, run A, run B): its draws come from a stream of their own,
   * derived from seed and key, so a test's p does not depend on which others run, in what
   * order, or on how many threads.
   */
  key?: string;
  alternative?: Alternative;
}

export interface RandomizationResult {
  /** The observed mean difference. */
  statistic: number;
  p: number;
  /** Sign patterns tried: 2^n when exact. */
  tried: number;
  exact: boolean;
}

/** FNV-1a of a string's UTF-16 units: a 32-bit stream id. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** xoshiro128** (Blackman and Vigna), seeded through splitmix32 from (seed, stream). */
export class Xoshiro128 {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number, stream = 0) {
    let x = (seed ^ Math.imul(stream, 0x9e3779b9)) >>> 0;
    const next = () => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }
  /** The next 32 random bits, as an unsigned int. */
  next(): number {
    const r = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return r;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** Whether a sign pattern's sum counts against the observed one (ties within float noise count). */
function counter(observed: number, tolerance: number, alternative: Alternative): (s: number) => boolean {
  if (alternative === "greater") return (s) => s >= observed - tolerance;
  if (alternative === "less") return (s) => s <= observed + tolerance;
  const o = Math.abs(observed) - tolerance;
  return (s) => Math.abs(s) >= o;
}

/**
 * Subset sums of the differences, eight at a time: `sums[g * 256 + m]` is the sum of d[8g + k]
 * over the bits k of m. A sign pattern's flipped sum is then one lookup per eight pairs, with no
 * branch on random bits (which the CPU cannot predict).
 */
function subsetSums(d: Float64Array): Float64Array {
  const groups = Math.ceil(d.length / 8);
  const sums = new Float64Array(groups * 256);
  for (let g = 0; g < groups; g++) {
    const base = g * 256;
    for (let m = 1; m < 256; m++) {
      const k = 31 - Math.clz32(m & -m);
      const i = 8 * g + k;
      sums[base + m] = sums[base + (m & (m - 1))]! + (i < d.length ? d[i]! : 0);
    }
  }
  return sums;
}

/**
 * The paired randomization test of differences `d`: under the null each difference's sign is a
 * coin flip. With n <= {@link EXACT_MAX_PAIRS}, all 2^n patterns are counted and p = count / 2^n;
 * otherwise `permutations` patterns are drawn and p = (count + 1) / (permutations + 1). A pattern's
 * sum is Σd - 2 Σ(flipped d); it counts when it is at least the observed Σd (two-sided: in absolute
 * value), up to a tolerance of 1e-10 of Σ|d| so that sums equal but for float rounding tie.
 */
export function randomizationTest(d: Float64Array, o: RandomizationOptions = {}): RandomizationResult {
  const n = d.length;
  const alternative = o.alternative ?? "two-sided";
  let observed = 0;
  let sumAbs = 0;
  for (const x of d) {
    observed += x;
    sumAbs += Math.abs(x);
  }
  if (n === 0) return { statistic: Number.NaN, p: Number.NaN, tried: 0, exact: true };
  const counts = counter(observed, 1e-10 * sumAbs, alternative);
  const sums = subsetSums(d);
  const groups = sums.length / 256;
  let count = 0;
  if (n <= EXACT_MAX_PAIRS) {
    const patterns = 2 ** n;
    for (let mask = 0; mask < patterns; mask++) {
      let flipped = 0;
      for (let g = 0; g < groups; g++) flipped += sums[g * 256 + ((mask >>> (8 * g)) & 255)]!;
      if (counts(observed - 2 * flipped)) count++;
    }
    return { statistic: observed / n, p: count / patterns, tried: patterns, exact: true };
  }
  const b = o.permutations ?? 10_000;
  const rng = new Xoshiro128(o.seed ?? 1, hash32(o.key ?? ""));
  for (let k = 0; k < b; k++) {
    let flipped = 0;
    for (let g = 0; g < groups; g += 4) {
      const bits = rng.next();
      flipped += sums[g * 256 + (bits & 255)]!;
      if (g + 1 < groups) flipped += sums[(g + 1) * 256 + ((bits >>> 8) & 255)]!;
      if (g + 2 < groups) flipped += sums[(g + 2) * 256 + ((bits >>> 16) & 255)]!;
      if (g + 3 < groups) flipped += sums[(g + 3) * 256 + (bits >>> 24)]!;
    }
    if (counts(observed - 2 * flipped)) count++;
  }
  return { statistic: observed / n, p: (count + 1) / (b + 1), tried: b, exact: false };
}

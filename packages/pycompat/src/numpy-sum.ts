// numpy's float64 reductions bit for bit: np.sum's pairwise summation, and the mean, var and std built on it.

/** numpy's unrolled block size: up to this many elements are summed with eight accumulators. */
const BLOCK = 128;

function pairwise(v: ArrayLike<number>, from: number, n: number): number {
  if (n < 8) {
    let s = 0;
    for (let i = 0; i < n; i++) s += v[from + i]!;
    // -0.0 + 0.0: numpy's running sum starts at 0., as here; an empty sum is 0.
    return s;
  }
  if (n <= BLOCK) {
    let r0 = v[from]!;
    let r1 = v[from + 1]!;
    let r2 = v[from + 2]!;
    let r3 = v[from + 3]!;
    let r4 = v[from + 4]!;
    let r5 = v[from + 5]!;
    let r6 = v[from + 6]!;
    let r7 = v[from + 7]!;
    let i = 8;
    for (; i < n - (n % 8); i += 8) {
      r0 += v[from + i]!;
      r1 += v[from + i + 1]!;
      r2 += v[from + i + 2]!;
      r3 += v[from + i + 3]!;
      r4 += v[from + i + 4]!;
      r5 += v[from + i + 5]!;
      r6 += v[from + i + 6]!;
      r7 += v[from + i + 7]!;
    }
    let s = r0 + r1 + (r2 + r3) + (r4 + r5 + (r6 + r7));
    for (; i < n; i++) s += v[from + i]!;
    return s;
  }
  let n2 = Math.floor(n / 2);
  n2 -= n2 % 8;
  return pairwise(v, from, n2) + pairwise(v, from + n2, n - n2);
}

/**
 * `np.sum` of a float64 array, as numpy adds it: pairwise (blocks of up to 128 elements summed
 * with eight accumulators), starting from 0. Why: a plain left-to-right sum differs from numpy's
 * in the last bits, and means, variances and the t statistic built on it then differ too.
 */
export function numpySum(v: ArrayLike<number>): number {
  return 0 + pairwise(v, 0, v.length);
}

/** `np.mean`: numpy's sum divided by the count (NaN for an empty array). */
export function numpyMean(v: ArrayLike<number>): number {
  return numpySum(v) / v.length;
}

/** `np.var(v, ddof=ddof)`: the sum of squared deviations from numpy's mean, divided by n - ddof. */
export function numpyVar(v: ArrayLike<number>, ddof = 0): number {
  const mean = numpyMean(v);
  const sq = Float64Array.from(v, (y) => {
    const x = y - mean;
    return x * x;
  });
  return numpySum(sq) / (v.length - ddof);
}

/** `np.std(v, ddof=ddof)`. */
export function numpyStd(v: ArrayLike<number>, ddof = 0): number {
  return Math.sqrt(numpyVar(v, ddof));
}

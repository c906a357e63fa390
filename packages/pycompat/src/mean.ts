// Python's statistics.mean: the exact rational mean of floats, rounded once to the nearest double.

const view = new DataView(new ArrayBuffer(8));

/** A finite double as mantissa * 2^exponent with an integer mantissa. */
function toRational(x: number): { m: bigint; e: number } {
  if (x === 0) return { m: 0n, e: 0 };
  const buf = view;
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const sign = hi >>> 31 ? -1n : 1n;
  const exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (exp === 0) e = -1074;
  else {
    mant |= 1n << 52n;
    e = exp - 1075;
  }
  return { m: sign * mant, e };
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** num/den (den > 0) correctly rounded to the nearest double, ties to even (as Python's int / int). */
export function ratioToDouble(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const neg = num < 0n;
  const n = neg ? -num : num;
  // Exponent of the leading bit of n/den: floor(log2(n/den)).
  let top = bitLength(n) - bitLength(den);
  if ((top >= 0 ? n >= den << BigInt(top) : n << BigInt(-top) >= den) === false) top--;
  // Keep 53 significant bits, or fewer when the result is subnormal (ulp never below 2^-1074).
  const ulp = Math.max(top - 52, -1074);
  const N = ulp <= 0 ? n << BigInt(-ulp) : n;
  const D = ulp <= 0 ? den : den << BigInt(ulp);
  let q = N / D;
  const r2 = (N - q * D) * 2n;
  if (r2 > D || (r2 === D && (q & 1n) === 1n)) q += 1n;
  const v = Number(q) * 2 ** ulp;
  return neg ? -v : v;
}

/**
 * Shewchuk's exact summation: non-overlapping partials whose sum is exactly the sum of the inputs
 * (as Python's math.fsum keeps them). A handful of partials stand for any number of values.
 */
function exactPartials(values: readonly number[]): number[] {
  // A typed scratch array and a count: no array resizing per value (a hot loop for big means).
  let partials = new Float64Array(16);
  let n = 0;
  for (let k = 0; k < values.length; k++) {
    const value = values[k];
    // (`undefined` only past the end, which the loop never reads: narrowed with the finite check.)
    if (value === undefined || !Number.isFinite(value))
      throw new RangeError("mean of non-finite values is not supported");
    let x = value;
    let i = 0;
    for (let j = 0; j < n; j++) {
      let y = partials[j]!;
      if (Math.abs(x) < Math.abs(y)) {
        const t = x;
        x = y;
        y = t;
      }
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    if (i === partials.length) {
      const bigger = new Float64Array(partials.length * 2);
      bigger.set(partials);
      partials = bigger;
    }
    partials[i++] = x;
    n = i;
  }
  return Array.from(partials.subarray(0, n));
}

/**
 * `statistics.mean(values)` of Python 3 for finite floats: the sum is exact, the division by the
 * count is rounded once. Printing the result with `formatPyFloat` gives the digits the upstream
 * tools print.
 */
export function pythonMean(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("mean requires at least one data point");
  const parts = exactPartials(values).map(toRational);
  let minE = 0;
  for (const r of parts) if (r.m !== 0n && r.e < minE) minE = r.e;
  let sum = 0n;
  for (const { m, e } of parts) sum += m << BigInt(e - minE);
  const count = BigInt(values.length);
  return minE >= 0 ? ratioToDouble(sum << BigInt(minE), count) : ratioToDouble(sum, count << BigInt(-minE));
}

// Checked element access for the tests' paired samples and tables, where an index past the end is
// a bug of this package: a RangeError, never an undefined carried into the arithmetic as NaN.

/** `xs[i]`, or a RangeError when `i` is out of range. */
export function valueAt<T>(xs: ArrayLike<T>, i: number): T {
  const v = xs[i];
  if (v === undefined) throw new RangeError(`index ${i} out of range (length ${xs.length})`);
  return v;
}

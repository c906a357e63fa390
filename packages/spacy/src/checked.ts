// Checked element access where an index comes from the data's own sizes (a lexicon entry of a
// token, a layer of the model, a test text): out of range is a bug, so a RangeError, never an
// undefined carried on. Hot loops over typed arrays do not use it (they read through locals).

/** `xs[i]`, or a RangeError when `i` is out of range. */
export function elementAt<T>(xs: ArrayLike<T>, i: number): T {
  const v = xs[i];
  if (v === undefined) throw new RangeError(`index ${i} out of range (length ${xs.length})`);
  return v;
}

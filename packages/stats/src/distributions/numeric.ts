// Helpers every ported routine below shares: Horner's rule and the machine constants CDFLIB's
// spmpar / exparg give (convkit's own code; the constants as CDFLIB defines them, public domain).

/** Horner's rule over coefficients given highest power first: c[0] x^n + … + c[n]. */
export function horner(c: readonly number[], x: number): number {
  let r = c[0]!;
  for (let i = 1; i < c.length; i++) r = r * x + c[i]!;
  return r;
}

/** Machine epsilon as CDFLIB's spmpar(1) gives it (2^-52). */
export const EPS = 2.220446049250313e-16;
export const SMALLEST_NORMAL = 2.2250738585072014e-308;
/** CDFLIB's exparg(1): the most negative w for which exp(w) is taken as nonzero (its own truncated ln 2). */
// biome-ignore lint/suspicious/noApproximativeNumericConstant: CDFLIB's constant, not Math.LN2
export const EXPARG_MIN = 0.99999 * (-1022 * 0.69314718055995);

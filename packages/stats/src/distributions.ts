// The normal and Student t distributions exactly as SciPy 1.10.1 computes them, one module per
// ported library (distributions/): cephes' ndtr and ndtri (cephes.ts); CDFLIB's cumt and cdft with
// its root search (cdft.ts), its own normal CDF and quantile for the search's start (cumnor.ts), and
// TOMS 708's incomplete beta ratio (toms708.ts); a correctly rounded log (double-double.ts) and the
// shared constants (numeric.ts). Each module's header names its source and licence.

export { stdtr, stdtrit } from "./distributions/cdft.js";
export { ndtr } from "./distributions/cephes.js";

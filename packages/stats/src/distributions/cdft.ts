// Student's t as SciPy 1.10.1's stdtr and stdtrit compute it: CDFLIB's cumt and cdft, with cdft's
// root search (dinvr / dzror: bracket, then Bus and Dekker's zero-in) reproduced step by step, so
// the quantile equals SciPy's to the last ulp, not the exact one. Ported from CDFLIB (Brown, Lovato
// and Russell), public domain, as SciPy ships it.
import { ndtr, ndtri } from "./cephes.js";
import { tQuantileStart } from "./cumnor.js";
import { EPS } from "./numeric.js";
import { betaRatioHalf } from "./toms708.js";

/** CDFLIB cumt: [P(T <= t), P(T > t)] from I_x(df/2, 1/2) at x = df/(df + t²), y = t²/(df + t²). */
function cumt(t: number, df: number): [number, number] {
  const tt = t * t;
  const dfptt = df + tt;
  const xx = df / dfptt;
  const yy = tt / dfptt;
  // cumbet: the x <= 0 and y <= 0 ends first (t = ±inf gives x = 0, y = NaN).
  const [a, oma] = xx <= 0 ? [0, 1] : yy <= 0 ? [1, 0] : betaRatioHalf(0.5 * df, xx, yy);
  if (t <= 0) {
    const cum = 0.5 * a;
    return [cum, oma + cum];
  }
  const ccum = 0.5 * a;
  return [oma + ccum, ccum];
}

/**
 * `scipy.special.stdtr(df, t)`, the Student t CDF, exactly as SciPy 1.10.1 computes it (CDFLIB
 * cdft: cumt on TOMS 708's incomplete beta, accurate to full precision in both tails). As SciPy:
 * NaN for NaN inputs or df <= 0; ndtr(t) for df = ±Infinity; 0 or 1 once t² overflows (|t| > ~1.3e154).
 */
export function stdtr(df: number, t: number): number {
  if (Number.isNaN(df) || Number.isNaN(t)) return Number.NaN;
  if (!Number.isFinite(df)) return ndtr(t);
  if (df <= 0) return Number.NaN;
  return cumt(t, df)[0];
}

/**
 * Bus and Dekker's zero finder as CDFLIB's dzror runs it on a bracket [xlo, xhi] of f's sign
 * change, with CDFLIB's tolerance 0.5·max(abstol, reltol·|x|). Returns the final xlo (dinvr's
 * answer), or xhi when f has the same sign at both ends.
 */
function zeroInBracket(
  f: (x: number) => number,
  xlo0: number,
  xhi0: number,
  abstol: number,
  reltol: number,
): number {
  const ftol = (z: number) => 0.5 * Math.max(abstol, reltol * Math.abs(z));
  let b = xlo0;
  let fb = f(b);
  let xlo = xhi0;
  let a = xlo;
  let fa = f(a);
  if ((fb < 0 && fa < 0) || (fb > 0 && fa > 0)) return xlo;
  let first = true;
  let c = 0;
  let fc = 0;
  let d = 0;
  let fd = 0;
  let ext = 0;
  let restart = true;
  // CDFLIB has no iteration limit; this bound is only a guard against non-termination.
  for (let iter = 0; iter < 100_000; iter++) {
    if (restart) {
      c = a;
      fc = fa;
      ext = 0;
      restart = false;
    }
    // Keep b the best estimate, c the other end of the bracket.
    if (Math.abs(fc) < Math.abs(fb)) {
      if (c !== a) {
        d = a;
        fd = fa;
      }
      a = b;
      fa = fb;
      xlo = c;
      b = xlo;
      fb = fc;
      c = a;
      fc = fa;
    }
    let tol = ftol(xlo);
    const mb = (c + b) * 0.5 - b;
    if (!(Math.abs(mb) > tol)) return xlo;
    let w: number;
    if (ext > 3) w = mb;
    else {
      tol = mb < 0 ? -Math.abs(tol) : Math.abs(tol);
      let p = (b - a) * fb;
      let q: number;
      if (first) {
        q = fa - fb;
        first = false;
      } else {
        // inverse quadratic interpolation through (a, fa), (b, fb), (d, fd)
        const fdb = (fd - fb) / (d - b);
        const fda = (fd - fa) / (d - a);
        p *= fda;
        q = fdb * fa - fda * fb;
      }
      if (p < 0) {
        p = -p;
        q = -q;
      }
      if (ext === 3) p *= 2;
      if (p === 0 || p <= q * tol) w = tol;
      else if (p < mb * q) w = p / q;
      else w = mb;
    }
    d = a;
    fd = fa;
    a = b;
    fa = fb;
    b += w;
    xlo = b;
    fb = f(xlo);
    if (fc * fb >= 0) restart = true;
    else ext = w === mb ? 0 : ext + 1;
  }
  return xlo;
}

/** The outcome of CDFLIB's dinvr: a zero, or none within [small, big] (below it when `left`). */
type Inversion = { found: true; x: number } | { found: false; left: boolean };

/**
 * CDFLIB dinvr: find x in [small, big] with f(x) = 0 for monotone f. Checks the ends, brackets
 * the zero by steps from x0 growing by `stpmul`, then runs the zero finder. `null` when x0 is
 * outside [small, big] (CDFLIB stops the program there: SciPy 1.10.1 exits the interpreter).
 */
function invertMonotone(
  f: (x: number) => number,
  x0: number,
  small: number,
  big: number,
  absstp: number,
  relstp: number,
  stpmul: number,
  abstol: number,
  reltol: number,
): Inversion | null {
  if (!(small <= x0 && x0 <= big)) return null;
  const fsmall = f(small);
  const fbig = f(big);
  const incr = fbig > fsmall;
  if (incr) {
    if (!(fsmall <= 0)) return { found: false, left: true };
    if (!(fbig >= 0)) return { found: false, left: false };
  } else {
    if (!(fsmall >= 0)) return { found: false, left: true };
    if (!(fbig <= 0)) return { found: false, left: false };
  }
  let step = Math.max(absstp, relstp * Math.abs(x0));
  let yy = f(x0);
  if (yy === 0) return { found: true, x: x0 };
  const up = (incr && yy < 0) || (!incr && yy > 0);
  let xlb: number;
  let xub: number;
  if (up) {
    xlb = x0;
    xub = Math.min(xlb + step, big);
    for (;;) {
      yy = f(xub);
      const bounded = (incr && yy >= 0) || (!incr && yy <= 0);
      const atLimit = xub >= big;
      if (bounded || atLimit) {
        if (!bounded) return { found: false, left: false };
        break;
      }
      step *= stpmul;
      xlb = xub;
      xub = Math.min(xlb + step, big);
    }
  } else {
    xub = x0;
    xlb = Math.max(xub - step, small);
    for (;;) {
      yy = f(xlb);
      const bounded = (incr && yy <= 0) || (!incr && yy >= 0);
      const atLimit = xlb <= small;
      if (bounded || atLimit) {
        if (!bounded) return { found: false, left: true };
        break;
      }
      step *= stpmul;
      xub = xlb;
      xlb = Math.max(xub - step, small);
    }
  }
  return { found: true, x: zeroInBracket(f, xlb, xub, abstol, reltol) };
}

/** cdft's search range for t: ±1e100, returned as the answer when the zero lies beyond it. */
const T_BOUND = 1e100;

/**
 * `scipy.special.stdtrit(df, p)`, the Student t quantile, exactly as SciPy 1.10.1 computes it:
 * CDFLIB cdft's search (start from dt1, steps 0.5·max(1, |t0|)·5^k, Bus-Dekker to a relative
 * tolerance of 1e-8 on whichever of P or Q is smaller). So it is NOT the exact quantile: it is off
 * by up to ~1e-9 relative, and this reproduces SciPy's numbers rather than the true ones. As SciPy:
 * NaN for NaN inputs, df <= 0, p <= 0 or p >= 1; ±1e100 when the answer lies beyond ±1e100 (e.g.
 * df = 1, p = 1e-300); cephes ndtri(p) for df = ±Infinity (so -Infinity/Infinity at p = 0/1 there).
 * Where SciPy aborts the process (a start value beyond ±1e100, at tiny df) this returns NaN.
 */
export function stdtrit(df: number, p: number): number {
  if (Number.isNaN(df) || Number.isNaN(p)) return Number.NaN;
  if (!Number.isFinite(df)) return ndtri(p);
  const q = 1 - p;
  if (p <= 0 || p > 1 || q <= 0 || q > 1 || df <= 0) return Number.NaN;
  if (Math.abs(p + q - 0.5 - 0.5) > 3 * EPS) return Number.NaN;
  const lower = p <= q;
  const f = (t: number): number => {
    const [cum, ccum] = cumt(t, df);
    return lower ? cum - p : ccum - q;
  };
  const r = invertMonotone(f, tQuantileStart(p, q, df), -T_BOUND, T_BOUND, 0.5, 0.5, 5, 1e-50, 1e-8);
  if (r === null) return Number.NaN;
  if (r.found) return r.x;
  return r.left ? -T_BOUND : T_BOUND;
}

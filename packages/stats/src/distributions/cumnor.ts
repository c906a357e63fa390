// CDFLIB's own normal CDF and quantile (cumnor: Cody's anorm; stvaln; dinvnr) and the t quantile's
// starting value (dt1), used only to start cdft's search. Ported from CDFLIB (Brown, Lovato and
// Russell, University of Texas M.D. Anderson Cancer Center), public domain, as SciPy 1.10.1 ships it.
import { ln } from "./double-double.js";
import { EPS, horner, SMALLEST_NORMAL } from "./numeric.js";

const ANORM_A = [2.2352520354606837, 161.02823106855587, 1067.6894854603709, 18154.98125334356];
const ANORM_A5 = 0.06568233791820745;
const ANORM_B = [47.202581904688245, 976.0985517377767, 10260.932208618979, 45507.78933502673];
const ANORM_C = [
  0.39894151208813466, 8.883149794388377, 93.50665613217785, 597.2702763948002, 2494.5375852903726,
  6848.190450536283, 11602.65143764735, 9842.714838383978,
];
const ANORM_C9 = 1.0765576773720192e-8;
const ANORM_D = [
  22.266688044328117, 235.387901782625, 1519.3775994075547, 6485.558298266761, 18615.571640885097,
  34900.95272114598, 38912.00328609327, 19685.429676859992,
];
const ANORM_P = [
  0.215898534057957, 0.12740116116024736, 2.2235277870649807e-2, 0.0014216191932278934,
  0.000029112874951168793,
];
const ANORM_P6 = 0.023073441764940174;
const ANORM_Q = [
  1.284260096144911, 0.4682382124808651, 0.06598813786892856, 0.0037823963320275824, 0.00007297515550839662,
];

/** r·exp(-x²/2), split as exp(-xs²/2)·exp(-(x-xs)(x+xs)/2) with xs = trunc(1.6 x)/1.6 (CDFLIB's constant). */
function gaussTail(x: number, r: number): number {
  const xs = Math.trunc(x * 1.6) / 1.6;
  const del = (x - xs) * (x + xs);
  return Math.exp(-xs * xs * 0.5) * Math.exp(-del * 0.5) * r;
}

/** CDFLIB cumnor (Cody's anorm): the normal CDF Φ(x) from three rational approximations. */
function cumnor(x: number): number {
  const y = Math.abs(x);
  let cum: number;
  if (y <= 0.66291) {
    const xsq = y > EPS * 0.5 ? x * x : 0;
    let num = ANORM_A5 * xsq;
    let den = xsq;
    for (let i = 0; i < 3; i++) {
      num = (num + ANORM_A[i]!) * xsq;
      den = (den + ANORM_B[i]!) * xsq;
    }
    cum = 0.5 + (x * (num + ANORM_A[3]!)) / (den + ANORM_B[3]!);
  } else {
    let tail: number;
    if (y <= 5.656854248) {
      let num = ANORM_C9 * y;
      let den = y;
      for (let i = 0; i < 7; i++) {
        num = (num + ANORM_C[i]!) * y;
        den = (den + ANORM_D[i]!) * y;
      }
      tail = gaussTail(y, (num + ANORM_C[7]!) / (den + ANORM_D[7]!));
    } else {
      const xsq = 1 / (x * x);
      let num = ANORM_P6 * xsq;
      let den = xsq;
      for (let i = 0; i < 4; i++) {
        num = (num + ANORM_P[i]!) * xsq;
        den = (den + ANORM_Q[i]!) * xsq;
      }
      const r = (xsq * (num + ANORM_P[4]!)) / (den + ANORM_Q[4]!);
      // Cody rounds x itself (not |x|) here; the product below is even in x.
      tail = gaussTail(x, (0.3989422804014327 - r) / y);
    }
    cum = x > 0 ? 1 - tail : tail;
  }
  return cum < SMALLEST_NORMAL ? 0 : cum;
}

/** CDFLIB stvaln: Kennedy and Gentle's rational start for the normal quantile. */
function normalQuantileStart(p: number): number {
  const z = p <= 0.5 ? p : 1 - p;
  const y = Math.sqrt(-2 * ln(z));
  const num = horner([-0.453642210148e-4, -0.204231210245e-1, -0.342242088547, -1, -0.322232431088], y);
  const den = horner([0.38560700634e-2, 0.10353775285, 0.531103462366, 0.588581570495, 0.99348462606e-1], y);
  const v = y + num / den;
  return p <= 0.5 ? -v : v;
}

/** CDFLIB dinvnr: the normal quantile of min(p, q) by Newton on cumnor (to 1e-13), signed for p. */
function normalQuantile(p: number, q: number): number {
  const lowerTail = p <= q;
  const pp = lowerTail ? p : q;
  const start = normalQuantileStart(pp);
  let x = start;
  let result = start;
  for (let i = 0; i < 100; i++) {
    const dx = (cumnor(x) - pp) / (0.3989422804014326 * Math.exp(-0.5 * x * x));
    x -= dx;
    if (Math.abs(dx / x) < 1e-13) {
      result = x;
      break;
    }
  }
  return lowerTail ? result : -result;
}

/** CDFLIB dt1: the t quantile's starting value, the normal quantile plus Cornish-Fisher terms in 1/df. */
export function tQuantileStart(p: number, q: number, df: number): number {
  const terms = [
    [1, 1],
    [5, 16, 3],
    [3, 19, 17, -15],
    [79, 776, 1482, -1920, -945],
  ];
  const denom = [4, 96, 384, 92160];
  const x = Math.abs(normalQuantile(p, q));
  const xx = x * x;
  let sum = x;
  let denpow = 1;
  for (let i = 0; i < 4; i++) {
    const term = horner(terms[i]!, xx) * x;
    denpow *= df;
    sum += term / (denpow * denom[i]!);
  }
  return p >= 0.5 ? sum : -sum;
}

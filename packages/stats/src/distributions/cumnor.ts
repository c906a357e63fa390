// CDFLIB's own normal CDF and quantile (cumnor: Cody's anorm; stvaln; dinvnr) and the t quantile's
// starting value (dt1), used only to start cdft's search. Ported from CDFLIB (Brown, Lovato and
// Russell, University of Texas M.D. Anderson Cancer Center), public domain, as SciPy 1.10.1 ships it.
import { ln } from "./double-double.js";
import { EPS, horner, SMALLEST_NORMAL } from "./numeric.js";

// Cody's coefficients, highest power first, each numerator and denominator one polynomial for
// horner: his loops `num = (num + c[i]) * x` from `num = c9 * x` (`den` from `x`) are the same float
// operations as Horner's rule over [c9, c[0], …] ([1, d[0], …]).
const ANORM_NUM = [
  0.06568233791820745, 2.2352520354606837, 161.02823106855587, 1067.6894854603709, 18154.98125334356,
];
const ANORM_DEN = [1, 47.202581904688245, 976.0985517377767, 10260.932208618979, 45507.78933502673];
const ANORM_TAIL_NUM = [
  1.0765576773720192e-8, 0.39894151208813466, 8.883149794388377, 93.50665613217785, 597.2702763948002,
  2494.5375852903726, 6848.190450536283, 11602.65143764735, 9842.714838383978,
];
const ANORM_TAIL_DEN = [
  1, 22.266688044328117, 235.387901782625, 1519.3775994075547, 6485.558298266761, 18615.571640885097,
  34900.95272114598, 38912.00328609327, 19685.429676859992,
];
const ANORM_FAR_NUM = [
  0.023073441764940174, 0.215898534057957, 0.12740116116024736, 2.2235277870649807e-2, 0.0014216191932278934,
  0.000029112874951168793,
];
const ANORM_FAR_DEN = [
  1, 1.284260096144911, 0.4682382124808651, 0.06598813786892856, 0.0037823963320275824,
  0.00007297515550839662,
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
    cum = 0.5 + (x * horner(ANORM_NUM, xsq)) / horner(ANORM_DEN, xsq);
  } else {
    let tail: number;
    if (y <= 5.656854248) {
      tail = gaussTail(y, horner(ANORM_TAIL_NUM, y) / horner(ANORM_TAIL_DEN, y));
    } else {
      const xsq = 1 / (x * x);
      const r = (xsq * horner(ANORM_FAR_NUM, xsq)) / horner(ANORM_FAR_DEN, xsq);
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
  // Each term's polynomial in x² and its denominator.
  const terms: [number[], number][] = [
    [[1, 1], 4],
    [[5, 16, 3], 96],
    [[3, 19, 17, -15], 384],
    [[79, 776, 1482, -1920, -945], 92160],
  ];
  const x = Math.abs(normalQuantile(p, q));
  const xx = x * x;
  let sum = x;
  let denpow = 1;
  for (const [poly, denom] of terms) {
    const term = horner(poly, xx) * x;
    denpow *= df;
    sum += term / (denpow * denom);
  }
  return p >= 0.5 ? sum : -sum;
}

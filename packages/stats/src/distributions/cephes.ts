// The normal distribution as SciPy 1.10.1's scipy.special computes it: cephes' ndtr.c (erf, erfc,
// ndtr) and ndtri.c, ported from Stephen L. Moshier's Cephes Math Library as SciPy redistributes it
// (BSD-3-Clause, SciPy's LICENSES_bundled.txt). See THIRD_PARTY_NOTICES.md.
import { ln } from "./double-double.js";
import { horner } from "./numeric.js";

/** cephes' MAXLOG: past it exp(-x²) is taken to underflow, so erfc's far tail is exactly 0. */
const MAXLOG = 709.782712893384;

// Rational approximations of cephes' ndtr.c (highest power first; Q, S, U are monic).
const ERFC_P = [
  2.461969814735305e-10, 0.5641895648310689, 7.463210564422699, 48.63719709856814, 196.5208329560771,
  526.4451949954773, 934.5285271719576, 1027.5518868951572, 557.5353353693994,
];
const ERFC_Q = [
  1, 13.228195115474499, 86.70721408859897, 354.9377788878199, 975.7085017432055, 1823.9091668790973,
  2246.3376081871097, 1656.6630919416134, 557.5353408177277,
];
const ERFC_R = [
  0.5641895835477551, 1.275366707599781, 5.019050422511805, 6.160210979930536, 7.4097426995044895,
  2.9788666537210022,
];
const ERFC_S = [
  1, 2.2605286322011726, 9.396035249380015, 12.048953980809666, 17.08144507475659, 9.608968090632859,
  3.369076451000815,
];
const ERF_T = [9.604973739870516, 90.02601972038427, 2232.005345946843, 7003.325141128051, 55592.30130103949];
const ERF_U = [
  1, 33.56171416475031, 521.3579497801527, 4594.323829709801, 22629.000061389095, 49267.39426086359,
];

/** cephes erf: a rational function of x² for |x| <= 1, else 1 - erfc. */
function cephesErf(x: number): number {
  if (x < 0) return -cephesErf(-x);
  if (x > 1) return 1 - cephesErfc(x);
  const z = x * x;
  return (x * horner(ERF_T, z)) / horner(ERF_U, z);
}

/**
 * cephes erfc: exp(-x²) times a rational function of x. exp(-x²) is taken of the rounded x², as
 * cephes does, and is 0 past MAXLOG: SciPy's far tails carry exactly that rounding.
 */
function cephesErfc(a: number): number {
  const x = Math.abs(a);
  if (x < 1) return 1 - cephesErf(a);
  const z = -a * a;
  if (z < -MAXLOG) return a < 0 ? 2 : 0;
  const e = Math.exp(z);
  const y = x < 8 ? (e * horner(ERFC_P, x)) / horner(ERFC_Q, x) : (e * horner(ERFC_R, x)) / horner(ERFC_S, x);
  const r = a < 0 ? 2 - y : y;
  if (r !== 0) return r;
  return a < 0 ? 2 : 0;
}

/**
 * `scipy.special.ndtr`: the standard normal CDF, as cephes computes it (SciPy 1.10.1): 0.5 + 0.5
 * erf(x/√2) near 0, else erfc of |x|/√2 with the reflection. Reproduces SciPy's far tails
 * to the last digits, including its underflow to exactly 0 below about -37.68.
 */
export function ndtr(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  const s = x * Math.SQRT1_2;
  const z = Math.abs(s);
  if (z < Math.SQRT1_2) return 0.5 + 0.5 * cephesErf(s);
  const y = 0.5 * cephesErfc(z);
  return s > 0 ? 1 - y : y;
}

// Rational approximations of cephes' ndtri.c (highest power first; the Q's are monic).
const NDTRI_P0 = [
  -59.96335010141079, 98.00107541859997, -56.67628574690703, 13.931260938727968, -1.2391658386738125,
];
const NDTRI_Q0 = [
  1, 1.9544885833814176, 4.676279128988815, 86.36024213908905, -225.46268785411937, 200.26021238006066,
  -82.03722561683334, 15.90562251262117, -1.1833162112133,
];
const NDTRI_P1 = [
  4.0554489230596245, 31.525109459989388, 57.16281922464213, 44.08050738932008, 14.684956192885803,
  2.1866330685079025, -0.1402560791713545, -0.03504246268278482, -0.0008574567851546854,
];
const NDTRI_Q1 = [
  1, 15.779988325646675, 45.39076351288792, 41.3172038254672, 15.04253856929075, 2.504649462083094,
  -0.14218292285478779, -0.03808064076915783, -0.0009332594808954574,
];
const NDTRI_P2 = [
  3.2377489177694603, 6.915228890689842, 3.9388102529247444, 1.3330346081580755, 0.20148538954917908,
  0.012371663481782003, 0.00030158155350823543, 0.0000026580697468673755, 6.239745391849833e-9,
];
const NDTRI_Q2 = [
  1, 6.02427039364742, 3.6798356385616087, 1.3770209948908132, 0.21623699359449663, 0.013420400608854318,
  0.00032801446468212774, 0.0000028924786474538068, 6.790194080099813e-9,
];
const EXP_MINUS_2 = 0.1353352832366127;
const SQRT_2PI = 2.5066282746310007; // cephes s2pi (its literal rounds up from √(2π))

/**
 * cephes ndtri, the normal quantile: SciPy's stdtrit for infinite df. A rational function of
 * p - 1/2 in the middle, of 1/√(-2 ln p) in the tails (the upper tail through 1 - p).
 */
export function ndtri(p: number): number {
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (!(p >= 0 && p <= 1)) return Number.NaN;
  const lower = !(p > 1 - EXP_MINUS_2);
  const y = lower ? p : 1 - p;
  if (y > EXP_MINUS_2) {
    const h = y - 0.5;
    const h2 = h * h;
    return (h + h * ((h2 * horner(NDTRI_P0, h2)) / horner(NDTRI_Q0, h2))) * SQRT_2PI;
  }
  const x = Math.sqrt(-2 * ln(y));
  const x0 = x - ln(x) / x;
  const z = 1 / x;
  const x1 =
    x < 8 ? (z * horner(NDTRI_P1, z)) / horner(NDTRI_Q1, z) : (z * horner(NDTRI_P2, z)) / horner(NDTRI_Q2, z);
  return lower ? -(x0 - x1) : x0 - x1;
}

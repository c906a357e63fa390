// The incomplete beta ratio I_x(a, 1/2) as TOMS 708 (Didonato and Morris, ACM Trans. Math. Softw.
// 18, 1992: "Algorithm 708: significant digit computation of the incomplete beta function ratios")
// computes it in CDFLIB's bratio: only the paths bratio reaches for b = 1/2. Under ACM's software
// license (see THIRD_PARTY_NOTICES.md), ported from the Fortran as SciPy 1.10.1 compiles it.
import { ln } from "./double-double.js";
import { EPS, EXPARG_MIN, horner } from "./numeric.js";

/** ln(1 + a), by a rational function of a/(a+2) for |a| <= 0.375 (alnrel). */
function log1pT(a: number): number {
  if (Math.abs(a) > 0.375) return ln(1 + a);
  const t = a / (a + 2);
  const t2 = t * t;
  const w =
    horner([-0.178874546012214e-1, 0.405303492862024, -0.129418923021993e1, 1], t2) /
    horner([-0.845104217945565e-1, 0.747811014037616, -0.162752256355323e1, 1], t2);
  return 2 * t * w;
}

/** exp(x) - 1 (rexp). */
function expm1T(x: number): number {
  if (Math.abs(x) <= 0.15) {
    return (
      x *
      (horner([0.238082361044469e-1, 0.914041914819518e-9, 1], x) /
        horner([0.595130811860248e-3, -0.119041179760821e-1, 0.107141568980644, -0.499999999085958, 1], x))
    );
  }
  const w = Math.exp(x);
  return x > 0 ? w * (0.5 + (0.5 - 1 / w)) : w - 0.5 - 0.5;
}

/** 1/Γ(a+1) - 1 for -0.5 <= a <= 1.5 (gam1). */
function invGamma1pm1(a: number): number {
  const d = a - 0.5;
  const t = d > 0 ? d - 0.5 : a;
  if (t === 0) return 0;
  if (t < 0) {
    const top = horner(
      [
        -0.132674909766242e-3, 0.266505979058923e-3, 0.223047661158249e-2, -0.118290993445146e-1,
        0.930357293360349e-3, 0.118378989872749, -0.244757765222226, -0.771330383816272, -0.422784335098468,
      ],
      t,
    );
    const w = top / horner([0.559398236957378e-1, 0.273076135303957, 1], t);
    return d > 0 ? (t * w) / a : a * (w + 0.5 + 0.5);
  }
  const top = horner(
    [
      0.589597428611429e-3, -0.514889771323592e-2, 0.76696818164949e-2, 0.597275330452234e-1,
      -0.230975380857675, -0.409078193005776, 0.577215664901533,
    ],
    t,
  );
  const w =
    top / horner([0.423244297896961e-2, 0.261132021441447e-1, 0.158451672430138, 0.427569613095214, 1], t);
  return d > 0 ? (t / a) * (w - 0.5 - 0.5) : a * w;
}

/** ln Γ(1 + a) for -0.2 <= a <= 1.25 (gamln1). */
function lnGamma1p(a: number): number {
  if (a < 0.6) {
    const w =
      horner(
        [
          -0.271935708322958e-2, -0.673562214325671e-1, -0.402055799310489, -0.780427615533591,
          -0.168860593646662, 0.844203922187225, 0.577215664901533,
        ],
        a,
      ) /
      horner(
        [
          0.667465618796164e-3, 0.325038868253937e-1, 0.361951990101499, 0.156875193295039e1,
          0.312755088914843e1, 0.288743195473681e1, 1,
        ],
        a,
      );
    return -a * w;
  }
  const x = a - 0.5 - 0.5;
  const w =
    horner(
      [
        0.497958207639485e-3, 0.17050248402265e-1, 0.156513060486551, 0.565221050691933, 0.848044614534529,
        0.422784335098467,
      ],
      x,
    ) /
    horner(
      [0.116165475989616e-3, 0.713309612391e-2, 0.10155218743983, 0.548042109832463, 0.124313399877507e1, 1],
      x,
    );
  return x * w;
}

const STIRLING = [
  -0.165322962780713e-2, 0.837308034031215e-3, -0.59520293135187e-3, 0.79365066682539e-3,
  -0.277777777760991e-2, 0.833333333333333e-1,
];

/** ln(Γ(b)/Γ(a+b)) for b >= 8 (algdiv), from Stirling's series of the difference. */
function lnGammaRatio(a: number, b: number): number {
  let h: number;
  let c: number;
  let x: number;
  let d: number;
  if (a > b) {
    h = b / a;
    c = 1 / (1 + h);
    x = h / (1 + h);
    d = a + (b - 0.5);
  } else {
    h = a / b;
    c = h / (1 + h);
    x = 1 / (1 + h);
    d = b + (a - 0.5);
  }
  // s_n = (1 - x^n)/(1 - x), n = 3, 5, …, 11
  const x2 = x * x;
  const s3 = 1 + (x + x2);
  const s5 = 1 + (x + x2 * s3);
  const s7 = 1 + (x + x2 * s5);
  const s9 = 1 + (x + x2 * s7);
  const s11 = 1 + (x + x2 * s9);
  const t = (1 / b) * (1 / b);
  const [c5, c4, c3, c2, c1, c0] = STIRLING as [number, number, number, number, number, number];
  let w = ((((c5 * s11 * t + c4 * s9) * t + c3 * s7) * t + c2 * s5) * t + c1 * s3) * t + c0;
  w *= c / b;
  const u = d * log1pT(a / b);
  const v = a * (ln(b) - 1);
  return u > v ? w - v - u : w - u - v;
}

const ERF_A = [
  0.77105849500132e-4, -0.133733772997339e-2, 0.323076579225834e-1, 0.479137145607681e-1, 0.128379167095513,
];
const ERF_B = [0.301048631703895e-2, 0.538971687740286e-1, 0.375795757275549, 1];
const ERFC1_P = [
  -1.36864857382717e-7, 5.64195517478974e-1, 7.21175825088309, 4.31622272220567e1, 1.5298928504694e2,
  3.39320816734344e2, 4.51918953711873e2, 3.00459261020162e2,
];
const ERFC1_Q = [
  1, 1.27827273196294e1, 7.70001529352295e1, 2.77585444743988e2, 6.38980264465631e2, 9.3135409485061e2,
  7.90950925327898e2, 3.00459260956983e2,
];
const ERFC1_R = [
  2.10144126479064, 2.62370141675169e1, 2.13688200555087e1, 4.6580782871847, 2.82094791773523e-1,
];
const ERFC1_S = [9.4153775055546e1, 1.8711481179959e2, 9.90191814623914e1, 1.80124575948747e1, 1];
const RSQRT_PI = 0.564189583547756;

/** erf(x) for |x| <= 1/2, TOMS 708's own (grat1 only asks there). */
function erfSmall(x: number): number {
  const t = x * x;
  return x * ((horner(ERF_A, t) + 1) / horner(ERF_B, t));
}

/** erfc(x) for x >= 0, TOMS 708's own (erfc1 with ind = 0). */
function erfcT(x: number): number {
  if (x <= 0.5) return 0.5 + (0.5 - erfSmall(x));
  let r: number;
  if (x <= 4) r = horner(ERFC1_P, x) / horner(ERFC1_Q, x);
  else {
    if (x > 100 || x * x > -EXPARG_MIN) return 0;
    const t = (1 / x) * (1 / x);
    r = (RSQRT_PI - (t * horner(ERFC1_R, t)) / horner(ERFC1_S, t)) / x;
  }
  return Math.exp(-(x * x)) * r;
}

/**
 * Q(a, x), the upper incomplete gamma ratio, for a <= 1 (grat1); r = e^-x x^a / Γ(a) is given.
 * bgrat needs only Q.
 */
function gammaQSmallA(a: number, x: number, r: number, eps: number): number {
  if (a * x === 0) return x <= a ? 1 : 0;
  if (a === 0.5) {
    if (x < 0.25) return 0.5 + (0.5 - erfSmall(Math.sqrt(x)));
    return erfcT(Math.sqrt(x));
  }
  if (x < 1.1) {
    // Taylor series for P(a, x)/x^a
    let an = 3;
    let c = x;
    let sum = x / (a + 3);
    const tol = (0.1 * eps) / (a + 1);
    let t: number;
    do {
      an += 1;
      c = -c * (x / an);
      t = c / (a + an);
      sum += t;
    } while (Math.abs(t) > tol);
    const j = a * x * ((sum / 6 - 0.5 / (a + 2)) * x + 1 / (a + 1));
    const z = a * ln(x);
    const h = invGamma1pm1(a);
    const g = 1 + h;
    const viaExpm1 = x < 0.25 ? z > -0.13394 : a < x / 2.59;
    if (!viaExpm1) {
      const p = Math.exp(z) * g * (0.5 + (0.5 - j));
      return 0.5 + (0.5 - p);
    }
    const l = expm1T(z);
    const w = 0.5 + (0.5 + l);
    const q = (w * j - l) * g - h;
    if (q < 0) return 0;
    return q;
  }
  // continued fraction
  let a2nm1 = 1;
  let a2n = 1;
  let b2nm1 = x;
  let b2n = x + (1 - a);
  let c = 1;
  let am0: number;
  let an0: number;
  do {
    a2nm1 = x * a2n + c * a2nm1;
    b2nm1 = x * b2n + c * b2nm1;
    am0 = a2nm1 / b2nm1;
    c += 1;
    const cma = c - a;
    a2n = a2nm1 + cma * a2n;
    b2n = b2nm1 + cma * b2n;
    an0 = a2n / b2n;
  } while (Math.abs(an0 - am0) >= eps * an0);
  return r * an0;
}

/** (1 + gam1(a+b-1))/(a+b), or 1 + gam1(a+b) for a + b <= 1: Γ(a+b)⁻¹·(a+b)⁻¹ kept accurate near a + b = 1, 2. */
function gammaSumFactor(a: number, b: number): number {
  const apb = a + b;
  return apb > 1 ? (1 + invGamma1pm1(a + b - 1)) / apb : 1 + invGamma1pm1(apb);
}

/**
 * x^a y^b / B(a, b) for min(a, b) < 1 (brcmp1 without scaling, all that bup asks of it when
 * b <= 1); ln x and ln y are each taken from whichever of x, y keeps them accurate.
 */
function powerTerm(a: number, b: number, x: number, y: number): number {
  let lnx: number;
  let lny: number;
  if (x <= 0.375) {
    lnx = ln(x);
    lny = log1pT(-x);
  } else if (y <= 0.375) {
    lnx = log1pT(-y);
    lny = ln(y);
  } else {
    lnx = ln(x);
    lny = ln(y);
  }
  let z = a * lnx + b * lny;
  const a0 = Math.min(a, b);
  let b0 = Math.max(a, b);
  if (b0 >= 8) return a0 * Math.exp(z - (lnGamma1p(a0) + lnGammaRatio(a0, b0)));
  if (b0 > 1) {
    // Γ(b0) reduced to Γ(b0 - n) by the recurrence, the product kept in c.
    let u = lnGamma1p(a0);
    const n = Math.trunc(b0 - 1);
    if (n >= 1) {
      let c = 1;
      for (let i = 0; i < n; i++) {
        b0 -= 1;
        c *= b0 / (a0 + b0);
      }
      u = ln(c) + u;
    }
    z -= u;
    b0 -= 1;
    return (a0 * Math.exp(z) * (1 + invGamma1pm1(b0))) / gammaSumFactor(a0, b0);
  }
  const e = Math.exp(z);
  if (e === 0) return 0;
  const c = ((1 + invGamma1pm1(a)) * (1 + invGamma1pm1(b))) / gammaSumFactor(a, b);
  return (e * (a0 * c)) / (1 + a0 / b0);
}

/**
 * I_x(a, b) by its power series (bpser), for b <= 1 or b x <= 0.7. Here min(a, b) < 1 always (one
 * of them is 1/2), so the prefactor x^a / (a B(a, b)) is built from gam1/gamln1/algdiv.
 */
function betaPowerSeries(a: number, b: number, x: number, eps: number): number {
  if (x === 0) return 0;
  const a0 = Math.min(a, b);
  let b0 = Math.max(a, b);
  let r: number;
  if (b0 >= 8) {
    const u = lnGamma1p(a0) + lnGammaRatio(a0, b0);
    r = (a0 / a) * Math.exp(a * ln(x) - u);
  } else if (b0 > 1) {
    let u = lnGamma1p(a0);
    const m = Math.trunc(b0 - 1);
    if (m >= 1) {
      let c = 1;
      for (let i = 0; i < m; i++) {
        b0 -= 1;
        c *= b0 / (a0 + b0);
      }
      u = ln(c) + u;
    }
    const z = a * ln(x) - u;
    b0 -= 1;
    r = (Math.exp(z) * (a0 / a) * (1 + invGamma1pm1(b0))) / gammaSumFactor(a0, b0);
  } else {
    r = x ** a;
    if (r === 0) return 0;
    const c = ((1 + invGamma1pm1(a)) * (1 + invGamma1pm1(b))) / gammaSumFactor(a, b);
    r = r * c * (b / (a + b));
  }
  if (r === 0 || a <= 0.1 * eps) return r;
  let sum = 0;
  let n = 0;
  let c = 1;
  const tol = eps / a;
  let w: number;
  do {
    n += 1;
    c = c * (0.5 + (0.5 - b / n)) * x;
    w = c / (a + n);
    sum += w;
  } while (Math.abs(w) > tol);
  return r * (1 + a * sum);
}

/**
 * I_x(a, b) - I_x(a + n, b) (bup), a finite sum of decreasing terms; with b <= 1 (all that
 * bratio's small-parameter branch passes) no scaling is needed and the largest term is the first.
 */
function betaUpward(a: number, b: number, x: number, y: number, n: number, eps: number): number {
  const apb = a + b;
  const ap1 = a + 1;
  const r = powerTerm(a, b, x, y) / a;
  if (n === 1 || r === 0) return r;
  let d = 1;
  let w = d;
  for (let i = 1; i < n; i++) {
    const l = i - 1;
    d = ((apb + l) / (ap1 + l)) * x * d;
    w += d;
    if (d <= eps * w) break;
  }
  return r * w;
}

/**
 * w + I_x(a, b)'s asymptotic expansion for a >= 15, b <= 1 (bgrat); w unchanged when the
 * expansion cannot be computed.
 */
function betaAsymptotic(a: number, b: number, x: number, y: number, w: number, eps: number): number {
  const bm1 = b - 0.5 - 0.5;
  const nu = a + 0.5 * bm1;
  const lnx = y > 0.375 ? ln(x) : log1pT(-y);
  const z = -nu * lnx;
  if (b * z === 0) return w;
  // r = e^-z z^b / Γ(b), u = r e^-u' (the leading factor)
  let r = b * (1 + invGamma1pm1(b)) * Math.exp(b * ln(z));
  r = r * Math.exp(a * lnx) * Math.exp(0.5 * bm1 * lnx);
  const u = r * Math.exp(-(lnGammaRatio(b, a) + b * ln(nu)));
  if (u === 0) return w;
  const q = gammaQSmallA(b, z, r, eps);
  const v = 0.25 * ((1 / nu) * (1 / nu));
  const t2 = 0.25 * lnx * lnx;
  const l = w / u;
  let j = q / r;
  let sum = j;
  let t = 1;
  let cn = 1;
  let n2 = 0;
  const c: number[] = [];
  const d: number[] = [];
  for (let n = 1; n <= 30; n++) {
    const bp2n = b + n2;
    j = (bp2n * (bp2n + 1) * j + (z + bp2n + 1) * t) * v;
    n2 += 2;
    t *= t2;
    cn /= n2 * (n2 + 1);
    c[n] = cn;
    let s = 0;
    let coef = b - n;
    for (let i = 1; i < n; i++) {
      s += coef * c[i]! * d[n - i]!;
      coef += b;
    }
    d[n] = bm1 * cn + s / n;
    const dj = d[n]! * j;
    sum += dj;
    if (sum <= 0) return w;
    if (Math.abs(dj) <= eps * (sum + l)) break;
  }
  return w + u * sum;
}

/** I_x(a, b) for b < min(eps, eps a) and x <= 1/2 (fpser): 1/B(a, b) ≈ b. */
function betaTinyB(a: number, b: number, x: number, eps: number): number {
  let r = 1;
  if (a > 1e-3 * eps) {
    const t = a * ln(x);
    if (t < EXPARG_MIN) return 0;
    r = Math.exp(t);
  }
  r *= b / a;
  const tol = eps / a;
  let an = a + 1;
  let t = x;
  let s = t / an;
  let c: number;
  do {
    an += 1;
    t *= x;
    c = t / an;
    s += c;
  } while (Math.abs(c) > tol);
  return r * (1 + a * s);
}

const EULER_GAMMA_T = 0.577215664901533;
const DIGAMMA_HALF = -1.9635100260214235;

/**
 * I_{1-x}(b, a) for tiny a (a <= min(eps, eps b), b x <= 1, x <= 1/2: apser). bratio only
 * calls it with b = 1/2 here, so ψ(b) is the constant ψ(1/2).
 */
function betaTinyAComplement(a: number, b: number, x: number, eps: number): number {
  const bx = b * x;
  let t = x - bx;
  const c = b * eps > 2e-2 ? ln(bx) + EULER_GAMMA_T + t : ln(x) + DIGAMMA_HALF + EULER_GAMMA_T + t;
  const tol = 5 * eps * Math.abs(c);
  let j = 1;
  let s = 0;
  let aj: number;
  do {
    j += 1;
    t *= x - bx / j;
    aj = t / j;
    s += aj;
  } while (Math.abs(aj) > tol);
  return -a * (c + s);
}

/**
 * [I_x(a, 1/2), 1 - I_x(a, 1/2)] as TOMS 708's bratio computes them (x and y = 1 - x given
 * separately, so each tail keeps its digits). With b = 1/2 only bratio's branch for
 * min(a, b) <= 1 is reached; its choice of method is reproduced exactly. [0, 0] on bratio's
 * input errors (x + y not 1 to 3 eps, values out of range), as CDFLIB returns them.
 */
export function betaRatioHalf(a: number, x: number, y: number): [number, number] {
  const b = 0.5;
  if (a < 0 || x < 0 || x > 1 || y < 0 || y > 1) return [0, 0];
  if (Math.abs(x + y - 0.5 - 0.5) > 3 * EPS) return [0, 0];
  if (x === 0) return a === 0 ? [0, 0] : [0, 1];
  if (y === 0 || a === 0) return [1, 0];
  const eps = 1e-15;
  // Work on the side x0 <= 1/2, swapping (a, x) with (b, y).
  const swap = x > 0.5;
  const a0 = swap ? b : a;
  let b0 = swap ? a : b;
  const x0 = swap ? y : x;
  const y0 = swap ? x : y;
  let w: number;
  let w1: number;
  if (b0 < Math.min(eps, eps * a0)) {
    w = betaTinyB(a0, b0, x0, eps);
    w1 = 0.5 + (0.5 - w);
  } else if (a0 < Math.min(eps, eps * b0) && b0 * x0 <= 1) {
    w1 = betaTinyAComplement(a0, b0, x0, eps);
    w = 0.5 + (0.5 - w1);
  } else {
    let method: "series" | "complementSeries" | "asymptotic";
    let n = 20;
    if (Math.max(a0, b0) > 1) {
      if (b0 <= 1) method = "series";
      else if (x0 >= 0.3) method = "complementSeries";
      else if (x0 < 0.1 && (x0 * b0) ** a0 <= 0.7) method = "series";
      else {
        method = "asymptotic";
        if (b0 > 15) n = 0;
      }
    } else if (a0 >= Math.min(0.2, b0) || x0 ** a0 <= 0.9) method = "series";
    else if (x0 >= 0.3) method = "complementSeries";
    else method = "asymptotic";
    if (method === "series") {
      w = betaPowerSeries(a0, b0, x0, eps);
      w1 = 0.5 + (0.5 - w);
    } else if (method === "complementSeries") {
      w1 = betaPowerSeries(b0, a0, y0, eps);
      w = 0.5 + (0.5 - w1);
    } else {
      w1 = 0;
      if (n > 0) {
        w1 = betaUpward(b0, a0, y0, x0, n, eps);
        b0 += n;
      }
      w1 = betaAsymptotic(b0, a0, y0, x0, w1, 15 * eps);
      w = 0.5 + (0.5 - w1);
    }
  }
  return swap ? [w1, w] : [w, w1];
}

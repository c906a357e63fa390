// The normal and Student t distributions as SciPy 1.10 computes them: ndtr (cephes), stdtr and stdtrit (CDFLIB's cdft, its quantile search included).
const SQRT_PI = 1.7724538509055159;
/** erf(x) by its Maclaurin series (|x| < 0.75: few terms, little cancellation). */
function erfSeries(x: number): number {
  const x2 = x * x;
  let term = x;
  let sum = x;
  for (let n = 1; n < 60; n++) {
    term *= -x2 / n;
    const t = term / (2 * n + 1);
    sum += t;
    if (Math.abs(t) < 1e-17 * Math.abs(sum)) break;
  }
  return (2 / SQRT_PI) * sum;
}
/** erfc(z), z >= 0.5, by its continued fraction (modified Lentz). */
function erfcFraction(z: number): number {
  // erfc(z) = exp(-z^2)/sqrt(pi) * 1/(z + (1/2)/(z + 1/(z + (3/2)/(z + ...))))
  const tiny = 1e-300;
  let f = z;
  let C = z;
  let D = 0;
  for (let n = 1; n < 5000; n++) {
    const an = n / 2;
    D = z + an * D;
    D = D === 0 ? tiny : D;
    C = z + an / C;
    C = C === 0 ? tiny : C;
    D = 1 / D;
    const delta = C * D;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-z * z) / SQRT_PI / f;
}
/**
 * `scipy.special.ndtr`: the standard normal CDF, as cephes computes it: 0.5 + 0.5 erf(a/√2) near
 * 0, else from erfc, whose exp(-z²) is taken of the rounded z² and underflows to 0 past exp's
 * range (SciPy's far tails, to the last digits).
 */
export function ndtr(a: number): number {
  if (Number.isNaN(a)) return Number.NaN;
  const x = a * Math.SQRT1_2;
  const z = Math.abs(x);
  if (z < Math.SQRT1_2) return 0.5 + 0.5 * erfSeries(x);
  // cephes: exp(-z*z) underflows to 0 past MAXLOG, and is taken as rounded there (SciPy's tails).
  const y = 0.5 * (z * z > 709.782712893384 ? 0 : erfcFraction(z));
  return x > 0 ? 1 - y : y;
}

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
function lgamma(z: number): number {
  if (z < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * z))) - lgamma(1 - z);
  const x = z - 1;
  let s = LANCZOS[0]!;
  for (let i = 1; i < 9; i++) s += LANCZOS[i]! / (x + i);
  const t = x + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(s);
}
/** log B(a, 1/2): exact products for integer and half-integer a (t-tests' df), else log-gammas. */
function logBetaHalf(a: number): number {
  if (a === Math.floor(a) || 2 * a === Math.floor(2 * a)) {
    // r(a) = Γ(a)/Γ(a+1/2): r(1) = 2/√π, r(1/2) = √π; r(a+1) = r(a) · a/(a+1/2).
    let r = a === Math.floor(a) ? 2 / SQRT_PI : SQRT_PI;
    for (let k = a === Math.floor(a) ? 1 : 0.5; k < a; k++) r *= k / (k + 0.5);
    if (a < 400) return Math.log(r * SQRT_PI);
  }
  if (a < 20) return lgamma(a) + lgamma(0.5) - lgamma(a + 0.5);
  // ln Γ(a + 1/2) - ln Γ(a) by Stirling's series, term by term (no cancellation of large logs).
  const c = (z: number) => {
    const z2 = z * z;
    return (1 / 12 - (1 / 360 - (1 / 1260 - 1 / (1680 * z2)) / z2) / z2) / z;
  };
  const d = 0.5 * Math.log(a) + a * Math.log1p(0.5 / a) - 0.5 + (c(a + 0.5) - c(a));
  return 0.5 * Math.log(Math.PI) - d;
}
/** The continued fraction of I_x(a, b) (modified Lentz), x < (a+1)/(a+b+2). */
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < 10000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 2e-16) break;
  }
  return h;
}
/** [I_x(a, 1/2), I_y(1/2, a)] for x + y = 1, each accurate (x and y given separately). */
function betaHalf(a: number, x: number, y: number): [number, number] {
  const b = 0.5;
  if (x <= 0) return [0, 1];
  if (y <= 0) return [1, 0];
  const lnx = y < 0.5 ? Math.log1p(-y) : Math.log(x);
  const lny = x < 0.5 ? Math.log1p(-x) : Math.log(y);
  const front = Math.exp(a * lnx + b * lny - logBetaHalf(a));
  if (x < (a + 1) / (a + b + 2)) {
    const w = (front * betaFraction(a, b, x)) / a;
    return [w, 1 - w];
  }
  const w1 = (front * betaFraction(b, a, y)) / b;
  return [1 - w1, w1];
}
/**
 * `scipy.special.stdtr(df, t)`, the Student t CDF, as SciPy 1.10 computes it (CDFLIB's cdft):
 * from the incomplete beta I_x(df/2, 1/2) at x = df/(df + t²), its complement taken separately,
 * so that both tails keep their digits. NaN for df <= 0 or NaN inputs.
 */
export function stdtr(df: number, t: number): number {
  if (Number.isNaN(df) || Number.isNaN(t) || !(df > 0)) return Number.NaN;
  return cumt(t, df)[0];
}

/** CDFLIB's cumt: [P(T <= t), P(T > t)], both from one incomplete beta pair. */
function cumt(t: number, df: number): [number, number] {
  const tt = t * t;
  const dfptt = df + tt;
  const xx = df / dfptt;
  const yy = tt / dfptt;
  const [a, oma] =
    Number.isNaN(yy) || Number.isNaN(xx) ? (xx > 0 ? [1, 0] : [0, 1]) : betaHalf(0.5 * df, xx, yy);
  if (t <= 0) {
    const cum = 0.5 * a;
    return [cum, oma + cum];
  }
  const ccum = 0.5 * a;
  return [oma + ccum, ccum];
}

/** Horner's rule over coefficients a[0] + a[1] x + … (CDFLIB's devlpl). */
function poly(a: readonly number[], x: number): number {
  let term = a[a.length - 1]!;
  for (let i = a.length - 2; i >= 0; i--) term = a[i]! + term * x;
  return term;
}

/** CDFLIB's dinvnr: the normal quantile of min(p, q) by Newton from Kennedy and Gentle's start (stvaln). */
function normalQuantile(p: number, q: number): number {
  const qporq = p <= q;
  const pp = qporq ? p : q;
  const z = pp <= 0.5 ? pp : 1 - pp;
  const y = Math.sqrt(-2 * Math.log(z));
  let start =
    y +
    poly([-0.322232431088, -1.0, -0.342242088547, -0.204231210245e-1, -0.453642210148e-4], y) /
      poly([0.99348462606e-1, 0.588581570495, 0.531103462366, 0.10353775285, 0.38560700634e-2], y);
  start = pp <= 0.5 ? -start : start;
  let x = start;
  let ok = false;
  for (let i = 0; i < 100; i++) {
    const dx = (ndtr(x) - pp) / (0.3989422804014326 * Math.exp(-0.5 * x * x));
    x -= dx;
    if (Math.abs(dx / x) < 1e-13) {
      ok = true;
      break;
    }
  }
  const r = ok ? x : start;
  return qporq ? r : -r;
}

/** CDFLIB's dt1: the start of the t quantile search (normal quantile plus Cornish-Fisher terms). */
function tStart(p: number, q: number, df: number): number {
  const coef = [
    [1, 1],
    [3, 16, 5],
    [-15, 17, 19, 3],
    [-945, -1920, 1482, 776, 79],
  ];
  const denom = [4, 96, 384, 92160];
  const x = Math.abs(normalQuantile(p, q));
  const xx = x * x;
  let sum = x;
  let denpow = 1;
  for (let i = 0; i < 4; i++) {
    const term = poly(coef[i]!, xx) * x;
    denpow *= df;
    sum += term / (denpow * denom[i]!);
  }
  return p >= 0.5 ? sum : -sum;
}

/** Bus and Dekker's algorithm R as CDFLIB's dzror runs it on a bracket [xlo0, xhi0]: the final xlo. */
function zeroIn(
  f: (x: number) => number,
  xlo0: number,
  xhi0: number,
  abstol: number,
  reltol: number,
): number {
  const ftol = (z: number) => 0.5 * Math.max(abstol, reltol * Math.abs(z));
  let xlo = xlo0;
  let b = xlo;
  let fb = f(b);
  xlo = xhi0;
  let a = xlo;
  const fx = f(a);
  if ((fb < 0 && fx < 0) || (fb > 0 && fx > 0)) return xlo;
  let fa = fx;
  let first = true;
  let c = 0;
  let fc = 0;
  let d = 0;
  let fd = 0;
  let ext = 0;
  let restart = true;
  for (let iter = 0; iter < 1000; iter++) {
    if (restart) {
      c = a;
      fc = fa;
      ext = 0;
      restart = false;
    }
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
    const m = (c + b) * 0.5;
    const mb = m - b;
    if (!(Math.abs(mb) > tol)) return xlo;
    let w: number;
    if (ext > 3) w = mb;
    else {
      tol = mb >= 0 ? Math.abs(tol) : -Math.abs(tol);
      let p = (b - a) * fb;
      let q: number;
      if (first) {
        q = fa - fb;
        first = false;
      } else {
        const fdb = (fd - fb) / (d - b);
        const fda = (fd - fa) / (d - a);
        p = fda * p;
        q = fdb * fa - fda * fb;
      }
      if (p < 0) {
        p = -p;
        q = -q;
      }
      if (ext === 3) p *= 2;
      if (p * 1 === 0 || p <= q * tol) w = tol;
      else if (p < mb * q) w = p / q;
      else w = mb;
    }
    d = a;
    fd = fa;
    a = b;
    fa = fb;
    b = b + w;
    xlo = b;
    fb = f(xlo);
    if (fc * fb >= 0) {
      restart = true;
      continue;
    }
    ext = w === mb ? 0 : ext + 1;
  }
  return xlo;
}

/** CDFLIB's dinvr: bracket the zero by steps from x0 (doubling), then zeroIn; ±bound when none. */
function invert(f: (x: number) => number, x0: number): number {
  const small = -1e100;
  const big = 1e100;
  const absstp = 0.5;
  const relstp = 0.5;
  const stpmul = 5;
  const abstol = 1e-50;
  const reltol = 1e-8;
  if (!(small <= x0 && x0 <= big)) return Number.NaN;
  const fsmall = f(small);
  const fbig = f(big);
  const qincr = fbig > fsmall;
  if (qincr ? fsmall > 0 : fsmall < 0) return small;
  if (qincr ? fbig < 0 : fbig > 0) return big;
  let step = Math.max(absstp, relstp * Math.abs(x0));
  let yy = f(x0);
  if (yy === 0) return x0;
  const qup = (qincr && yy < 0) || (!qincr && yy > 0);
  let xlb: number;
  let xub: number;
  if (qup) {
    xlb = x0;
    xub = Math.min(xlb + step, big);
    for (;;) {
      yy = f(xub);
      const qbdd = (qincr && yy >= 0) || (!qincr && yy <= 0);
      const qlim = xub >= big;
      if (qbdd || qlim) {
        if (qlim && !qbdd) return big;
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
      const qbdd = (qincr && yy <= 0) || (!qincr && yy >= 0);
      const qlim = xlb <= small;
      if (qbdd || qlim) {
        if (qlim && !qbdd) return small;
        break;
      }
      step *= stpmul;
      xub = xlb;
      xlb = Math.max(xub - step, small);
    }
  }
  return zeroIn(f, xlb, xub, abstol, reltol);
}

/**
 * `scipy.special.stdtrit(df, p)`, the t quantile, as SciPy 1.10 computes it: CDFLIB's cdft
 * search (start from dt1, bracket by steps, Bus and Dekker's zero finder) with CDFLIB's
 * tolerance of 1e-8. Its answers differ from the exact quantile by up to ~1e-9; this reproduces
 * the search, so they are SciPy's. NaN outside 0 < p < 1 or for df <= 0.
 */
export function stdtrit(df: number, p: number): number {
  if (Number.isNaN(df) || Number.isNaN(p)) return Number.NaN;
  const q = 1 - p;
  if (p <= 0 || p > 1 || q <= 0 || q > 1 || !(df > 0)) return Number.NaN;
  const qporq = p <= q;
  const f = qporq ? (t: number) => cumt(t, df)[0] - p : (t: number) => cumt(t, df)[1] - q;
  return invert(f, tStart(p, q, df));
}

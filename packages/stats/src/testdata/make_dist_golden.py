"""Golden values of scipy.special ndtr, stdtr and stdtrit for distributions.test.ts.

Run with SciPy 1.10.1 (the version @convkit/stats reproduces):
    /usr/bin/python3 make_dist_golden.py > dist_golden.json
Floats are written with repr (shortest round trip; exponent without "+" or leading zeros),
NaN and infinities as "nan", "inf", "-inf".
Each case is [input..., expected]. stdtrit is not called where SciPy 1.10.1 aborts the process
(CDFLIB's STOP for start values beyond +-1e100, which only tiny df reach).
"""
import math
import sys

import numpy as np
import scipy
from scipy import special

INF = math.inf
NAN = math.nan


def enc(v):
    v = float(v)
    if math.isnan(v):
        return '"nan"'
    if math.isinf(v):
        return '"inf"' if v > 0 else '"-inf"'
    # repr is the shortest round trip; the exponent is written as JSON formatters write it (1e-8, 1e154).
    m, e, x = repr(v).partition("e")
    return m + e + (str(int(x)) if e else "")


def ndtr_cases():
    xs = [-40.0, -38.0, -37.7, -37.677, -37.67, -37.6, -37.5, -37.0, -36.0, -35.0, -30.0, -27.5, -25.0,
          -20.0, -15.0, -11.32, -11.3, -10.0, -8.5, -8.3, -8.0, -7.0, -6.0, -5.0, -4.0, -3.0, -2.5, -2.0,
          -1.5, -1.4142135623730951, -1.4142135623730954, -1.2, -1.0, -0.75, -0.5, -0.25, -0.1, -1e-5,
          -1e-300, 0.0, 5e-324, 1e-10, 0.1, 0.3, 0.5, 1.0, 1.4142135623730951, 1.5, 2.0, 3.0, 5.0, 8.0,
          8.2, 8.3, 9.0, 10.0, 38.0, INF, -INF, NAN]
    rng = np.random.default_rng(20230101)
    xs += [float(v) for v in rng.uniform(-37.5, 9.0, 60)]
    return [[x, special.ndtr(x)] for x in xs]


DFS = [1.0, 2.0, 3.0, 4.0, 5.0, 7.0, 9.0, 10.0, 19.0, 29.0, 30.0, 49.0, 99.0, 197.0, 499.0, 1000.0, 1e6]
# Non-integer and small df reach TOMS 708's other branches (bup + bgrat with a < 1, fpser, apser).
EXTRA_DFS = [0.1, 0.3, 0.7, 1.5, 2.5, 15.3, 31.5]
TS = [0.0, 5e-324, 1e-300, 1e-20, 1e-8, 0.001, 0.1, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0, 40.0, 100.0,
      1e4, 1e8, 1e15, 1e154, 1e155, 1e300, INF, NAN]


def stdtr_cases():
    out = []
    for df in DFS:
        for t in TS:
            out.append([df, t])
            if t != 0.0 and not math.isnan(t):
                out.append([df, -t])
    for df in EXTRA_DFS:
        for t in [0.05, 0.3, 1.0, 3.0, 30.0, 1e6]:
            out += [[df, t], [df, -t]]
    # df < 0.4 with x = df/(df + t^2) below 0.3: bup + bgrat with the incomplete gamma's series
    # and continued fraction (grat1) for a = df/2 < 1.
    for df in [0.002, 0.01, 0.05, 0.1, 0.3]:
        for t in [1e-3, 0.01, 0.05, 0.1, 0.2, 0.5, 0.7, 2.0, 5.0, 50.0, 1e3]:
            out += [[df, t], [df, -t]]
    out += [[4.0, -9.3e15], [499.0, -40.0], [1000.0, -38.0], [1e6, -37.0], [30.0, 2.0452296421327034],
            [1e-300, 1.0], [1e-300, 1e-300], [1e-16, 1e-9], [1e-16, -0.5], [1e-20, 1e-30], [1e10, 1.0],
            [1e300, -2.0]]
    for df in [0.0, -1.0, -INF, INF, NAN]:
        for t in [0.0, -1.5, 2.0, INF, -INF, NAN]:
            out.append([df, t])
    return [[df, t, special.stdtr(df, t)] for df, t in out]


PS = [1e-300, 1e-12, 0.001, 0.025000000000000022, 0.05, 0.3, 0.5, 0.5000001, 0.7, 0.95, 0.975, 0.999,
      1 - 1e-12, 0.0, 1.0]


def stdtrit_cases():
    out = [[df, p] for df in DFS + [1.5, 2.5, 15.3] for p in PS]
    out += [[df, p] for df in DFS for p in [-0.1, 1.1, NAN]]
    for df in [0.0, -1.0, -INF, INF, NAN]:
        for p in PS + [-0.1, 1.1, NAN]:
            out.append([df, p])
    return [[df, p, special.stdtrit(df, p)] for df, p in out]


def main():
    sections = [("ndtr", ndtr_cases()), ("stdtr", stdtr_cases()), ("stdtrit", stdtrit_cases())]
    w = sys.stdout.write
    w('{\n  "source": "scipy %s, numpy %s (make_dist_golden.py)",\n' % (scipy.__version__, np.__version__))
    for k, (name, cases) in enumerate(sections):
        w('  "%s": [\n' % name)
        w(",\n".join("    [" + ", ".join(enc(v) for v in case) + "]" for case in cases))
        w("\n  ]%s\n" % ("," if k < len(sections) - 1 else ""))
    w("}\n")


if __name__ == "__main__":
    main()

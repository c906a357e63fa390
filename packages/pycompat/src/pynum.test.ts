import { execFileSync } from "node:child_process";
import { python, requires } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { numpyArgsort } from "./argsort.js";
import { formatFixed, formatFixedExact } from "./format.js";
import { pythonMean, ratioToDouble } from "./mean.js";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x9e3779b9) >>> 0;
    return s / 2 ** 32;
  };
}

describe("Python numerics", () => {
  it("formatFixed's toFixed fast path equals its exact reference (seeded: random doubles, ties, -0)", () => {
    const r = rng(2024);
    // (The reference takes |x| < 1e21, as the measures give.)
    const xs: number[] = [0, -0, 9.99e20, -9.99e20, 5e-324, -5e-324, Number.NaN, Infinity, -Infinity];
    for (let d = 0; d <= 12; d++)
      for (let k = 0; k < 100; k++) {
        // Exact ties at d places are the odd multiples of 2^-(d+1); also their neighbours.
        const tie = (2 * Math.floor(r() * 1e6) + 1) / 2 ** (d + 1);
        xs.push(tie, -tie, tie + tie * 2 ** -52, tie - tie * 2 ** -52);
      }
    for (let k = 0; k < 3000; k++) {
      const x = (r() - 0.5) * 10 ** Math.floor(r() * 30 - 12);
      xs.push(x, Math.round(x * 10000) / 10000, r(), 1 / (1 + Math.floor(r() * 1000)));
    }
    for (const x of xs)
      for (const d of [0, 1, 2, 4, 6, 9, 12])
        expect(formatFixed(x, d), `${x} to ${d}`).toBe(formatFixedExact(x, d));
  });

  it("ratioToDouble rounds once, ties to even", () => {
    expect(ratioToDouble(1n, 3n)).toBe(1 / 3);
    expect(ratioToDouble(2n ** 53n + 1n, 1n)).toBe(2 ** 53);
    expect(ratioToDouble(2n ** 53n + 3n, 1n)).toBe(2 ** 53 + 4);
    expect(ratioToDouble(-7n, 2n)).toBe(-3.5);
    expect(ratioToDouble(1n, 2n ** 1075n)).toBe(0);
    expect(ratioToDouble(3n, 2n ** 1075n)).toBe(2 ** -1073);
  });

  it("formatFixed rounds exact ties to even as Python does", () => {
    expect([0.125, 0.375, 2.5, 0.5, 1.5].map((x) => formatFixed(x, x >= 0.5 ? 0 : 2))).toEqual([
      "0.12",
      "0.38",
      "2",
      "0",
      "2",
    ]);
    expect(formatFixed(0.30269878618113916, 4)).toBe("0.3027");
    expect(formatFixed(-0.00004, 4)).toBe("-0.0000");
  });

  requires("python3").it("statistics.mean and '{:.4f}' match python3 on random data", () => {
    const r = rng(7);
    const sets = Array.from({ length: 40 }, (_, k) =>
      Array.from({ length: 1 + k * 7 }, () => (r() < 0.2 ? 0 : r() < 0.5 ? Math.floor(r() * 10) / 10 : r())),
    );
    const out = JSON.parse(
      python(
        "import json,sys,statistics\nsets=json.load(sys.stdin)\nprint(json.dumps([[repr(statistics.mean(s)) for s in sets],[format(x,'.4f') for s in sets for x in s]]))",
        JSON.stringify(sets),
      ),
    );
    expect(sets.map((s) => String(pythonMean(s)))).toEqual(out[0].map((x: string) => String(Number(x))));
    expect(sets.flatMap((s) => s.map((x) => formatFixed(x, 4)))).toEqual(out[1]);
  });

  requires("numpy").it("numpyArgsort equals numpy's portable quicksort on data full of ties", () => {
    const r = rng(11);
    const arrays = [
      ...Array.from({ length: 30 }, (_, k) =>
        Array.from({ length: 5 + k * 13 }, () => Math.floor(r() * 6) / 2),
      ),
      Array.from({ length: 3000 }, () => Math.floor(r() * 40)),
      Array.from({ length: 500 }, () => 1),
    ];
    const script =
      "import json,sys,numpy as np\nprint(json.dumps([np.argsort(np.array(a,dtype=np.float64),kind='quicksort').tolist() for a in json.load(sys.stdin)]))";
    // numpy >= 1.25 dispatches argsort to SIMD sorts; disabling every dispatch target leaves the
    // portable quicksort that numpy 1.24 (pandas 1.5's, the goldens') always ran.
    const env = execFileSync("python3", [
      "-c",
      "try:\n from numpy._core import _multiarray_umath as m\nexcept ImportError:\n from numpy.core import _multiarray_umath as m\nprint(' '.join(m.__cpu_dispatch__))",
    ])
      .toString()
      .trim();
    const expected: number[][] = JSON.parse(
      execFileSync("python3", ["-c", script], {
        input: JSON.stringify(arrays),
        env: { ...process.env, NPY_DISABLE_CPU_FEATURES: env },
        maxBuffer: 1 << 26,
      }).toString(),
    );
    for (const [i, a] of arrays.entries()) expect([...numpyArgsort(a)], `array ${i}`).toEqual(expected[i]);
  });
});

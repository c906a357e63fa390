// Every paired test and correction against SciPy 1.10.1 / statsmodels 0.13.5 on ../shared/golden/stats (400 paired, 100 correction cases).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { requires, scipyPython, shared, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { multipleTests } from "./corrections.js";
import { pairedTTest, summarizePair } from "./paired.js";
import { binomTestHalf } from "./sign-test.js";
import { AllZeroDifferences, wilcoxon, wilcoxonOfDifferences } from "./wilcoxon.js";

type Golden = number | string;
const CORRECTED = ["bonferroni", "holm", "fdr_bh", "sidak", "holm-sidak", "fdr_by"] as const;

/** Worst relative error per quantity, and the cases that missed 1e-12 (or identity for exact values). */
class Tally {
  readonly worst = new Map<string, number>();
  readonly misses: string[] = [];
  check(what: string, actual: number, expected: Golden, tol = 1e-12): void {
    let ok: boolean;
    let rel = 0;
    if (expected === "nan") ok = Number.isNaN(actual);
    else if (expected === "inf") ok = actual === Number.POSITIVE_INFINITY;
    else if (expected === "-inf") ok = actual === Number.NEGATIVE_INFINITY;
    else if (typeof expected !== "number") ok = false;
    else if (expected === 0) ok = actual === 0;
    else {
      rel = Math.abs(actual - expected) / Math.abs(expected);
      ok = rel <= tol;
    }
    const key = what.replace(/#\d+/, "");
    this.worst.set(key, Math.max(this.worst.get(key) ?? 0, Number.isNaN(rel) ? Infinity : rel));
    if (!ok && this.misses.length < 20) this.misses.push(`${what}: ${actual} vs ${expected}`);
  }
}

type Case = { kind: string; [k: string]: unknown };
const parse = (text: string): Case[] =>
  text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
const lines = (): Case[] => parse(readFileSync(shared("golden", "stats", "stats_golden.jsonl"), "utf8"));

requires("shared").describe("@convkit/stats against SciPy 1.10.1 and statsmodels 0.13.5 (shared)", () => {
  it("paired cases: means, t-tests, d_z, the 95% interval, Wilcoxon, wins/ties/losses and the sign test", () => {
    expect(checkPaired(lines())).toBe(400);
  });

  it("correction cases: adjusted p-values and rejections of all six methods", () => {
    expect(checkCorrections(lines())).toBe(100);
  });

  // A python3 with SciPy 1.10 and statsmodels 0.13 (Debian 12's; .ci/run installs them): newer
  // SciPy computes stdtrit (the interval) otherwise.
  requires("scipy").it(
    "cases the file does not hold, made now by SciPy 1.10 with the same generator (seed 7)",
    () => {
      const out = join(tempDir(), "cases.jsonl");
      execFileSync(scipyPython(), [shared("golden", "stats", "make_stats_golden.py"), out, "7", "160"], {
        stdio: "ignore",
      });
      const cases = parse(readFileSync(out, "utf8"));
      expect(checkPaired(cases)).toBe(160);
      expect(checkCorrections(cases)).toBe(40);
    },
  );

  requires("scipy").it(
    "what the goldens do not hold: Wilcoxon's continuity correction and one-sided tests, one-sided sign tests",
    () => {
      const script = `
import json, random, sys
from scipy import stats
rnd = random.Random(5)
out = []
for i in range(120):
    n = rnd.choice([3, 6, 11, 25, 60, 140])
    a = [rnd.choice([0.0, 0.25, 0.5, 1.0]) if i % 2 else round(rnd.random(), 3) for _ in range(n)]
    b = [min(1.0, max(0.0, x + rnd.gauss(0.05, 0.2))) if rnd.random() < 0.8 else x for x in a]
    if all(x == y for x, y in zip(a, b)): continue
    e = {}
    for alt in ("two-sided", "greater", "less"):
        for zm in ("wilcox", "pratt"):
            for cc in (False, True):
                r = stats.wilcoxon(a, b, zero_method=zm, correction=cc, alternative=alt, method="approx")
                e[f"w/{alt}/{zm}/{cc}"] = [float(r.statistic), float(r.pvalue)]
        wins = sum(x > y for x, y in zip(a, b)); losses = sum(x < y for x, y in zip(a, b))
        e[f"sign/{alt}"] = stats.binomtest(wins, wins + losses, 0.5, alternative=alt).pvalue
    out.append({"a": a, "b": b, "e": e})
json.dump(out, sys.stdout)
`;
      const cases: { a: number[]; b: number[]; e: Record<string, number | number[]> }[] = JSON.parse(
        execFileSync(scipyPython(), ["-c", script], {
          stdio: ["ignore", "pipe", "ignore"],
          maxBuffer: 1 << 26,
        }).toString(),
      );
      const t = new Tally();
      for (const [i, c] of cases.entries()) {
        for (const alt of ["two-sided", "greater", "less"] as const) {
          for (const zm of ["wilcox", "pratt"] as const)
            for (const cc of [false, true]) {
              const [w, p] = c.e[`w/${alt}/${zm}/${cc ? "True" : "False"}`] as number[];
              const r = wilcoxon(c.a, c.b, {
                zeroMethod: zm,
                correction: cc,
                alternative: alt,
                method: "approx",
              });
              t.check(`wilcoxon/${alt}/${zm}/${cc}/w#${i}`, r.statistic, w!);
              t.check(`wilcoxon/${alt}/${zm}/${cc}/p#${i}`, r.p, p!);
            }
          const wins = c.a.filter((x, k) => x > c.b[k]!).length;
          const losses = c.a.filter((x, k) => x < c.b[k]!).length;
          t.check(`sign/${alt}#${i}`, binomTestHalf(wins, wins + losses, alt), c.e[`sign/${alt}`] as number);
        }
      }
      expect(cases.length).toBeGreaterThan(100);
      expect(t.misses, `worst relative errors: ${JSON.stringify(Object.fromEntries(t.worst))}`).toEqual([]);
    },
  );
});

/** Checks every paired case; returns how many there were. */
function checkPaired(all: Case[]): number {
  const t = new Tally();
  let cases = 0;
  for (const c of all) {
    if (c.kind !== "paired") continue;
    const a = c.a as number[];
    const b = c.b as number[];
    const e = c.expected as Record<string, Golden & Record<string, Golden> & Golden[]>;
    const id = `#${cases}`;
    cases++;
    const s = summarizePair(a, b);
    t.check(`mean_a${id}`, s.meanA, e.mean_a!);
    t.check(`mean_b${id}`, s.meanB, e.mean_b!);
    t.check(`mean_diff${id}`, s.meanDiff, e.mean_diff!);
    t.check(`sd_diff${id}`, s.sdDiff, e.sd_diff!);
    t.check(`cohen_dz${id}`, s.cohenDz, e.cohen_dz!);
    if (e.ci95_diff) {
      t.check(`ci95.lo${id}`, s.ci95[0], e.ci95_diff[0]!);
      t.check(`ci95.hi${id}`, s.ci95[1], e.ci95_diff[1]!);
    }
    expect([s.wins, s.ties, s.losses], `wins_ties_losses${id}`).toEqual(e.wins_ties_losses);
    for (const alt of ["two-sided", "greater", "less"] as const) {
      const r = pairedTTest(a, b, alt);
      const g = e[`ttest_rel/${alt}`] as unknown as Record<string, Golden>;
      t.check(`t/${alt}${id}`, r.t, g.t!);
      t.check(`p/${alt}${id}`, r.p, g.p!);
    }
    for (const zm of ["wilcox", "pratt"] as const) {
      const g = e[`wilcoxon/${zm}/approx`] as unknown as Record<string, Golden>;
      if (g.error !== undefined) {
        expect(() => wilcoxon(a, b, { zeroMethod: zm, method: "approx" }), `wilcoxon ${zm}${id}`).toThrow(
          AllZeroDifferences,
        );
        expect(new AllZeroDifferences().message).toBe(g.error);
        continue;
      }
      const r = wilcoxon(a, b, { zeroMethod: zm, method: "approx" });
      t.check(`wilcoxon/${zm}/w${id}`, r.statistic, g.w!);
      t.check(`wilcoxon/${zm}/p${id}`, r.p, g.p!);
    }
    const ex = e["wilcoxon/wilcox/exact"] as unknown as Record<string, Golden> | undefined;
    if (ex) {
      const d = new Float64Array(a.map((x, i) => x - b[i]!)).filter((x) => x !== 0);
      const r = wilcoxonOfDifferences(d, { method: "exact" });
      t.check(`wilcoxon/exact/w${id}`, r.statistic, ex.w!);
      t.check(`wilcoxon/exact/p${id}`, r.p, ex.p!);
    }
    const sign = e["sign_test/two-sided"] as unknown as Record<string, Golden> | undefined;
    if (sign) t.check(`sign/p${id}`, binomTestHalf(s.wins, s.wins + s.losses), sign.p!);
  }
  expect(t.misses, `worst relative errors: ${JSON.stringify(Object.fromEntries(t.worst))}`).toEqual([]);
  return cases;
}

/** Checks every correction case; returns how many there were. */
function checkCorrections(all: Case[]): number {
  const t = new Tally();
  let cases = 0;
  for (const c of all) {
    if (c.kind !== "correction") continue;
    const e = c.expected as Record<string, { reject: boolean[]; p_adjusted: Golden[] }>;
    for (const method of CORRECTED) {
      const r = multipleTests(c.p as number[], method, c.alpha as number);
      expect(r.reject, `${method} #${cases} reject`).toEqual(e[method]!.reject);
      r.pAdjusted.forEach((x, i) => {
        t.check(`${method}#${cases}`, x, e[method]!.p_adjusted[i]!);
      });
    }
    cases++;
  }
  expect(t.misses, `worst relative errors: ${JSON.stringify(Object.fromEntries(t.worst))}`).toEqual([]);
  return cases;
}

// What this tests: stdtr and stdtrit end to end against SciPy 1.10.1 on ../shared's paired t-test golden (ttest_rel's p, stats.t.interval).
import { readFileSync } from "node:fs";
import { requires, shared } from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";
import { stdtr, stdtrit } from "./distributions.js";

type Encoded = number | string;

/** The fixture's encoding: floats as JSON numbers, NaN and infinities as "nan", "inf", "-inf". */
function decode(v: Encoded): number {
  if (typeof v === "number") return v;
  if (v === "nan") return Number.NaN;
  if (v === "inf") return Number.POSITIVE_INFINITY;
  if (v === "-inf") return Number.NEGATIVE_INFINITY;
  throw new Error(`not an encoded float: ${JSON.stringify(v)}`);
}

/** Checks values against expected ones: relative error within tol, exact for NaN, ±inf, 0 and 1. */
class Tally {
  worst = 0;
  worstAt = "";
  count = 0;
  readonly misses: string[] = [];
  constructor(readonly tol: number) {}

  check(what: string, actual: number, expected: number): void {
    this.count++;
    let ok: boolean;
    if (Number.isNaN(expected)) ok = Number.isNaN(actual);
    else if (!Number.isFinite(expected) || expected === 0 || expected === 1) ok = actual === expected;
    else {
      const rel = Math.abs(actual - expected) / Math.abs(expected);
      const r = Number.isNaN(rel) ? Number.POSITIVE_INFINITY : rel;
      if (r > this.worst) {
        this.worst = r;
        this.worstAt = what;
      }
      ok = r <= this.tol;
    }
    if (!ok) this.misses.push(`${what} = ${actual}, SciPy ${expected}`);
  }

  /** One line for the assertion message: the worst relative error, and the first misses. */
  report(name: string): string {
    const head = `${name}: ${this.count} cases, worst relative error ${this.worst.toExponential(2)} at ${this.worstAt || "-"} (tolerance ${this.tol})`;
    return this.misses.length === 0
      ? head
      : `${head}; ${this.misses.length} misses: ${this.misses.slice(0, 10).join("; ")}`;
  }
}

type PairedCase = {
  kind: string;
  a: number[];
  expected: Record<string, Encoded | Encoded[] | { t: Encoded; p: Encoded } | undefined>;
};

requires("shared").describe(
  "t-test p-values and 95% intervals against SciPy 1.10.1 on ../shared/golden/stats (shared)",
  () => {
    let cases: PairedCase[];
    beforeAll(() => {
      cases = readFileSync(shared("golden", "stats", "stats_golden.jsonl"), "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as PairedCase)
        .filter((c) => c.kind === "paired");
    });

    it("p from stdtr matches ttest_rel's p for every alternative within 1e-12", () => {
      const tally = new Tally(1e-12);
      for (const [i, c] of cases.entries()) {
        const df = c.a.length - 1;
        for (const alt of ["two-sided", "greater", "less"] as const) {
          const r = c.expected[`ttest_rel/${alt}`] as { t: Encoded; p: Encoded };
          const t = decode(r.t);
          const p =
            alt === "two-sided"
              ? stdtr(df, -Math.abs(t)) * 2
              : alt === "greater"
                ? stdtr(df, -t)
                : stdtr(df, t);
          tally.check(`case ${i} ${alt} (df ${df}, t ${t})`, p, decode(r.p));
        }
      }
      expect(cases.length).toBeGreaterThan(300);
      expect(tally.misses, tally.report("ttest_rel p")).toEqual([]);
      console.info(tally.report("ttest_rel p"));
    });

    it("the 95% interval from stdtrit matches stats.t.interval within 1e-12", () => {
      const tally = new Tally(1e-12);
      const q1 = (1.0 - 0.95) / 2;
      const q2 = (1.0 + 0.95) / 2;
      let checked = 0;
      for (const [i, c] of cases.entries()) {
        const ci = c.expected.ci95_diff as Encoded[] | undefined;
        if (ci === undefined) continue;
        const n = c.a.length;
        const mean = decode(c.expected.mean_diff as Encoded);
        const scale = decode(c.expected.sd_diff as Encoded) / Math.sqrt(n);
        // rv_continuous.ppf: _ppf(q, df) * scale + loc
        tally.check(`case ${i} lo (n ${n})`, stdtrit(n - 1, q1) * scale + mean, decode(ci[0]!));
        tally.check(`case ${i} hi (n ${n})`, stdtrit(n - 1, q2) * scale + mean, decode(ci[1]!));
        checked++;
      }
      expect(checked).toBeGreaterThan(300);
      expect(tally.misses, tally.report("ci95_diff")).toEqual([]);
      console.info(tally.report("ci95_diff"));
    });
  },
);

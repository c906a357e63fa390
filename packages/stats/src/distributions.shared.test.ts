// What this tests: stdtr and stdtrit end to end against SciPy 1.10.1 on ../shared's paired t-test golden (ttest_rel's p, stats.t.interval).
import { readFileSync } from "node:fs";
import { requires, shared } from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";
import { stdtr, stdtrit } from "./distributions.js";
import { decode, type Encoded, Tally } from "./testdata/tally.js";

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

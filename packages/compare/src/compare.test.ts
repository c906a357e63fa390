// compareRuns on small tables: pair orientation, topic alignment, and pairs without a p-value kept out of the correction family.
import { describe, expect, it } from "vitest";
import { type CompareOptions, compareRuns } from "./compare.js";
import { formatComparison } from "./format.js";
import type { PerTopicTable } from "./per-topic.js";

const options: CompareOptions = {
  test: "t",
  alternative: "two-sided",
  correction: "bonferroni",
  alpha: 0.05,
  missing: "drop",
  zeroMethod: "wilcox",
  continuity: false,
  permutations: 1000,
  seed: 1,
  threads: 1,
};

function table(runs: Record<string, Record<string, number>>): PerTopicTable {
  return {
    runs: Object.entries(runs).map(([name, v]) => ({
      name,
      values: new Map([["map", new Map(Object.entries(v))]]),
    })),
  };
}

describe("compareRuns", () => {
  const base = { q1: 0.1, q2: 0.2, q3: 0.3, q4: 0.4, q5: 0.5 };
  const up = { q1: 0.2, q2: 0.31, q3: 0.39, q4: 0.52, q5: 0.6 };

  it("identical runs have no p-value and stay out of the correction family", async () => {
    const c = await compareRuns(table({ base, same: { ...base }, up }), options);
    expect(c.pairs.map((p) => [p.a, p.b])).toEqual([
      ["base", "same"],
      ["base", "up"],
      ["same", "up"],
    ]);
    const [same, a, b] = c.pairs;
    expect(Number.isNaN(same!.p)).toBe(true);
    expect(same!.reject).toBe(false);
    // Bonferroni over the two pairs that have a p-value: p times 2, not 3.
    expect(a!.p_adjusted).toBe(Math.min(1, a!.p * 2));
    expect(b!.p_adjusted).toBe(Math.min(1, b!.p * 2));
  });

  it("a baseline puts each run first and the baseline second; missing topics dropped or counted 0", async () => {
    const short = { q1: 0.9, q2: 0.9 };
    const c = await compareRuns(table({ base, short }), { ...options, baseline: "base" });
    expect([c.pairs[0]!.a, c.pairs[0]!.b, c.pairs[0]!.n]).toEqual(["short", "base", 2]);
    const z = await compareRuns(table({ base, short }), { ...options, missing: "zero" });
    expect([z.pairs[0]!.n, z.pairs[0]!.wins, z.pairs[0]!.losses]).toEqual([5, 3, 2]);
    expect(z.measures[0]!.means[1]).toBeCloseTo(1.8 / 5, 15);
  });

  it("JSON keeps the sign of an infinite t (constant non-zero differences) and tells NaN apart", async () => {
    // Dyadic values: b - a is exactly +0.25 on every topic, so SciPy's ttest_rel gives t = ±inf, p = 0.
    const exact = { q1: 0.125, q2: 0.25, q3: 0.375, q4: 0.5, q5: 0.625 };
    const shifted = Object.fromEntries(Object.entries(exact).map(([q, v]) => [q, v + 0.25]));
    const c = await compareRuns(table({ base: exact, shifted, same: { ...exact } }), options);
    const t = c.pairs.find((p) => p.a === "base" && p.b === "shifted")!.t;
    expect(Math.abs(t)).toBe(Number.POSITIVE_INFINITY);
    const pairs = JSON.parse(formatComparison(c, "json")).pairs as Record<string, unknown>[];
    const byRuns = (a: string, b: string) => pairs.find((p) => p.a === a && p.b === b)!;
    const up = byRuns("base", "shifted");
    expect(up.t).toBe(t > 0 ? "inf" : "-inf");
    expect(up.p).toBe(0);
    const down = byRuns("shifted", "same");
    expect(down.t).toBe(up.t === "inf" ? "-inf" : "inf");
    // Identical runs: t and p are NaN (no value), written as null, not as an infinity.
    const same = byRuns("base", "same");
    expect(same.t).toBeNull();
    expect(same.p).toBeNull();
  });
});

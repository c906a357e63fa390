// convkit-compare's wiring: per-topic files as trec_eval -q writes them, topic alignment, pairs, formats, and bad input as one line with exit 2.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, runCli, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

/** A trec_eval -q file: padded measure names, an `all` block and runid, as trec_eval prints them. */
function perTopic(dir: string, name: string, values: Record<string, number[]>, topics: string[]): string {
  let s = "";
  for (const [m, v] of Object.entries(values))
    topics.forEach((t, i) => {
      s += `${m.padEnd(22)}\t${t}\t${v[i]!.toFixed(4)}\n`;
    });
  for (const t of topics) s += `${"num_ret".padEnd(22)}\t${t}\t1000\n`;
  s += `${"runid".padEnd(22)}\tall\t${name}\n${"num_q".padEnd(22)}\tall\t${topics.length}\n`;
  for (const m of Object.keys(values)) s += `${m.padEnd(22)}\tall\t0.5000\n`;
  const p = join(dir, name);
  writeFileSync(p, s);
  return p;
}

describe("convkit-compare", () => {
  const dir = tempDir();
  const topics = Array.from({ length: 30 }, (_, i) => String(301 + i));
  const base = topics.map((_, i) => 0.2 + ((i * 7) % 10) / 40);
  const a = perTopic(dir, "base.q", { map: base, P_10: base.map((x) => x / 2) }, topics);
  const b = perTopic(
    dir,
    "better.q",
    { map: base.map((x) => x + 0.05), P_10: base.map((x, i) => x / 2 + (i % 2 ? 0.01 : -0.01)) },
    topics,
  );
  const c = perTopic(dir, "fewer.q", { map: base.slice(0, 20) }, topics.slice(0, 20));

  it("reads trec_eval -q files (the all lines, runid and counts skipped) and tests each run against the baseline", () => {
    const r = runCli("compare", ["--per-topic", "--baseline", "base.q", "--format", "json", a, b]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.runs).toEqual(["base.q", "better.q"]);
    expect(j.measures.map((m: { name: string; topics: number }) => [m.name, m.topics])).toEqual([
      ["map", 30],
      ["P_10", 30],
    ]);
    const map = j.pairs.find((p: { measure: string }) => p.measure === "map");
    expect([map.a, map.b, map.wins, map.ties, map.losses]).toEqual(["better.q", "base.q", 30, 0, 0]);
    expect(map.mean_diff).toBeCloseTo(0.05, 12);
    expect(map.reject).toBe(true);
    const p10 = j.pairs.find((p: { measure: string }) => p.measure === "P_10");
    expect(p10.reject).toBe(false);
  });

  it("--qrels: trec_eval's measures per topic; --missing zero is trec_eval -c (its own test files)", () => {
    const fx = (f: string) => join(REPO, "test", "fixtures", "trec_eval", f);
    const args = ["--qrels", fx("qrels.test"), "-m", "map", "-m", "P.10", "--format", "json"];
    const runs = [fx("results.test"), fx("results.trunc")];
    const drop = JSON.parse(runCli("compare", [...args, ...runs]).stdout);
    expect(drop.measures.map((m: { name: string; topics: number }) => [m.name, m.topics])).toEqual([
      ["map", 2],
      ["P_10", 2],
    ]);
    const zero = JSON.parse(runCli("compare", [...args, "--missing", "zero", ...runs]).stdout);
    expect(zero.measures.map((m: { topics: number }) => m.topics)).toEqual([3, 3]);
    // trec_eval's own `all` lines (4 digits): results.test with -q (out.test.aq), results.trunc with -c (out.test.aqc).
    const all = (file: string, m: string) =>
      Number(
        readFileSync(fx(file), "utf8")
          .split("\n")
          .find((l) => l.startsWith(`${m.padEnd(22)}\tall\t`))!
          .split("\t")[2],
      );
    expect(Math.abs(zero.measures[0].means[0] - all("out.test.aq", "map"))).toBeLessThan(5e-5);
    expect(Math.abs(zero.measures[1].means[0] - all("out.test.aq", "P_10"))).toBeLessThan(5e-5);
    expect(Math.abs(zero.measures[0].means[1] - all("out.test.aqc", "map"))).toBeLessThan(5e-5);
    expect(Math.abs(zero.measures[1].means[1] - all("out.test.aqc", "P_10"))).toBeLessThan(5e-5);
  });

  it("topics every run has, or every topic with a missing one counted 0", () => {
    const drop = JSON.parse(runCli("compare", ["--per-topic", "-m", "map", "--format", "json", a, c]).stdout);
    expect(drop.pairs[0].n).toBe(20);
    const zero = JSON.parse(
      runCli("compare", ["--per-topic", "-m", "map", "--missing", "zero", "--format", "json", a, c]).stdout,
    );
    expect(zero.pairs[0].n).toBe(30);
    expect(zero.pairs[0].wins).toBe(10);
  });

  it("LaTeX as papers print it: best bold, superscript letters of the runs beaten, the test named in the caption", () => {
    const r = runCli("compare", ["--per-topic", "-m", "map", "--format", "latex", a, b]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("\\textbf{");
    expect(r.stdout).toMatch(/\(b\) better\.q & \\textbf\{0\.\d{4}\}\$\^\{a\}\$ \\\\/);
    expect(r.stdout).toContain("paired t-test, two-sided; Holm correction per measure");
    const md = runCli("compare", ["--per-topic", "-m", "map", "--format", "markdown", a, b]).stdout;
    expect(md).toMatch(/\| \(b\) better\.q \| \*\*0\.\d{4}\*\*<sup>a<\/sup> \|/);
    const csv = runCli("compare", ["--per-topic", "--format", "csv", a, b]).stdout.split("\n");
    expect(csv[0]).toBe(
      "measure,a,b,n,mean_a,mean_b,mean_diff,t,statistic,p,p_adjusted,reject,cohen_dz,ci95_low,ci95_high,wins,ties,losses",
    );
    expect(csv).toHaveLength(4);
    const table = runCli("compare", ["--per-topic", a, b]).stdout;
    expect(table).toContain("(b) better.q");
    expect(table).toMatch(/map\s+base\.q\s+better\.q/);
  });

  it("randomization: the same p on 1 and 2 threads, and again", () => {
    const args = [
      "--per-topic",
      "--test",
      "randomization",
      "--permutations",
      "3000",
      "--format",
      "json",
      a,
      b,
      c,
    ];
    const one = runCli("compare", [...args, "--threads", "1"]);
    const two = runCli("compare", [...args, "--threads", "2"]);
    expect(one.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect(runCli("compare", [...args, "--threads", "2"]).stdout).toBe(one.stdout);
  });

  const bad = (args: string[], pattern: RegExp) => {
    const r = runCli("compare", args);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe("");
    // One line; a usage error adds the --help hint, as every convkit command does.
    const [first, ...rest] = r.stderr.trim().split("\n");
    expect(first).toMatch(pattern);
    expect(rest.filter((l) => l !== "Try 'convkit-compare --help'.")).toEqual([]);
  };

  it("bad input: one line, exit 2", () => {
    const other = perTopic(dir, "other.q", { map: [0.1, 0.2] }, ["901", "902"]);
    bad(["--per-topic", a, other], /no common|none in common/);
    bad(["--per-topic", "-m", "ndcg", a, b], /measure ndcg/);
    const broken = join(dir, "broken.q");
    writeFileSync(broken, "map\t301\t0.5\nmap 302 0.5\n");
    bad(["--per-topic", a, broken], /broken\.q:2: expected measure<TAB>topic<TAB>value, found map 302 0\.5/);
    const nan = join(dir, "nan.q");
    writeFileSync(nan, "map\t301\tabc\n");
    bad(["--per-topic", a, nan], /nan\.q:1: expected a number in the value field, found abc/);
    bad(["--per-topic", a], /RUN|two|2/);
    bad(["--per-topic", "--qrels", a, a, b], /exactly one of/);
    bad(["--per-topic", "--baseline", "nope", a, b], /--baseline nope/);
    bad(["--per-topic", "--test", "z", a, b], /--test/);
  });
});

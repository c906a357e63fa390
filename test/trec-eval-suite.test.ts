// trec_eval's own acceptance suite (its `make quicktest`), on its test files: for every case, the
// lines convkit-trec-eval prints equal trec_eval's lines for the same measures, in the same
// order, and no measure convkit has is missing. Cases needing what convkit lacks (-R prefs,
// -R qrels_jg, -Z z-scores, relstring, utility, ndcg with gain maps) run without those parts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, runCliAsync } from "@convkit/test-helpers";
import { MEASURES } from "@convkit/trec-eval";
import { describe, expect, it } from "vitest";

const DIR = join(REPO, "test/fixtures/trec_eval");
const f = (name: string) => join(DIR, name);

/** Whether a trec_eval output line's measure is one convkit has (`P_5` of P, `11pt_avg_.25,.5` of 11pt_avg). */
const ours = (name: string) =>
  MEASURES.some((m) => name === m || (name.startsWith(`${m}_`) && /^[\d.,]/.test(name.slice(m.length + 1))));

// [expected output, convkit's arguments] for each quicktest line.
const CASES: [string, string[]][] = [
  ["out.test", [f("qrels.test"), f("results.test")]],
  ["out.test", [f("qrels.test.with-comments"), f("results.test")]],
  ["out.comment.test", [f("qrels.comment.test.gz"), f("results.comment.test.gz")]],
  ["out.test.a", ["-m", "all_trec", f("qrels.test"), f("results.test")]],
  ["out.test.aq", ["-m", "all_trec", "-q", f("qrels.test"), f("results.test")]],
  ["out.test.aqc", ["-m", "all_trec", "-q", "-c", f("qrels.test"), f("results.trunc")]],
  ["out.test.aqcM", ["-m", "all_trec", "-q", "-c", "-M100", f("qrels.test"), f("results.trunc")]],
  // trec_eval: -m all_trec -mrelstring.20 -q -l2 (relstring left out)
  ["out.test.aql", ["-m", "all_trec", "-q", "-l2", f("qrels.rel_level"), f("results.test")]],
  // trec_eval: … -mutility.2,-1,0,0 … -mndcg.1=3,2=9,4=4.5 … (utility and ndcg left out)
  [
    "out.test.meas_params",
    [
      "-q",
      "-miprec_at_recall..10,.20,.25,.75,.50",
      "-m",
      "P.5,7,3",
      "-m",
      "recall.20,2000",
      "-m",
      "Rprec_mult.5.0,0.2,0.35",
      "-m",
      "11pt_avg..25,.5,.75",
      "-mndcg_cut.10,20,23.4",
      "-msuccess.2,5,20",
      f("qrels.test"),
      f("results.test"),
    ],
  ],
];

describe("trec_eval's quicktest suite", () => {
  it.each(CASES)("%s: %j", async (expectedFile, args) => {
    const r = await runCliAsync("trec-eval", args);
    expect(r.code, r.stderr).toBe(0);
    const got = r.stdout.split("\n").filter(Boolean);
    const expected = readFileSync(f(expectedFile), "utf8").split("\n").filter(Boolean);
    const name = (line: string) => line.split("\t")[0]!.trimEnd();
    const wanted = expected.filter((l) => ours(name(l)));
    expect(got).toEqual(wanted);
    // The case tests something: most of trec_eval's lines are measures convkit has.
    expect(wanted.length).toBeGreaterThan(expected.length / 2);
    // Without -m (trec_eval's default set), byte for byte, nothing left out.
    if (!args.some((a) => a.startsWith("-m"))) expect(r.stdout).toBe(readFileSync(f(expectedFile), "utf8"));
  });

  it("a run with no topic in the qrels is one line and exit 2 (trec_eval: No queries with both results and relevance info)", async () => {
    const r = await runCliAsync("trec-eval", [f("qrels.test"), "-"], "999 Q0 d1 1 1.5 x\n");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `<stdin>: expected topics judged in ${f("qrels.test")}, found none (trec_eval: No queries with both results and relevance info)\n`,
    );
  });
});

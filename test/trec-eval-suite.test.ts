// trec_eval's own acceptance suite (its `make quicktest`), on its test files: for every case of
// the qrels kind, convkit-trec-eval prints trec_eval's expected output byte for byte. The cases
// convkit does not take are its other input kinds (-R prefs, -R qrels_prefs, -R qrels_jg) and
// -Z z-scores: convkit refuses those flags (a usage error, exit 2).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, runCliAsync } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const DIR = join(REPO, "test/fixtures/trec_eval");
const f = (name: string) => join(DIR, name);

// [expected output, convkit's arguments] for each quicktest line.
const CASES: [string, string[]][] = [
  ["out.test", [f("qrels.test"), f("results.test")]],
  ["out.test", [f("qrels.test.with-comments"), f("results.test")]],
  ["out.comment.test", [f("qrels.comment.test.gz"), f("results.comment.test.gz")]],
  ["out.test.a", ["-m", "all_trec", f("qrels.test"), f("results.test")]],
  ["out.test.aq", ["-m", "all_trec", "-q", f("qrels.test"), f("results.test")]],
  ["out.test.aqc", ["-m", "all_trec", "-q", "-c", f("qrels.test"), f("results.trunc")]],
  ["out.test.aqcM", ["-m", "all_trec", "-q", "-c", "-M100", f("qrels.test"), f("results.trunc")]],
  [
    "out.test.aql",
    ["-m", "all_trec", "-mrelstring.20", "-q", "-l2", f("qrels.rel_level"), f("results.test")],
  ],
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
      "-mutility.2,-1,0,0",
      "-m",
      "11pt_avg..25,.5,.75",
      "-mndcg.1=3,2=9,4=4.5",
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
    expect(r.stdout).toBe(readFileSync(f(expectedFile), "utf8"));
  });

  it.each([
    ["-R", "prefs"],
    ["-Z", f("qrels.test")],
  ])("refuses what it does not take (%s): a usage error naming it, exit 2", async (flag, value) => {
    const r = await runCliAsync("trec-eval", [flag, value, f("qrels.test"), f("results.test")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`^convkit-trec-eval: Unknown option '${flag}'.*\nTry 'convkit-trec-eval --help'.\n$`),
    );
    expect(r.stdout).toBe("");
  });

  it("a run with no topic in the qrels is one line and exit 2 (trec_eval: No queries with both results and relevance info)", async () => {
    const r = await runCliAsync("trec-eval", [f("qrels.test"), "-"], "999 Q0 d1 1 1.5 x\n");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `<stdin>: expected topics judged in ${f("qrels.test")}, found none (trec_eval: No queries with both results and relevance info)\n`,
    );
  });
});

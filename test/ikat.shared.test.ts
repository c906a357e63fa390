// convkit-ikat on the official files: every sample run judged, every topic file flattened, the passage-id database.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requires, runCli, shared, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

const D = (...p: string[]) => shared("data", "ikat", ...p);

requires("shared").describe("convkit-ikat validate on the official sample runs (shared)", () => {
  const validate = (year: string, topics: string, run: string, extra: string[] = []) =>
    runCli("ikat", ["validate", "--year", year, "--topics", D(topics), D("run_validation", run), ...extra]);

  // The sample runs' official verdicts: apps/ikat/src/validate.shared.test.ts.

  it("--passages-db: ids missing from the collection are the official passage service's warnings, past --max-warnings fatal", () => {
    const db = join(tempDir(), "p.sqlite");
    const b = runCli("ikat", ["build-db", D("run_validation", "sample_hashes.tsv"), "--db", db]);
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toMatch(/^10000 rows in /);
    const r = validate("2024", "2024_test_topics.json", "2024_sample_run.json", ["--passages-db", db]);
    expect(r.stderr).toMatch(
      /warning \(turn 0_1\): Provenance with ID clueweb22-en0025-76-08262:14 does not exist in the passage collection/,
    );
    const missing = (r.stderr.match(/does not exist in the passage collection/g) ?? []).length;
    expect(missing).toBeGreaterThan(0);
    expect(r.code, r.stderr).toBe(missing > 2000 ? 2 : 0);
  });

  it("--passages-db: a missing file or a file that is not a database is one line, exit 2 (and no file is created)", () => {
    const dir = tempDir();
    const absent = join(dir, "absent.sqlite");
    const notDb = join(dir, "not-a-db.sqlite");
    writeFileSync(notDb, "doc_id\tk\tmd5\n".repeat(500));
    for (const [db, found] of [
      [absent, "no such file"],
      [notDb, "file is not a database"],
    ] as const) {
      const r = validate("2024", "2024_test_topics.json", "2024_sample_run.json", ["--passages-db", db]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(
        `${db}: expected a passage-id database (convkit-ikat build-db), found ${found}\n`,
      );
    }
    expect(existsSync(absent)).toBe(false);
  });
});

requires("shared").describe("convkit-ikat flatten, convert, eval on the official files (shared)", () => {
  it("flattens every topic file: the turn counts of 2023 train/test, 2024, 2025", () => {
    const counts: Record<string, [number, number]> = {
      "2023_train_topics.json": [11, 95],
      "2023_test_topics.json": [25, 332],
      "2024_test_topics.json": [17, 218],
      "2025_test_topics.json": [17, 188],
    };
    for (const [file, [topics, turns]] of Object.entries(counts)) {
      const out = join(tempDir(), "t.jsonl");
      expect(runCli("ikat", ["flatten", D(file), "-o", out]).code).toBe(0);
      const recs = readFileSync(out, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(recs.length, file).toBe(turns);
      expect(new Set(recs.map((r) => r.topic)).size, file).toBe(topics);
      for (const r of recs) {
        expect(r.turn_id).toBe(`${r.topic}_${r.turn}`);
        expect(r.history.every((h: { turn_id: string }) => Number(h.turn_id.split("_")[1]) < r.turn)).toBe(
          true,
        );
      }
    }
  });

  it("convert: the 2024 sample run to TREC lines and back to a submission that validates", () => {
    const dir = tempDir();
    expect(
      runCli("ikat", ["convert", D("run_validation", "2024_sample_run.json"), "-o", join(dir, "run.trec")])
        .code,
    ).toBe(0);
    const lines = readFileSync(join(dir, "run.trec"), "utf8").trim().split("\n");
    expect(lines[0]).toBe("0_1\tQ0\tclueweb22-en0025-76-08262:14\t1\t1.5800886154174805\tsample_run");
    expect(new Set(lines.map((l) => l.split("\t")[0])).size).toBe(218);
    const back = runCli("ikat", [
      "convert",
      "--from-trec",
      join(dir, "run.trec"),
      "-o",
      join(dir, "back.json"),
    ]);
    expect(back.code, back.stderr).toBe(0);
    const v = runCli("ikat", [
      "validate",
      "--year",
      "2024",
      "--topics",
      D("2024_test_topics.json"),
      join(dir, "back.json"),
    ]);
    expect(v.code, v.stderr).toBe(0);
  });

  it("eval-ptkb: the 2024 sample run's PTKB ranking against the topics", () => {
    const r = runCli("ikat", [
      "eval-ptkb",
      "--topics",
      D("2024_test_topics.json"),
      D("run_validation", "2024_sample_run.json"),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const values = Object.fromEntries(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => [l.split("\t")[0]!.trim(), Number(l.split("\t")[2])]),
    );
    expect(Object.keys(values)).toEqual(["P", "R", "P@1", "P@3", "P@5", "MAP", "num_turns"]);
    const topics = JSON.parse(readFileSync(D("2024_test_topics.json"), "utf8"));
    const judged = topics
      .flatMap((t: { turns: { ptkb_provenance: unknown[] }[] }) => t.turns)
      .filter((u: { ptkb_provenance: unknown[] }) => u.ptkb_provenance.length > 0).length;
    expect(values.num_turns).toBe(judged);
    for (const m of ["P", "R", "MAP"]) expect(values[m]).toBeGreaterThanOrEqual(0);
  });

  it("eval-passages: the converted run scored as convkit-trec-eval scores the TREC lines", () => {
    const dir = tempDir();
    const run = D("run_validation", "2024_sample_run.json");
    expect(runCli("ikat", ["convert", run, "-o", join(dir, "run.trec")]).code).toBe(0);
    // Qrels for a few turns: grades -1..3 on some of the run's passages and a few it missed.
    const lines = readFileSync(join(dir, "run.trec"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    const qrels = lines
      .filter((_, i) => i % 3 === 0)
      .map((l, i) => `${l[0]} 0 ${l[2]} ${(i % 5) - 1}`)
      .concat(["0_1 0 clueweb22-en0000-00-00000:0 2", "0_2 0 clueweb22-en0000-00-00001:0 1"]);
    writeFileSync(join(dir, "qrels"), `${qrels.join("\n")}\n`);
    const ours = runCli("ikat", [
      "eval-passages",
      "--qrels",
      join(dir, "qrels"),
      run,
      "-m",
      "ndcg_cut.5",
      "-m",
      "P.20",
      "-m",
      "map",
      "-q",
    ]);
    expect(ours.code, ours.stderr).toBe(0);
    const ref = runCli("trec-eval", [
      "-q",
      "-m",
      "ndcg_cut.5",
      "-m",
      "P.20",
      "-m",
      "map",
      join(dir, "qrels"),
      join(dir, "run.trec"),
    ]);
    const strip = (s: string) => s.split("\n").filter((l) => !l.startsWith("runid"));
    expect(strip(ours.stdout)).toEqual(strip(ref.stdout));
    expect(ours.stdout).toMatch(/^map\s+\t0_1\t/m);
  });
});

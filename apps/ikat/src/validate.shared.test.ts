// convkit-ikat validate and convert (2023/2024) as a user runs them: the official sample runs, jsonl
// findings, the converted bytes, and bad input as one line.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { requires, runCli, shared, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

const D = (...p: string[]) => shared("data", "ikat", ...p);
const validate = (year: string, run: string, extra: string[] = []) =>
  runCli("ikat", ["validate", "--year", year, "--topics", D(`${year}_test_topics.json`), run, ...extra]);

requires("shared").describe(
  "convkit-ikat validate: the official sample runs get the official verdicts (shared)",
  () => {
    // Verdicts and first ERROR lines from the official checkers themselves (2023|2024/scripts/
    // run_validation/main.py RUN -S, protobuf 7.36.2, Python 3.11): 255 for all but 2024's sample run.
    const official: [string, string, 0 | 2, RegExp][] = [
      ["2023", "2023_sample_run.json", 2, /The run contains 6 turns, but the test topics contain 332 turns/],
      [
        "2023",
        "2023_sample_run_invalid_scores.json",
        2,
        /Failed to parse score field: Couldn't parse float: abcdef/,
      ],
      [
        "2023",
        "2023_sample_run_missing_ptkb_fields.json",
        2,
        /The run contains 6 turns, but the test topics contain 332/,
      ],
      [
        "2023",
        "2023_sample_run_no_ptkb.json",
        2,
        /The run contains 12 turns, but the test topics contain 332/,
      ],
      [
        "2023",
        "2023_sample_run_renamed_fields.json",
        2,
        /Message type "Turn" has no field named "turn_number"/,
      ],
      ["2024", "2024_sample_run.json", 0, /^$/],
      [
        "2024",
        "2024_sample_run_invalid_scores.json",
        2,
        /Failed to parse score field: Couldn't parse float: abcdef/,
      ],
      [
        "2024",
        "2024_sample_run_missing_ptkb_fields.json",
        2,
        /Failed to parse ptkb_provenance field: int\(\) argument/,
      ],
      [
        "2024",
        "2024_sample_run_no_ptkb.json",
        2,
        /The run contains 12 turns, but the test topics contain 218/,
      ],
      [
        "2024",
        "2024_sample_run_renamed_fields.json",
        2,
        /Message type "Turn" has no field named "turn_number"/,
      ],
    ];
    for (const [year, run, code, first] of official)
      it(`${run}: exit ${code}, the official checker's first ERROR`, () => {
        const r = validate(year, D("run_validation", run), ["--format", "jsonl"]);
        expect(r.code, r.stderr).toBe(code);
        expect(r.stderr).toBe("");
        const records = r.stdout
          .trim()
          .split("\n")
          .filter((l) => l !== "")
          .map((l) => JSON.parse(l));
        for (const rec of records) expect(Object.keys(rec)).toEqual(["line", "level", "turn", "message"]);
        const official = records.filter((rec) => !rec.message.startsWith("convkit: "));
        if (code === 0) {
          expect(official).toEqual([]);
          // A run the organizers pass, with int ranks and scores, gets no complaint of convkit's either.
          expect(records).toEqual([]);
        } else {
          expect(official).toHaveLength(1);
          expect(official[0].level).toBe("error");
          expect(official[0].message).toMatch(first);
        }
      });

    it("text: a run the checker cannot read is one line naming the file's line, exit 2, no stack trace", () => {
      const r = validate("2024", D("run_validation", "2024_sample_run_invalid_scores.json"));
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split("\n"), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(
        /2024_sample_run_invalid_scores\.json:\d+: expected a run the official checker reads, found Run file not in the right format \(.*score.*abcdef/,
      );
      expect(r.stderr).not.toMatch(/ {4}at /);
    });

    it("text: warnings with their line and turn, convkit's own marked, the verdict last; --strict fails on convkit's errors", () => {
      const run = gunzipSync(readFileSync(shared("golden", "ikat-checkers", "2024", "004", "run.json.gz")));
      const file = join(tempDir(), "run.json");
      writeFileSync(file, run);
      const r = validate("2024", file);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /run\.json:\d+: warning \(turn 12_3\): Provenance entry with ID clueweb22-en0040-60-02557:3 in turn 12_3 has a greater score/,
      );
      expect(r.stderr).toMatch(/warning \(turn 12_3\): convkit: .*scores must not increase/);
      expect(r.stderr).toMatch(/: valid \(0 errors, \d+ warnings\)\n$/);
      const strict = validate("2024", file, ["--strict"]);
      expect(strict.code).toBe(2);
      expect(strict.stderr).toMatch(/error \(turn 12_3\): convkit: .*scores must not increase/);
      expect(strict.stderr).toMatch(/INVALID/);
    });

    it("a run of 0 turns: the official checker logs an ERROR and still exits 0, and so does convkit", () => {
      // main.py's validate() returns after that log line without sys.exit(255) (measured: exit 0).
      const file = join(tempDir(), "run.json");
      writeFileSync(file, '{"run_name": "r", "run_type": "automatic", "turns": []}');
      const r = validate("2023", file, ["--format", "jsonl"]);
      expect(r.code).toBe(0);
      expect(r.stdout.split("\n")[0]).toBe(
        '{"line":null,"level":"error","turn":null,"message":"Loaded run file has 0 turns, not performing any validation!"}',
      );
    });

    it("--max-warnings: past it the official checker's abort, exit 2", () => {
      const file = join(tempDir(), "run.json");
      writeFileSync(
        file,
        gunzipSync(readFileSync(shared("golden", "ikat-checkers", "2024", "007", "run.json.gz"))),
      );
      const r = validate("2024", file, ["--max-warnings", "1", "--format", "jsonl"]);
      expect(r.code).toBe(2);
      expect(r.stdout).toMatch(
        /"level":"error","turn":"16_8","message":"Maximum number of warnings exceeded \(2 > 1\), aborting!"/,
      );
    });
  },
);

requires("shared").describe("convkit-ikat convert: generate_run.py's bytes (shared)", () => {
  const golden = (year: string, c: string, f: string) => shared("golden", "ikat-checkers", year, c, f);

  it("the official 2024 sample run: the bytes of generate_run.py on stdout without -o, in -o FILE with it", () => {
    const want = gunzipSync(readFileSync(golden("2024", "000", "trec.run.gz"))).toString("utf8");
    const r = runCli("ikat", ["convert", D("run_validation", "2024_sample_run.json")]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout === want).toBe(true);
    const out = join(tempDir(), "run.json.run");
    expect(
      runCli("ikat", ["convert", "--year", "2024", D("run_validation", "2024_sample_run.json"), "-o", out])
        .code,
    ).toBe(0);
    expect(readFileSync(out, "utf8") === want).toBe(true);
  });

  it("where generate_run.py fails (a response of rank -1): one line, exit 2, nothing written", () => {
    const file = join(tempDir(), "run.json");
    writeFileSync(file, gunzipSync(readFileSync(golden("2024", "045", "run.json.gz"))));
    expect(existsSync(golden("2024", "045", "trec.rc"))).toBe(true);
    const out = join(tempDir(), "out.run");
    const r = runCli("ikat", ["convert", file, "-o", out]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(
      /run\.json:\d+: expected a run generate_run\.py reads, found turn 8_4: a response of rank -1/,
    );
    expect(existsSync(out)).toBe(false);
  });
});

requires("shared").it(
  "bad input: not JSON, and a field of the wrong type: one line naming the line, exit 2, no stack trace",
  () => {
    const dir = tempDir();
    const topics = D("2023_test_topics.json");
    const notJson = join(dir, "a.json");
    writeFileSync(notJson, '{"run_name": "r",\n  "run_type": "automatic",\n  "turns": [}\n');
    const wrongType = join(dir, "b.json");
    writeFileSync(
      wrongType,
      '{"run_name": "r", "run_type": "automatic",\n "turns": [{"turn_id": "1-1_1",\n  "responses": [{"rank": "first"}]}]}\n',
    );
    for (const [file, where, what] of [
      [notJson, "a.json:3(:13)?", "Expecting value"],
      [
        wrongType,
        "b.json:3",
        "Failed to parse rank field: invalid literal for int\\(\\) with base 10: 'first'",
      ],
    ] as const) {
      for (const args of [
        ["validate", "--year", "2023", "--topics", topics, file],
        ["convert", file, "-o", join(dir, "out.run")],
      ]) {
        const r = runCli("ikat", args);
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr.trimEnd().split("\n"), r.stderr).toHaveLength(1);
        expect(r.stderr).toMatch(new RegExp(`${where}: expected .*${what}`));
        expect(r.stderr).not.toMatch(/ {4}at /);
      }
    }
    expect(existsSync(join(dir, "out.run"))).toBe(false);
  },
);

requires("shared").it(
  "options the year's checker has no use for are usage errors, not ignored; --fix never overwrites the run",
  () => {
    const run24 = D("run_validation", "2024_sample_run.json");
    const dir = tempDir();
    const run25 = join(dir, "run.jsonl");
    writeFileSync(run25, "{}\n");
    const t25 = D("2025_test_topics.json");
    for (const [args, what] of [
      [
        ["--year", "2024", "--topics", D("2024_test_topics.json"), "--fix", join(dir, "x"), run24],
        /--fix is for --year 2025/,
      ],
      [["--year", "2025", "--topics", t25, "--strict", run25], /--strict is for --year 2023\/2024/],
      [["--year", "2025", "--topics", t25, "--passages-db", join(dir, "db"), run25], /--passages-db is for/],
      [["--year", "2025", "--topics", t25, "--fix", run25, run25], /--fix would overwrite the run/],
    ] as const) {
      const r = runCli("ikat", ["validate", ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(what);
    }
    expect(existsSync(join(dir, "x"))).toBe(false);
    expect(readFileSync(run25, "utf8")).toBe("{}\n");
  },
);

// `convkit ikat validate --year 2025` and `convkit ikat convert` of 2025 runs through the built CLI
// on golden cases (../shared/golden/ikat25): exit 0/2 for the official 0/1, --fix's bytes or no
// file, --format jsonl records, convert's bytes and stderr; bad input as one line.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readGolden as read, requires, runCli, shared, tempDir } from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";

requires("shared").describe("convkit ikat validate/convert --year 2025 (built CLI, shared goldens)", () => {
  let root: string;
  let topics: string;
  let cases: string[];
  beforeAll(() => {
    root = shared("golden", "ikat25");
    topics = shared("data", "ikat", "2025_test_topics.json");
    cases = readdirSync(root)
      .filter((d) => /^\d{3}$/.test(d))
      .sort();
  });

  it("the CLI: exit 0/2 for the official 0/1, --fix writes the .fixed bytes or no file, jsonl records, convert bytes", () => {
    const tmp = tempDir("ikat25-");
    let withFix = 0;
    let withoutFix = 0;
    // Cases picked by what the goldens hold: passed, failed with a .fixed file, failed without one.
    for (const c of cases) {
      const dir = join(root, c);
      const fixed = read(dir, "run.jsonl.fixed");
      const rc = readFileSync(join(dir, "validate.rc"), "utf8").trim();
      if ((fixed ? withFix : withoutFix) >= 3) continue;
      fixed ? withFix++ : withoutFix++;
      const run = join(tmp, `${c}.jsonl`);
      writeFileSync(run, read(dir, "run.jsonl") as Buffer);
      const out = join(tmp, `${c}.fixed`);
      const v = runCli("ikat", ["validate", "--year", "2025", "--topics", topics, run, "--fix", out]);
      expect(v.code, `${c} ${v.stderr.slice(-300)}`).toBe(rc === "0" ? 0 : 2);
      expect(v.stderr).not.toMatch(/\n\s+at /);
      if (fixed) expect(Buffer.compare(readFileSync(out), fixed), c).toBe(0);
      else expect(existsSync(out), c).toBe(false);
      const j = runCli("ikat", ["validate", "--year", "2025", "--topics", topics, run, "--format", "jsonl"]);
      const records = j.stdout.trim()
        ? j.stdout
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l))
        : [];
      for (const rec of records)
        expect(Object.keys(rec).sort()).toEqual(["level", "line", "message", "turn"]);
      const errorLines = records.filter((x) => x.level === "error" && x.line !== null).map((x) => x.line);
      const stdout = readFileSync(join(dir, "validate.stdout"), "utf8");
      const want = new Set([...stdout.matchAll(/^\[Line (\d+)\] ❌/gm)].map((m) => Number(m[1])));
      for (const l of errorLines)
        if (!want.has(l)) expect(stdout, `${c}: line ${l}`).not.toContain("Validation completed");
      const t = runCli("ikat", ["convert", run, "-o", join(tmp, `${c}.run`)]);
      expect(readFileSync(join(tmp, `${c}.run`), "utf8"), c).toBe(
        (read(dir, "trec.run") as Buffer).toString("utf8"),
      );
      expect(t.stderr, c).toBe(readFileSync(join(dir, "trec.stderr"), "utf8"));
      expect(t.code, c).toBe(t.stderr ? 2 : 0);
    }
    expect(withFix + withoutFix).toBe(6);
  });

  it("bad input is one line naming the line, exit 2, no stack trace", () => {
    const tmp = tempDir("ikat25-bad-");
    const run = join(tmp, "run.jsonl");
    writeFileSync(
      run,
      Buffer.concat([Buffer.from('{"turn_id": "1-1_1"}\n{"a": "'), Buffer.from([0xff]), Buffer.from('"}\n')]),
    );
    for (const args of [
      ["validate", "--year", "2025", "--topics", topics, run],
      ["convert", run],
    ]) {
      const r = runCli("ikat", args);
      expect(r.code).toBe(2);
      const lines = r.stderr.trim().split("\n");
      expect(lines.length).toBe(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^${run.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2(:\\d+)?: expected .*UTF-8.*, found byte 0xff$`,
        ),
      );
    }
  });

  it("--year that is not the run's own: one line, exit 2, nothing written (generate_run.py would write an empty file)", () => {
    const tmp = tempDir("ikat25-year-");
    const run25 = join(tmp, "run.jsonl");
    writeFileSync(run25, read(join(root, "000"), "run.jsonl")!);
    const run24 = shared("data", "ikat", "run_validation", "2024_sample_run.json");
    for (const [run, year, found] of [
      [run24, "2025", /found a 2023\/2024 run/],
      [run25, "2024", /found a 2025 run/],
    ] as const) {
      const out = join(tmp, `out-${year}.run`);
      const r = runCli("ikat", ["convert", "--year", year, run, "-o", out]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(found);
      expect(existsSync(out)).toBe(false);
    }
  });
});

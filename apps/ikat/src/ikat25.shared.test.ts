// iKAT 2025 against the official scripts' goldens (../shared/golden/ikat25, 100 seeded runs):
// validate_trec_ikat25.py's stdout, exit code and .fixed file, generate_run.py's trec.run and
// stderr, in process for all 100 (ikat25-cli.shared.slow.test.ts runs the built CLI on some).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pyJsonLoads } from "@convkit/formats";
import { convertRun2025, topicTurnIds2025, validateRun2025 } from "@convkit/ikat";
import { readGolden as read, requires, shared } from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";

requires("shared").describe("ikat 2025 as the official scripts (shared goldens)", () => {
  let root: string;
  let topics: string;
  let ids: Set<string>;
  let cases: string[];
  beforeAll(() => {
    root = shared("golden", "ikat25");
    topics = shared("data", "ikat", "2025_test_topics.json");
    ids = topicTurnIds2025(pyJsonLoads(readFileSync(topics, "utf8")));
    cases = readdirSync(root)
      .filter((d) => /^\d{3}$/.test(d))
      .sort();
  });

  it("validates all 100 runs as validate_trec_ikat25.py: stdout, exit code, .fixed bytes or none", () => {
    expect(cases.length).toBe(100);
    const bad: string[] = [];
    for (const c of cases) {
      const dir = join(root, c);
      const r = validateRun2025(read(dir, "run.jsonl") as Buffer, ids, "run.jsonl");
      const want = readFileSync(join(dir, "validate.stdout"), "utf8");
      if (`${r.stdout.join("\n")}\n` !== want) bad.push(`${c}: stdout`);
      if (String(r.exitCode) !== readFileSync(join(dir, "validate.rc"), "utf8").trim()) bad.push(`${c}: rc`);
      const fixed = read(dir, "run.jsonl.fixed");
      if (fixed === null ? r.fixed !== null : r.fixed === null || Buffer.compare(fixed, r.fixed) !== 0)
        bad.push(`${c}: fixed`);
      // The findings carry the same error lines as the official [Line N] blocks.
      const lines = new Set([...want.matchAll(/^\[Line (\d+)\] ❌/gm)].map((m) => Number(m[1])));
      // Where the script stops with a traceback (no closing "Validation completed"), that line is in error too.
      if (!want.includes("Validation completed")) {
        if (!r.crash) bad.push(`${c}: traceback`);
        else lines.add(r.crash.line);
      } else if (r.crash) bad.push(`${c}: traceback`);
      const found = new Set(r.findings.filter((f) => f.level === "error" && f.line).map((f) => f.line));
      if ([...lines].sort().join() !== [...found].sort().join()) bad.push(`${c}: error lines`);
      const missing = [...want.matchAll(/^Error: (Missing|Additional) turn_id.*: (\S+)$/gm)].map((m) => m[2]);
      const fileLevel = r.findings
        .filter((f) => f.line === undefined && f.level === "error")
        .map((f) => f.turn);
      if (missing.join() !== fileLevel.join()) bad.push(`${c}: file-level errors`);
    }
    expect(bad).toEqual([]);
  });

  it("converts all 100 runs as generate_run.py: trec.run bytes and stderr lines", () => {
    const bad: string[] = [];
    for (const c of cases) {
      const dir = join(root, c);
      const r = convertRun2025("run.jsonl", read(dir, "run.jsonl") as Buffer);
      if (Buffer.compare(r.trec, read(dir, "trec.run") as Buffer) !== 0) bad.push(`${c}: trec.run`);
      const stderr = r.errors.map((e) => `${e.message}\n`).join("");
      if (stderr !== readFileSync(join(dir, "trec.stderr"), "utf8")) bad.push(`${c}: trec.stderr`);
    }
    expect(bad).toEqual([]);
  });
});

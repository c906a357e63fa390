import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, runCli, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

const HEADER =
  "topic_id\tinitial_request\ttopic_desc\tclarification_need\tfacet_id\tfacet_desc\tquestion_id\tquestion\tanswer\n";

function gen(args: string[]) {
  return runCli("gen-synthetic", args);
}

describe("convkit-gen-synthetic on the bundled fixtures", () => {
  it("writes JSONL, pickle.tar.gz and TSV that are identical for 1 and 2 threads", () => {
    const a = tempDir();
    const b = tempDir();
    const r1 = gen(["--data", join(REPO, "data/clariq"), "--threads", "1", "--out", a]);
    const r2 = gen(["--data", join(REPO, "data/clariq"), "--threads", "2", "--out", b]);
    expect([r1.code, r2.code], r1.stderr + r2.stderr).toEqual([0, 0]);
    expect(r1.stderr).toMatch(/^112 records, 51 contexts, 6 files in [\d.]+ s: /);
    const files = readdirSync(a).sort();
    expect(files).toEqual([
      "dev_synthetic.contexts.tsv",
      "dev_synthetic.jsonl",
      "dev_synthetic.pkl.tar.gz",
      "train_synthetic.contexts.tsv",
      "train_synthetic.jsonl",
      "train_synthetic.pkl.tar.gz",
    ]);
    for (const f of files) expect(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f).toBe(true);
  });

  it("--max-history and --topics cut the sets without changing ClariQ's ids", () => {
    const all = tempDir();
    const cut = tempDir();
    expect(gen(["--data", join(REPO, "data/clariq"), "--format", "jsonl", "--out", all]).code).toBe(0);
    const r = gen([
      "--data",
      join(REPO, "data/clariq"),
      "--format",
      "jsonl,tsv",
      "--max-history",
      "1",
      "--topics",
      "302",
      "--out",
      cut,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^48 records, 15 contexts, 4 files/);
    const lines = (d: string) =>
      readFileSync(join(d, "train_synthetic.jsonl"), "utf8").split("\n").filter(Boolean);
    const kept = lines(cut);
    const full = new Set(lines(all));
    expect(kept.length).toBe(48);
    for (const l of kept) {
      expect(full.has(l)).toBe(true);
      const rec = JSON.parse(l);
      expect(rec.topic_id).toBe(302);
      expect(rec.conversation_context.length).toBeLessThanOrEqual(1);
    }
  });

  it("refuses a TSV with a missing column, a facet without questions, and one id with two texts (exit 2, no output)", () => {
    const row = (t: number, f: string, q: string, text: string) =>
      `${t}\treq\tdesc\t2\t${f}\tfacet\t${q}\t${text}\tanswer\n`;
    const cases: [string, string, RegExp][] = [
      [
        "missing column",
        `${HEADER}301\treq\tdesc\t2\tF9001\tfacet\tQ90001\tquestion\n`,
        /dev\.tsv:2: expected 9 tab-separated fields, found 8$/,
      ],
      [
        "facet without questions",
        HEADER + row(301, "F9001", "Q90001", "q1") + row(301, "F9002", "Q00001", ""),
        /expected questions for facet F9002 of topic 301, found none$/,
      ],
      [
        "duplicate question ids",
        HEADER + row(301, "F9001", "Q90001", "q1") + row(301, "F9001", "Q90001", "another text"),
        /expected one question text per question id \(Q90001 in facet F9001 of topic 301\), found "q1" and "another text"$/,
      ],
    ];
    for (const [name, text, message] of cases) {
      const data = tempDir();
      writeFileSync(join(data, "dev.tsv"), text);
      const out = join(tempDir(), "out");
      const r = gen(["--data", data, "--splits", "dev", "--out", out]);
      expect(r.code, name).toBe(2);
      expect(r.stderr.trim().split("\n"), name).toHaveLength(1);
      expect(r.stderr.trim(), name).toMatch(message);
      expect(existsSync(out) ? readdirSync(out) : [], name).toEqual([]);
    }
  });
});

describe("JSONL written as bytes from the plan", () => {
  it("equals JSON.stringify-style encoding of the records, task by task", async () => {
    const { planClariqSets, recordTasks, splitPlans, taskJsonl, taskRecords, encodeJsonl, JsonStrings } =
      await import("./index.js");
    for (const ordered of [false, true]) {
      const sets = await planClariqSets(join(REPO, "data/clariq"), undefined, ordered);
      for (const split of ["dev", "train"]) {
        for (const task of recordTasks(sets, splitPlans(sets, split), 5)) {
          const viaRecords = encodeJsonl(taskRecords(task), new JsonStrings());
          expect(taskJsonl(task, new JsonStrings()).toString("utf8")).toBe(viaRecords);
          for (const line of viaRecords.split("\n").filter(Boolean))
            expect(JSON.parse(line).record_id).toBeGreaterThanOrEqual(2000);
        }
      }
    }
  });
});

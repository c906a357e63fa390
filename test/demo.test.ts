// The README's main job: every bundled fixture in data/ converts, recognized by content.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO, runCli, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

describe("pnpm demo on data/", () => {
  it("converts every fixture to JSONL with the format its content says", () => {
    const inputs = ["clariq", "clariq/runs", "qulac", "ikat", "touche"].flatMap((d) =>
      readdirSync(join(REPO, "data", d), { withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => join("data", d, e.name)),
    );
    const out = tempDir();
    const r = runCli("convert", ["--out-dir", out, ...inputs]);
    expect(r.code, r.stderr).toBe(0);
    const formats = Object.fromEntries(
      r.stderr
        .trim()
        .split("\n")
        .map((l) => [l.split(":")[0], l.split(" ")[2]]),
    );
    expect(formats).toMatchObject({
      "data/clariq/dev.sample.tsv": "clariq-topics",
      "data/clariq/question_bank.sample.tsv": "question-bank",
      "data/clariq/test.sample.tsv": "clariq-test-topics",
      "data/clariq/sample.qrel": "qrels",
      "data/clariq/runs/multi_turn.run": "multi-turn-run",
      "data/clariq/runs/question_ranking.run": "run",
      "data/clariq/runs/clarification_need.run": "clarification-need-run",
      "data/qulac/qulac.sample.json": "qulac-json",
      "data/ikat/topics-2023.sample.json": "ikat-topics",
      "data/ikat/topics-2025.sample.json": "ikat-topics",
      "data/touche/debateorg.sample.json": "args-me",
      "data/touche/topics.sample.xml": "touche-topics",
    });
    expect(readdirSync(out).length).toBe(inputs.length);
    const multi = readFileSync(join(out, "multi_turn.run.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(multi.map((m) => m.question)).toEqual([
      "do you want to know when it is open",
      "",
      'are you interested in the "menu"',
    ]);
  });
});

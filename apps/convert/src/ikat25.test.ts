// convkit-convert on a 2025 iKAT run: detected from content, one record a turn, ordered pairs.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";

describe("convkit-convert: 2025 iKAT runs", () => {
  it("detects the format and writes one record a turn, references and citations in file order", () => {
    const dir = tempDir();
    const f = join(dir, "run.jsonl");
    const line = (t: string) =>
      `{"turn_id": "${t}", "metadata": {"team_id": "t", "run_id": "r", "run_type": "manual"}, "references": {"p:2": 0.5, "10": 1.5, "2": 0.25}, "responses": [{"text": "A.", "citations": {"10": 1.5}, "ptkb_provenance": ["1"]}]}`;
    writeFileSync(f, `${line("1-1_1")}\n${line("1-1_2")}\n`);
    const r = runCli("convert", [f]);
    expect(r.code, r.stderr).toBe(0);
    const recs = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(recs.map((x) => x.turn_id)).toEqual(["1-1_1", "1-1_2"]);
    expect(recs[0].references).toEqual([
      { id: "p:2", score: 0.5 },
      { id: "10", score: 1.5 },
      { id: "2", score: 0.25 },
    ]);
    expect(recs[0].responses).toEqual([
      { text: "A.", citations: [{ id: "10", score: 1.5 }], ptkb_provenance: ["1"] },
    ]);
  });

  it("a wrong field is one line naming its line and path, exit 2", () => {
    const dir = tempDir();
    const f = join(dir, "run.jsonl");
    writeFileSync(
      f,
      '{"metadata": {"team_id": "t", "run_id": "r", "run_type": "manual"}, "turn_id": 7, "references": {}}\n',
    );
    const r = runCli("convert", [f, "-o", join(dir, "out.jsonl")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${f}:1: expected a string at turn_id, found 7\n`);
  });
});

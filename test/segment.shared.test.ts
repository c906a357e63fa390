// convkit-segment against the official iKAT files of ../shared: agreement per splitter, and the hash TSV layout.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { collect, readPassageHashes } from "@convkit/formats";
import { requires, runCli, shared, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

requires("shared").describe("convkit-segment against the official iKAT files (shared)", () => {
  it("agreement: one line per splitter, the default first, the default above ICU", () => {
    const r = runCli("segment", [
      "agreement",
      "--passages",
      shared("data", "ikat", "2023_train_topics_psg_text.jsonl"),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(lines.map((l) => l[0])).toEqual(["heuristic", "sentencizer", "icu"]);
    for (const l of lines) expect(l[1]).toMatch(/^\d+\/37$/);
    const score = (name: string) => Number(lines.find((l) => l[0] === name)![1]!.split("/")[0]);
    expect(score("icu")).toBe(32);
    expect(score("heuristic")).toBeGreaterThan(score("icu"));
  });

  it("hash TSV in the layout of the official sample_hashes.tsv (read by the same reader)", async () => {
    const official = await collect(
      readPassageHashes(shared("data", "ikat", "run_validation", "sample_hashes.tsv")),
    );
    expect(official.length).toBe(10_000);
    const dir = tempDir();
    const docs = official
      .slice(0, 3)
      .map((h, i) => JSON.stringify({ id: h.doc_id, text: `Doc ${i}. `.repeat(12 + i) }));
    writeFileSync(join(dir, "d.jsonl"), `${docs.join("\n")}\n`);
    expect(
      runCli("segment", ["run", join(dir, "d.jsonl"), "--format", "hashes", "-o", join(dir, "o")]).code,
    ).toBe(0);
    const ours = await collect(readPassageHashes(join(dir, "o", "d.hashes.tsv")));
    expect(ours.map((h) => h.doc_id)).toEqual([
      official[0]!.doc_id,
      official[0]!.doc_id,
      official[1]!.doc_id,
      official[1]!.doc_id,
      official[2]!.doc_id,
      official[2]!.doc_id,
    ]);
    for (const h of ours) expect(h.doc_id).toMatch(/^clueweb22-en\d{4}-\d{2}-\d{5}$/);
  });
});

// convkit-gen-eval on a fixture collection written here, with background statistics, float32 and the other models: 4 runs, over 10 s on a busy 2-core machine.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { evalFixtureArgs, runCli, tempDir, writeEvalFixture } from "@convkit/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";

describe("convkit-gen-eval on a fixture collection (slow)", () => {
  const dir = tempDir("gen-eval-");
  const prefix = join(dir, "multi_turn_dev_eval");
  beforeAll(() => {
    writeEvalFixture(dir);
    const r = runCli("gen-eval", [...evalFixtureArgs(dir), "-o", prefix]);
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  it("--stats (background statistics), --float32 and the other models run end to end and change the values", async () => {
    const { collectionStats, formatCollectionStats } = await import("@convkit/retrieval");
    const { qulacTerms } = await import("@convkit/text");
    const docs = readFileSync(join(dir, "docs.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).text as string);
    // A background collection: the fixture's documents twice plus some extra text.
    const stats = collectionStats([...docs, ...docs, "garden soil review price"].map((t) => qulacTerms(t)));
    writeFileSync(join(dir, "stats.tsv"), formatCollectionStats(stats));
    const base = JSON.parse(readFileSync(`${prefix}.json`, "utf8"));
    for (const extra of [
      ["--stats", join(dir, "stats.tsv")],
      ["--float32"],
      ["--model", "bm25"],
      ["--model", "dirichlet", "--mu", "500"],
    ]) {
      const p = join(tempDir(), "d");
      const r = runCli("gen-eval", [...evalFixtureArgs(dir), "--format", "json", ...extra, "-o", p]);
      expect(r.code, r.stderr).toBe(0);
      const d = JSON.parse(readFileSync(`${p}.json`, "utf8"));
      expect(Object.keys(d.MRR100)).toEqual(Object.keys(base.MRR100));
      if (extra[0] !== "--float32") expect(d, extra.join(" ")).not.toEqual(base);
    }
  }, 240_000);
});

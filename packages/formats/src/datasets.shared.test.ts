import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Fields, inputMismatch } from "@convkit/json";
import { readPickleFile } from "@convkit/pickle";
import { requires, shared, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { type EvalDict, evalPair, toEvalDict } from "./dicts.js";
import { readIkatRun, readIkatTopics, readPassageHashes, writePassageHashes } from "./ikat.js";
import { readJsonl } from "./jsonl.js";
import { formatQulacJson, readQulacJson } from "./qulac.js";
import { collect } from "./table.js";
import { readRun } from "./trec.js";

requires("shared").describe("Qulac from ../shared/data", () => {
  it("reads 11,039 rows, keeps the published \\' escapes, and writes the file back byte for byte", async () => {
    const path = shared("data", "qulac", "qulac.json");
    const rows = await readQulacJson(path);
    expect(rows.length).toBe(11039);
    expect(new Set(rows.map((r) => r.topic_id)).size).toBe(198);
    expect(new Set(rows.map((r) => r.topic_facet_id)).size).toBe(762);
    expect(rows.some((r) => r.topic_desc.includes("Obama\\'s"))).toBe(true);
    expect(formatQulacJson(rows)).toBe(readFileSync(path, "utf8"));
  });
});

requires("shared").describe("iKAT from ../shared/data", () => {
  it("normalizes the topics of 2023, 2024 and 2025 with their turn counts", async () => {
    const counts: Record<string, [number, number]> = {
      "2023_train_topics.json": [11, 95],
      "2023_test_topics.json": [25, 332],
      "2024_test_topics.json": [17, 218],
      "2025_test_topics.json": [17, 188],
    };
    for (const [f, [topics, turns]] of Object.entries(counts)) {
      const t = await readIkatTopics(shared("data", "ikat", f));
      expect([t.length, t.reduce((n, x) => n + x.turns.length, 0)], f).toEqual([topics, turns]);
      expect(
        t.every((x) => x.ptkb.length > 0 && x.turns.every((u) => u.utterance.length > 0)),
        f,
      ).toBe(true);
    }
    const t2024 = await readIkatTopics(shared("data", "ikat", "2024_test_topics.json"));
    expect(t2024[0]!.number).toBe("0");
    const t2025 = await readIkatTopics(shared("data", "ikat", "2025_test_topics.json"));
    expect(t2025[0]!.ptkb[0]).toEqual({ id: "1", text: "I want to stop doom scrolling." });
  });

  it("reads the official sample runs, the passage texts and the hash TSV (written back unchanged)", async () => {
    const run = await readIkatRun(shared("data", "ikat", "run_validation", "2024_sample_run.json"));
    expect(run.turns.length).toBe(218);
    expect(run.turns[0]!.responses[0]!.passage_provenance[0]!.id).toBe("clueweb22-en0025-76-08262:14");
    const psg = await collect(
      readJsonl(shared("data", "ikat", "2023_train_topics_psg_text.jsonl"), (v, line) =>
        Fields.of(v, inputMismatch("psg_text.jsonl", { line })).string("doc_id"),
      ),
    );
    expect(psg.length).toBe(
      readFileSync(shared("data", "ikat", "2023_train_topics_psg_text.jsonl"), "utf8")
        .trim()
        .split("\n").length,
    );
    const hashPath = shared("data", "ikat", "run_validation", "sample_hashes.tsv");
    const hashes = await collect(readPassageHashes(hashPath));
    expect(new Set(hashes.map((h) => h.doc_id)).size).toBe(1202);
    const out = join(tempDir(), "h.tsv");
    await writePassageHashes(out, [hashes]);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(hashPath, "utf8"));
  });
});

/** The value the upstream tool reports for a facet/context given the chosen question (none: 0). */
function pick(d: EvalDict, metric: string, ctx: string | number, qid: string | null | undefined): number {
  if (qid === null) return 0;
  const m = d.get(metric)!.get(ctx)!;
  const v = (qid !== undefined && qid !== "MAX" ? m.get(qid) : undefined) ?? m.get("MIN")!;
  return evalPair(v).with_answer;
}

requires("shared").describe("golden eval dicts from ../shared/golden", () => {
  it("single_turn_train_eval.pkl holds exactly the per-facet values the upstream tool printed", async () => {
    const file = shared("golden", "clariq-eval", "eval_dicts", "single_turn_train_eval.pkl");
    const d = toEvalDict(file, await readPickleFile(file));
    expect([...d.keys()]).toEqual([
      "NDCG1",
      "NDCG3",
      "NDCG5",
      "NDCG10",
      "NDCG20",
      "P1",
      "P3",
      "P5",
      "P10",
      "P20",
      "MRR100",
    ]);
    let checked = 0;
    for (const run of ["dev_best_q", "dev_worst_q", "dev_no_q"]) {
      const expected = JSON.parse(
        readFileSync(
          shared("golden", "clariq-eval", "expected", `document_relevance.dev.${run}.json`),
          "utf8",
        ),
      );
      const top = new Map<string, string>();
      for (const e of (await collect(readRun(shared("data", "clariq", "sample_runs", run)))).sort(
        (a, b) => b.score - a.score,
      )) {
        if (!top.has(e.qid)) top.set(e.qid, e.docno);
      }
      const rows = await collect(
        (await import("./clariq.js")).readClariqRows(shared("data", "clariq", "dev.tsv")),
      );
      const topicOf = new Map(rows.map((r) => [r.facet_id, String(r.topic_id)]));
      for (const [metric, facets] of Object.entries(
        expected.out_file as Record<string, Record<string, number>>,
      )) {
        for (const [facet, value] of Object.entries(facets)) {
          expect(
            pick(d, metric, facet, top.get(topicOf.get(facet)!) ?? null),
            `${run} ${metric} ${facet}`,
          ).toBe(value);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(3000);
  });
});

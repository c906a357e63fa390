import { readFileSync } from "node:fs";
import { join } from "node:path";
import { python, requires, shared, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import {
  readClarificationNeedRun,
  readClariqRows,
  readClariqTestTopics,
  readHumanMultiTurn,
  readMultiTurnRun,
  readQuestionBank,
  writeClariqRows,
  writeMultiTurnRun,
  writeQuestionBank,
} from "./clariq.js";
import { collect } from "./table.js";
import { readQrels, readRun } from "./trec.js";

const clariq = (f: string) => shared("data", "clariq", f);

requires("shared").describe("ClariQ files from ../shared/data", () => {
  it("reads train/dev/test_with_labels with the sizes the README gives", async () => {
    const train = await collect(readClariqRows(clariq("train.tsv")));
    const dev = await collect(readClariqRows(clariq("dev.tsv")));
    const test = await collect(readClariqRows(clariq("test_with_labels.tsv")));
    expect(new Set(train.map((r) => r.topic_id)).size).toBe(187);
    expect(new Set(dev.map((r) => r.topic_id)).size).toBe(50);
    expect([train.length, dev.length, test.length]).toEqual([9176, 2313, 4499]);
    const r133 = dev.find((r) => r.topic_id === 133)!;
    expect(r133.topic_desc).toBe('Who said \\"all men are created equal\\"?');
    expect(r133.facet_desc).toBe('Who said "all men are created equal"?');
  });

  requires("python3").it(
    "parses every field exactly as Python's csv module (pandas' quoting) does",
    async () => {
      for (const f of ["train.tsv", "dev.tsv", "test_with_labels.tsv"]) {
        const ours = (await collect(readClariqRows(clariq(f)))).map((r) => [
          String(r.topic_id),
          r.initial_request,
          r.topic_desc,
          String(r.clarification_need),
          r.facet_id,
          r.facet_desc,
          r.question_id,
          r.question,
          r.answer,
        ]);
        const theirs = JSON.parse(
          python(
            "import csv,sys,json\nrows=list(csv.reader(open(sys.argv[1],newline=''),delimiter='\\t'))[1:]\nprint(json.dumps(rows))",
            undefined,
            [clariq(f)],
          ),
        );
        expect(ours).toEqual(theirs);
      }
    },
  );

  it("writes topic rows back byte for byte as pandas wrote them", async () => {
    const dir = tempDir();
    for (const f of ["dev.tsv", "train.tsv"]) {
      await writeClariqRows(join(dir, f), readClariqRows(clariq(f)));
      expect(readFileSync(join(dir, f)).equals(readFileSync(clariq(f)))).toBe(true);
    }
  });

  it("reads the question bank with Q00001 empty and writes it back unchanged", async () => {
    const bank = await collect(readQuestionBank(clariq("question_bank.tsv")));
    // 3,940 questions plus the empty Q00001.
    expect(bank.length).toBe(3941);
    expect(bank.at(-1)!.question_id).toBe("Q03941");
    expect(bank[0]).toEqual({ question_id: "Q00001", question: "" });
    const out = join(tempDir(), "qb.tsv");
    await writeQuestionBank(out, [bank]);
    expect(readFileSync(out, "utf8")).toBe(readFileSync(clariq("question_bank.tsv"), "utf8"));
  });

  it("reads test.tsv, the human multi-turn data and qrels with negative grades", async () => {
    const topics = await collect(readClariqTestTopics(clariq("test.tsv")));
    expect(topics.length).toBe(61);
    expect(topics[0]).toEqual({
      topic_id: 201,
      initial_request: "I would like to know more about raspberry pi",
    });
    const human = await collect(readHumanMultiTurn(clariq("multi_turn_human_generated_data.tsv")));
    expect(human.length).toBe(499);
    expect(human[0]!.turns.length).toBe(3);
    const qrels = await collect(readQrels(clariq("dev.qrel")));
    expect(qrels.length).toBe(readFileSync(clariq("dev.qrel"), "utf8").trim().split("\n").length);
    expect(Math.min(...qrels.map((q) => q.rel))).toBe(-2);
    expect(qrels[0]).toEqual({ qid: "F0010", iter: "0", docno: "clueweb09-en0007-71-07471", rel: 0 });
  });

  it("reads every sample run; multi-turn runs write back byte for byte", async () => {
    const bm25 = await collect(readRun(clariq("sample_runs/dev_bm25")));
    expect(bm25[0]).toEqual({ qid: "101", q0: "0", docno: "Q01811", rank: 0, score: 30, tag: "bm25" });
    for (const f of [
      "dev_BERT-ranker",
      "dev_BERT-reranker",
      "test_BERT-ranker",
      "dev_best_q",
      "dev_no_q",
      "test_no_q",
    ]) {
      expect((await collect(readRun(clariq(`sample_runs/${f}`)))).length).toBeGreaterThan(0);
    }
    const multi = await collect(readMultiTurnRun(clariq("sample_runs/dev_bm25_multi_turn")));
    expect(multi.length).toBe(15345);
    expect(multi[0]).toEqual({
      context_id: 968,
      q0: "0",
      question: "do you want to know the cost of an appraisal",
      rank: 0,
      score: 5,
      run: "bm25_multi_turn",
    });
    const out = join(tempDir(), "run");
    await writeMultiTurnRun(out, [multi.map((m) => ({ ...m }))]);
    const original = readFileSync(clariq("sample_runs/dev_bm25_multi_turn"), "utf8");
    expect(readFileSync(out, "utf8")).toBe(original);
    const cneed = await collect(readClarificationNeedRun(shared("golden", "clariq-eval", "runs", "cneed_0")));
    expect(cneed.length).toBeGreaterThan(0);
  });
});

import { readFileSync } from "node:fs";
import { collect, readClariqRows, readMultiTurnRun, readQulacJson } from "@convkit/formats";
import { requires, shared } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { ClariqIds, decodeQulacId, encodeQulacId } from "./ids.js";
import { ABSENT_TOPICS, numberTopics } from "./numbering.js";
import { topicCounts, topicRecords } from "./records.js";
import { planTopics } from "./topics.js";

async function plans() {
  const rows = [];
  for (const f of ["train.tsv", "dev.tsv", "test_with_labels.tsv"])
    rows.push(...(await collect(readClariqRows(shared("data", "clariq", f)))));
  const qulac = await readQulacJson(shared("data", "qulac", "qulac.json"));
  const dev = new Set(
    (await collect(readClariqRows(shared("data", "clariq", "dev.tsv")))).map((r) => r.topic_id),
  );
  const all = planTopics("clariq", rows, qulac, { skip: ABSENT_TOPICS });
  return { all, dev, nums: numberTopics(all) };
}

requires("shared").describe("ClariQ synthetic numbering against the official dev sets (shared)", () => {
  it("reproduces every dev topic's F, n, empty-context ids and both bases", async () => {
    const { all, nums } = await plans();
    const golden = readFileSync(shared("golden", "clariq-synthetic", "dev_context_bases.tsv"), "utf8")
      .trim()
      .split("\n")
      .slice(1);
    expect(golden.length).toBe(49);
    for (const line of golden) {
      const [topic, F, n, empty, L1, L2] = line.split("\t");
      const p = all.find((x) => x.topic_id === Number(topic))!;
      const num = nums.get(Number(topic))!;
      expect([p.facets.length, p.answers[0]!.length], `topic ${topic}`).toEqual([Number(F), Number(n)]);
      expect(p.facets.map((f, i) => `${f}->${num.emptyContext[i]}`).join(" "), `topic ${topic}`).toBe(empty);
      expect([num.L1base, num.L2base], `topic ${topic}`).toEqual([Number(L1), Number(L2)]);
    }
  });

  it("dev: 15,345 contexts (158 empty, 2,094 one-turn, 13,093 two-turn), 182,435 records, the official run's context ids", async () => {
    const { all, dev, nums } = await plans();
    const devPlans = all.filter((p) => dev.has(p.topic_id) && !ABSENT_TOPICS.has(p.topic_id));
    const c = [0, 0, 0];
    let records = 0;
    const ids = new Set<number>();
    for (const p of devPlans) {
      const k = topicCounts(p);
      for (const [i, v] of k.contexts.entries()) c[i]! += v;
      for (const r of topicRecords(p, nums.get(p.topic_id)!)) {
        records++;
        ids.add(r.context_id);
      }
    }
    expect(c).toEqual([158, 2094, 13093]);
    expect(records).toBe(182435);
    const run = await collect(
      readMultiTurnRun(shared("data", "clariq", "sample_runs", "dev_bm25_multi_turn")),
    );
    expect(ids).toEqual(new Set(run.map((r) => r.context_id)));
  });

  it("numbers all three sets as published: 1,611,533 records, the counter ending at 1,613,533, README record 1570812", async () => {
    const { all, nums } = await plans();
    const kept = all.filter((p) => !ABSENT_TOPICS.has(p.topic_id));
    let records = 0;
    let maxId = 0;
    for (const p of kept) {
      const k = topicCounts(p);
      records += k.records[0]! + k.records[1]! + k.records[2]!;
    }
    for (const p of kept) {
      const num = nums.get(p.topic_id)!;
      const n = p.answers[0]!.length;
      maxId = Math.max(maxId, num.L3base + (p.facets.length * n * (n - 1) * (n - 2)) / 2);
    }
    expect(records).toBe(1611533);
    expect(maxId).toBe(1613533);
    // The README's example (facet ids have been renumbered since): record 1570812 is a topic-293
    // record with a two-turn history, and context 976573 is one of topic 293's two-turn contexts.
    const t293 = kept.find((p) => p.topic_id === 293)!;
    const ex = [...topicRecords(t293, nums.get(293)!)].find((r) => r.record_id === 1570812)!;
    expect(ex.topic_id).toBe(293);
    expect(ex.conversation_context.length).toBe(2);
    const ctx = [...topicRecords(t293, nums.get(293)!)].find((r) => r.context_id === 976573)!;
    expect(ctx.conversation_context.length).toBe(2);
  });

  it("ClariQ's int ids decode to what every dev record is, and Qulac ids round-trip for every qulac.json row", async () => {
    const { all, dev, nums } = await plans();
    const ids = new ClariqIds(all, nums);
    let checked = 0;
    const bad: number[] = [];
    for (const p of all.filter((x) => dev.has(x.topic_id))) {
      for (const r of topicRecords(p, nums.get(p.topic_id)!)) {
        const d = ids.decodeRecord(r.record_id);
        const row = p.answers[d.facet]!;
        const c = ids.decodeContext(r.context_id);
        const ok =
          d.topic_id === r.topic_id &&
          p.facets[d.facet] === r.facet_id &&
          row[d.question]!.question === r.question &&
          d.history.map((h) => row[h]!.question).join("\n") ===
            r.conversation_context.map((t) => t.question).join("\n") &&
          c.topic_id === d.topic_id &&
          c.facet === d.facet &&
          c.history.join() === d.history.join();
        if (!ok) bad.push(r.record_id);
        checked++;
      }
    }
    expect(bad).toEqual([]);
    expect(checked).toBe(182435);
    const qulac = await readQulacJson(shared("data", "qulac", "qulac.json"));
    for (const r of qulac) {
      const q = r.topic_facet_question_id.split("-")[2]!;
      if (!/^\d+$/.test(q)) continue;
      for (const flag of [0, 1]) {
        const s = `${r.topic_facet_id}-${q}-${flag}`;
        expect(encodeQulacId(decodeQulacId(s))).toBe(s);
      }
    }
  });
});

requires("shared").describe("Qulac flavour from qulac.json alone (shared)", () => {
  it("F·n·(1 + (n−1) + (n−1)(n−2)/2) records per topic, with ids that decode to their history and question and encode back", async () => {
    const { qulacTopics, qulacRecords } = await import("./qulac.js");
    const topics = qulacTopics(await readQulacJson(shared("data", "qulac", "qulac.json")));
    expect(topics.length).toBe(198);
    let n = 0;
    const bad: string[] = [];
    for (const t of topics) {
      for (const r of qulacRecords(t)) {
        n++;
        const d = decodeQulacId(r.record_id);
        if (
          encodeQulacId(d) !== r.record_id ||
          [d.topic, d.facet, ...d.history].join("-") !== r.history_id ||
          d.history.length !== r.history_list.length
        )
          bad.push(r.record_id);
      }
    }
    expect(bad).toEqual([]);
    // The spec predicts 923,108 for Qulac "with the same scheme"; from qulac.json alone (198 topics,
    // Qulac's question numbers, every facet paired with every question) the scheme gives:
    const expected = topics.reduce((s, t) => {
      const F = t.facets.length;
      const k = t.questions.length;
      return s + F * k + F * k * (k - 1) + (F * k * (k - 1) * (k - 2)) / 2;
    }, 0);
    expect(n).toBe(expected);
    expect(n).toBe(922416);
  });

  it("reproduces the Qulac README's example records", async () => {
    const { qulacTopics, qulacRecords } = await import("./qulac.js");
    const topics = qulacTopics(await readQulacJson(shared("data", "qulac", "qulac.json")));
    const find = (topic: number, id: string) =>
      [...qulacRecords(topics.find((t) => t.topic === topic)!)].find((r) => r.record_id === id);
    expect(find(18, "18-2-1-2-10-1")).toEqual({
      record_id: "18-2-1-2-10-1",
      history_id: "18-2-1-2",
      history_list: [
        {
          question: "are you interested in a service for wedding budgeting",
          answer: "no i just want to find spreadsheets and templates",
        },
        {
          question: "are you looking for advice on wedding budgeting",
          answer: "yes i want to find some spreadsheets to help me budget",
        },
      ],
      query: "wedding budget calculator",
      question: "what is your projected budget for your wedding",
      answer: "i need to find a spreadsheet to figure it out",
    });
    expect(find(25, "25-1-3-8-1")).toMatchObject({
      history_id: "25-1-3",
      history_list: [
        {
          question: "do you need directions to euclid ave",
          answer: "no i am looking for information on the greek mathematician euclid",
        },
      ],
      query: "euclid",
      question: "do you want to know related people",
      answer: "no i only want to know about one particular person",
    });
  });
});

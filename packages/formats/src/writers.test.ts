import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readPickleFile, writePickleDict } from "@convkit/pickle";
import { python, requires, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { readClarificationNeedRun, writeClarificationNeedRun } from "./clariq.js";
import {
  readQulacHistDict,
  syntheticItem,
  syntheticRecords,
  writeQulacEvalDict,
  writeQulacHistDict,
} from "./dicts.js";
import { formatPassageLine, readIkatRun, readPassages, writeIkatRun, writePassages } from "./ikat.js";
import type { IkatRun, QulacHistRecord, SyntheticRecord } from "./records.js";
import { collect } from "./table.js";
import { readQrels, writeQrels } from "./trec.js";

/** An iKAT passage with quotes, a backslash, non-ASCII, an astral character and controls. */
const PASSAGES = [
  {
    id: "clueweb22-en0000-00-00000:0",
    contents: 'a "quoted" \\ ünï 😀\n\t\u0001',
    url: "https://x.org/é",
  },
];

/** ClariQ synthetic records (pickled, read back, and loaded by python3). */
const SYNTHETIC: SyntheticRecord[] = [
  {
    record_id: 2287,
    topic_id: 8,
    facet_id: "F0968",
    initial_request: "I want to know about appraisals.",
    question: "are you looking for a type of appraiser",
    answer: "im looking for nearby companies",
    conversation_context: [],
    context_id: 968,
  },
  {
    record_id: 1570812,
    topic_id: 293,
    facet_id: "F0729",
    initial_request: "Tell me about social networking.",
    question: "which sites",
    answer: "any",
    conversation_context: [{ question: "what level", answer: "all levels" }],
    context_id: 976573,
  },
];

describe("writers round-trip", () => {
  it("qrels and clarification-need runs read back what they write", async () => {
    const dir = tempDir();
    const q = [
      { qid: "F1", iter: "0", docno: "d", rel: -2 },
      { qid: "F2", iter: "0", docno: "e", rel: 4 },
    ];
    await writeQrels(join(dir, "q"), [q]);
    expect(await collect(readQrels(join(dir, "q")))).toEqual(q);
    const c = [
      { topic_id: 171, label: 1 },
      { topic_id: 170, label: 3 },
    ];
    await writeClarificationNeedRun(join(dir, "c"), [c]);
    expect(readFileSync(join(dir, "c"), "utf8")).toBe("171 1\n170 3\n");
    expect(await collect(readClarificationNeedRun(join(dir, "c")))).toEqual(c);
  });

  it("iKAT runs and passage JSONL read back", async () => {
    const dir = tempDir();
    const run: IkatRun = {
      run_name: "r",
      run_type: "automatic",
      turns: [
        {
          turn_id: "9-1_1",
          responses: [
            {
              rank: 1,
              text: "t",
              passage_provenance: [{ id: "clueweb22-en0004-67-08978:7", score: 1.5, used: true }],
            },
          ],
        },
      ],
    };
    await writeIkatRun(join(dir, "run.json"), run);
    expect(await readIkatRun(join(dir, "run.json"))).toEqual(run);
    await writePassages(join(dir, "p.jsonl"), [PASSAGES]);
    expect(await collect(readPassages(join(dir, "p.jsonl")))).toEqual(PASSAGES);
  });

  requires("python3").it("passage lines are python3's json.dumps bytes (python3)", async () => {
    const dir = tempDir();
    await writePassages(join(dir, "p.jsonl"), [PASSAGES]);
    const py = python(
      "import json,sys\nfor p in json.load(sys.stdin): print(json.dumps(p))",
      JSON.stringify(PASSAGES),
    );
    expect(readFileSync(join(dir, "p.jsonl"), "utf8")).toBe(py);
    expect(formatPassageLine(PASSAGES[0]!)).toBe(py.trimEnd());
  });

  it("Qulac hist012 dicts stream out and back; the eval dict has Qulac's layout", async () => {
    const dir = tempDir();
    const recs: QulacHistRecord[] = [
      {
        record_id: "18-2-1-2-10",
        history_id: "18-2-1-2",
        history_list: [
          { question: "q1", answer: "a1" },
          { question: "q2", answer: "a2" },
        ],
        query: "wedding budget calculator",
        question: "what is your budget",
        answer: "i need a spreadsheet",
      },
      {
        record_id: "25-1-3",
        history_id: "25-1",
        history_list: [],
        query: "euclid",
        question: "do you want to know related people",
        answer: "no",
      },
    ];
    await writeQulacHistDict(join(dir, "h.json"), [recs.slice(0, 1), recs.slice(1)]);
    expect(await collect(readQulacHistDict(join(dir, "h.json")))).toEqual(recs);
    await writeQulacEvalDict(join(dir, "e.json"), [
      { metric: "MRR100", record_id: "20-2-1-0", value: 0 },
      { metric: "MRR100", record_id: "20-2-1-1", value: 1 },
      { metric: "NDCG20", record_id: "20-2-11-1", value: 0.36252395084997224 },
    ]);
    expect(readFileSync(join(dir, "e.json"), "utf8")).toBe(
      '{"MRR100": {"20-2-1-0": 0.0, "20-2-1-1": 1.0}, "NDCG20": {"20-2-11-1": 0.36252395084997224}}',
    );
  });

  it("a Qulac hist012 record's field of another type is one error naming the file and the field", async () => {
    const dir = tempDir();
    const good = { history_id: "25-1", history_list: [], query: "euclid", question: "q", answer: "a" };
    const cases: [unknown, string][] = [
      [{ ...good, history_id: 25 }, 'expected a string in "25-1-3".history_id, found 25'],
      [{ ...good, answer: null }, 'expected a string in "25-1-3".answer, found null'],
      [
        { ...good, history_list: [{ question: "q1" }] },
        'expected a string in "25-1-3".history_list[0].answer, found nothing',
      ],
      [{ ...good, history_list: {} }, 'expected an array in "25-1-3".history_list, found an object'],
      ["text", 'expected an object in "25-1-3", found "text"'],
    ];
    for (const [record, message] of cases) {
      const file = join(dir, "h.json");
      writeFileSync(file, JSON.stringify({ "25-1-2": good, "25-1-3": record }));
      await expect(collect(readQulacHistDict(file))).rejects.toThrow(`h.json: ${message}`);
    }
  });

  it("ClariQ synthetic records go to a pickle dict and back unchanged", async () => {
    const f = join(tempDir(), "dev_synthetic.pkl");
    await writePickleDict(f, [SYNTHETIC.map(syntheticItem)]);
    expect([...syntheticRecords(f, await readPickleFile(f))]).toEqual(SYNTHETIC);
  });

  requires("python3").it(
    "the synthetic pickle dict loads in python3 to the same records (python3)",
    async () => {
      const f = join(tempDir(), "dev_synthetic.pkl");
      await writePickleDict(f, [SYNTHETIC.map(syntheticItem)]);
      const out = python(
        "import pickle,sys,json\nd=pickle.load(open(sys.argv[1],'rb'))\nprint(json.dumps([[k,v] for k,v in d.items()]))",
        undefined,
        [f],
      );
      expect(JSON.parse(out)).toEqual(
        SYNTHETIC.map((r) => {
          const { record_id, ...rest } = r;
          return [record_id, rest];
        }),
      );
    },
  );
});

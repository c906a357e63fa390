import { readFileSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { compareRuns } from "@convkit/compare";
import { syntheticItem } from "@convkit/formats";
import { tarGzFile } from "@convkit/io";
import { dumpPickle } from "@convkit/pickle";
import { tempDir } from "@convkit/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Explorer } from "./explorer.js";
import { serveExplorer } from "./server.js";

let dir: string;
let explorer: Explorer;

function record(id: number, ctx: number, question: string, answer: string, history: [string, string][]) {
  return JSON.stringify({
    record_id: id,
    topic_id: 8,
    facet_id: "F0985",
    initial_request: "I want to know about appraisals.",
    question,
    answer,
    conversation_context: history.map(([q, a]) => ({ question: q, answer: a })),
    context_id: ctx,
  });
}

beforeAll(async () => {
  dir = tempDir("explore-unit-");
  const lines = [
    record(2000, 985, "q1", "a1", []),
    record(2001, 985, "q2", "a2", []),
    record(2002, 2100, "q2", "a2", [["q1", "a1"]]),
    record(2003, 2100, "q3", "a3", [["q1", "a1"]]),
    record(2004, 3000, "q3", "a3", [
      ["q1", "a1"],
      ["q2", "a2"],
    ]),
    // A context's records need not be next to each other.
    record(2005, 985, "q3", "a3", []),
  ];
  writeFileSync(join(dir, "syn.jsonl"), `${lines.join("\n")}\n`);
  writeFileSync(join(dir, "qrels"), "1 0 d1 1\n1 0 d2 0\n1 0 d3 2\n2 0 d1 1\n2 0 d4 1\n");
  writeFileSync(
    join(dir, "a.run"),
    "1 Q0 d1 1 3 a\n1 Q0 d2 2 2 a\n1 Q0 d5 3 1 a\n2 Q0 d9 1 2 a\n2 Q0 d1 2 1 a\n",
  );
  writeFileSync(
    join(dir, "b.run"),
    "1 Q0 d3 1 3 b\n1 Q0 d1 2 2 b\n1 Q0 d2 3 1 b\n2 Q0 d1 1 2 b\n2 Q0 d4 2 1 b\n",
  );
  const s = (n: number, w: string) => Array.from({ length: n }, (_, i) => `${w} ${i + 1} is here.`).join(" ");
  writeFileSync(
    join(dir, "docs.jsonl"),
    `${JSON.stringify({ id: "doc-1", contents: s(17, "Sentence") })}\n${JSON.stringify({ id: "doc-2", contents: "One. Two." })}\n`,
  );
  explorer = await Explorer.open({
    synthetic: [join(dir, "syn.jsonl")],
    qrels: join(dir, "qrels"),
    runs: [join(dir, "a.run"), join(dir, "b.run")],
    passages: [join(dir, "docs.jsonl")],
    splitters: ["sentencizer", "heuristic"],
  });
});

afterAll(async () => {
  await explorer?.close();
});

const get = async (path: string, q = "") => explorer.api(path, new URLSearchParams(q));

describe("Explorer", () => {
  it("indexes a synthetic set: contexts, levels, the tree, records read back from disk by offset", async () => {
    const m = explorer.meta();
    expect(m.synthetic[0]).toMatchObject({ records: 6, contexts: 3, contextsByLevel: [1, 1, 1, 0] });
    const tree = (await get("conversations/topic", "id=8")).body as {
      tree: { context_id: number; children: { context_id: number; children: { context_id: number }[] }[] }[];
    }[];
    expect(tree[0]!.tree[0]!.context_id).toBe(985);
    expect(tree[0]!.tree[0]!.children[0]!.context_id).toBe(2100);
    expect(tree[0]!.tree[0]!.children[0]!.children[0]!.context_id).toBe(3000);
    const ctx = (await get("conversations/context", "id=985&offset=1&limit=5")).body as {
      records: { total: number; items: { record_id: number; question: string }[] };
      id_kind: string;
    };
    expect(ctx.records.total).toBe(3);
    expect(ctx.records.items.map((r) => r.record_id)).toEqual([2001, 2005]);
    expect(ctx.id_kind).toBe("facet number");
    const deep = (await get("conversations/context", "id=3000")).body as { history: { answer: string }[] };
    expect(deep.history.map((t) => t.answer)).toEqual(["a1", "a2"]);
    expect((await get("conversations/context", "id=4")).status).toBe(404);
  });

  it("TREC runs: the comparison equals compareRuns on the same values; rankings in trec_eval's order", async () => {
    const s = (await get("runs/summary")).body as { comparison: { pairs: { measure: string; p: number }[] } };
    expect(s.comparison.pairs.map((p) => p.measure)).toEqual(["map", "recip_rank", "P_10", "ndcg_cut_10"]);
    const d = (await get("runs/deltas", "measure=recip_rank&b=1")).body as {
      rows: { topic: string; a: number; b: number; delta: number }[];
    };
    // Topic 1: a ranks d1 first (1), b ranks d3 first (1); topic 2: a finds d1 at 2 (0.5), b at 1.
    expect(d.rows).toEqual([
      { topic: "2", ranking_topic: "2", a: 0.5, b: 1, delta: 0.5 },
      { topic: "1", ranking_topic: "1", a: 1, b: 1, delta: 0 },
    ]);
    const again = await compareRuns(
      {
        runs: [
          {
            name: "a.run",
            values: new Map([
              [
                "recip_rank",
                new Map([
                  ["1", 1],
                  ["2", 0.5],
                ]),
              ],
            ]),
          },
          {
            name: "b.run",
            values: new Map([
              [
                "recip_rank",
                new Map([
                  ["1", 1],
                  ["2", 1],
                ]),
              ],
            ]),
          },
        ],
      },
      {
        baseline: "a.run",
        test: "t",
        alternative: "two-sided",
        correction: "holm",
        alpha: 0.05,
        missing: "drop",
        zeroMethod: "wilcox",
        continuity: false,
        permutations: 10,
        seed: 1,
        threads: 1,
      },
    );
    expect(s.comparison.pairs.find((p) => p.measure === "recip_rank")!.p).toBe(again.pairs[0]!.p);
    const t = (await get("runs/topic", "id=1")).body as {
      runs: { entries: { doc: string; rel: number | null; only_here: boolean; move: number | null }[] }[];
    };
    expect(t.runs[0]!.entries.map((e) => [e.doc, e.rel, e.only_here])).toEqual([
      ["d1", 1, false],
      ["d2", 0, false],
      ["d5", null, true],
    ]);
    expect(t.runs[1]!.entries.map((e) => [e.doc, e.move])).toEqual([
      ["d3", null],
      ["d1", -1],
      ["d2", -1],
    ]);
  });

  it("passages: iKAT windows of 10 sentences every 5 with ids and md5, two splitters' cuts", async () => {
    const d = (await get("passages/doc", "id=doc-1")).body as {
      sides: {
        splitter: string;
        sentences: string[];
        passages: { id: string; md5: string; first: number; text: string }[];
      }[];
      only: number[][];
    };
    expect(d.sides.map((s) => s.splitter)).toEqual(["sentencizer", "heuristic"]);
    const p = d.sides[0]!.passages;
    expect(d.sides[0]!.sentences).toHaveLength(17);
    expect(p.map((x) => [x.id, x.first])).toEqual([
      ["doc-1:0", 0],
      ["doc-1:1", 5],
      ["doc-1:2", 10],
    ]);
    expect(p[1]!.text.startsWith(d.sides[0]!.sentences.slice(5, 10).join(" "))).toBe(true);
    expect(p[0]!.md5).toMatch(/^[0-9a-f]{32}$/);
    expect(d.only).toEqual([[], []]);
    expect((await get("passages/doc", "id=nope")).status).toBe(404);
  });

  it("a synthetic set given as a pickle (tar.gz) reads as its JSONL does", async () => {
    const jsonl = readFileSync(join(dir, "syn.jsonl"), "utf8").trim().split("\n");
    const records = jsonl.map((l) => JSON.parse(l));
    const pkl = dumpPickle(new Map(records.map((r) => syntheticItem(r))));
    writeFileSync(join(dir, "syn.pkl"), pkl);
    await tarGzFile(join(dir, "syn.pkl"), join(dir, "syn.pkl.tar.gz"));
    const e = await Explorer.open({ synthetic: [join(dir, "syn.pkl.tar.gz")] });
    try {
      expect(e.meta().synthetic[0]).toMatchObject({ records: 6, contexts: 3, contextsByLevel: [1, 1, 1, 0] });
      const ctx = (await e.api("conversations/context", new URLSearchParams("id=985"))).body as {
        records: { items: { record_id: number; question: string }[] };
      };
      expect(ctx.records.items.map((r) => [r.record_id, r.question])).toEqual([
        [2000, "q1"],
        [2001, "q2"],
        [2005, "q3"],
      ]);
    } finally {
      await e.close();
    }
  });

  it("parameters are checked against the route table: a 400 naming the parameter, unknown ids 404", async () => {
    const cases: [string, string, string][] = [
      ["conversations/topics", "file=-1", "file"],
      ["conversations/topics", "file=abc", "file"],
      ["conversations/context", "id=1.5", "id"],
      ["runs/deltas", "b=0", "b"],
      ["runs/deltas", "b=7", "b"],
      ["runs/deltas", "measure=bogus", "measure"],
      ["passages/docs", "limit=100000", "limit"],
      ["passages/docs", `q=${"x".repeat(300)}`, "q"],
      ["passages/docs", "nope=1", "nope"],
      ["passages/doc", "", "id"],
      ["dataset/topics", "split=bogus", "split"],
    ];
    for (const [path, q, parameter] of cases) {
      const a = await get(path, q);
      expect([path, q, a.status]).toEqual([path, q, 400]);
      expect((a.body as { parameter: string }).parameter).toBe(parameter);
      expect((a.body as { error: string }).error).toContain(parameter);
    }
    expect((await get("conversations/topics", "file=5")).status).toBe(404);
    expect((await get("conversations/topic", "id=12345")).status).toBe(404);
    expect((await get("runs/topic", "id=nope")).status).toBe(404);
    expect((await get("runs/topic", "id=2")).status).toBe(200);
  });

  it("unknown endpoints and ids are 404; over HTTP only fixed routes answer, GET and HEAD only", async () => {
    expect((await get("nope")).status).toBe(404);
    const { server, url } = await serveExplorer(explorer, { host: "127.0.0.1", port: 0 });
    try {
      const u = new URL(url);
      const raw = (path: string, method = "GET") =>
        new Promise<number>((resolve, reject) => {
          const r = request({ host: u.hostname, port: u.port, path, method }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          r.on("error", reject);
          r.end();
        });
      expect(await raw("/api/meta")).toBe(200);
      expect(await raw("/")).toBe(200);
      expect(await raw("/../../etc/passwd")).toBe(404);
      expect(await raw("/%2e%2e/%2e%2e/etc/passwd")).toBe(404);
      expect(await raw("/api/..%2fmeta")).toBe(404);
      expect(await raw(`/${join(dir, "a.run")}`)).toBe(404);
      expect(await raw("/api/meta", "PUT")).toBe(405);
      // A 70 KB query is answered (414), in JSON the page can show, not an empty 431.
      const long = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const r = request(
          { host: u.hostname, port: u.port, path: `/api/passages/docs?q=${"x".repeat(70_000)}` },
          (res) => {
            let body = "";
            res.on("data", (d) => {
              body += d;
            });
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        r.on("error", reject);
        r.end();
      });
      expect(long.status).toBe(414);
      expect(JSON.parse(long.body).error).toMatch(/at most 8,192/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

// convkit-gen-eval end to end on a fixture collection written here: loads in the evaluator and in CPython, MAX = oracle.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { readPickleFile } from "@convkit/pickle";
import { evalFixtureArgs, requires, runCli, tempDir, writeEvalFixture } from "@convkit/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";

const METRICS = ["NDCG1", "NDCG3", "NDCG5", "NDCG10", "NDCG20", "P1", "P3", "P5", "P10", "P20", "MRR100"];

describe("convkit-gen-eval on a fixture collection", () => {
  const dir = tempDir("gen-eval-");
  let fx: ReturnType<typeof writeEvalFixture>;
  const prefix = join(dir, "multi_turn_dev_eval");
  beforeAll(() => {
    fx = writeEvalFixture(dir);
    const r = runCli("gen-eval", [...evalFixtureArgs(dir), "-o", prefix]);
    expect(r.code, r.stderr).toBe(0);
  });

  it("writes ClariQ's layout: every metric, int context ids, candidates with both variants, MAX and MIN", () => {
    const d: Record<
      string,
      Record<string, Record<string, { no_answer: number; with_answer: number }>>
    > = JSON.parse(readFileSync(`${prefix}.json`, "utf8"));
    expect(Object.keys(d)).toEqual(METRICS);
    const ctxs = Object.values(d.NDCG5!);
    expect(ctxs.length).toBeGreaterThan(50);
    for (const c of ctxs) {
      const qs = Object.keys(c);
      expect(qs.slice(-2)).toEqual(["MAX", "MIN"]);
      expect(qs[0]).toBe("Q00001");
      const vals = qs.slice(0, -2).map((q) => c[q]!);
      for (const v of ["no_answer", "with_answer"] as const) {
        expect(c.MAX![v]).toBe(Math.max(...vals.map((x) => x[v])));
        expect(c.MIN![v]).toBe(Math.min(...vals.map((x) => x[v])));
      }
    }
  });

  it("-o into a folder that does not exist yet: made, as the other jobs make theirs (it crashed on an unhandled stream error)", () => {
    const nested = join(dir, "new", "folder", "dev_eval");
    const r = runCli("gen-eval", [...evalFixtureArgs(dir), "--format", "json", "-o", nested]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(`${nested}.json`, "utf8")).toBe(readFileSync(`${prefix}.json`, "utf8"));
  });

  it("leaves out the facet without relevant documents", () => {
    const d = JSON.parse(readFileSync(`${prefix}.json`, "utf8"));
    const ids = Object.keys(d.P1).map(Number);
    // The fixture's first facet of topic 203 has only grades <= 0: 1 + n + n(n-1)/2 contexts fewer.
    const all = runCli("gen-eval", [
      ...evalFixtureArgs(dir),
      "--format",
      "json",
      "--max-history",
      "0",
      "--single-turn",
      "-o",
      join(dir, "single"),
    ]);
    expect(all.code, all.stderr).toBe(0);
    const single = JSON.parse(readFileSync(join(dir, "single.json"), "utf8"));
    const empty = fx.facets.filter((f) => !(f in single.P1));
    expect(empty.length).toBe(1);
    expect(Object.keys(single.P1).length).toBe(fx.facets.length - 1);
    expect(ids.length).toBeGreaterThan(0);
  });

  it("the pickle holds the same dict as the JSON (convkit's unpickler)", async () => {
    const fromPickle = await readPickleFile(`${prefix}.pkl.tar.gz`);
    const json = JSON.parse(readFileSync(`${prefix}.json`, "utf8"));
    const plain = (v: unknown): unknown =>
      v instanceof Map ? Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)])) : v;
    expect(plain(fromPickle)).toEqual(json);
  });

  requires("python3").it(
    "CPython loads the pickle to the JSON's values, int context keys and all (python3)",
    () => {
      const out = execFileSync("python3", [
        "-c",
        `import pickle, tarfile, json, sys
tf = tarfile.open(sys.argv[1]); m = tf.getmembers()[0]
d = pickle.load(tf.extractfile(m))
j = json.load(open(sys.argv[2]))
assert m.name == "multi_turn_dev_eval.pkl", m.name
assert all(type(k) is int for k in d["P1"])
assert {k: {str(c): v for c, v in x.items()} for k, x in d.items()} == j
print(len(d["MRR100"]))`,
        `${prefix}.pkl.tar.gz`,
        `${prefix}.json`,
      ]).toString();
      expect(Number(out)).toBeGreaterThan(50);
    },
  );

  it("output bytes are identical with 2 threads and across 2 shards of topics", () => {
    const two = join(tempDir(), "multi_turn_dev_eval"); // same member name inside the tar
    const r = runCli("gen-eval", [...evalFixtureArgs(dir), "--threads", "2", "-o", two]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(`${two}.json`)).toEqual(readFileSync(`${prefix}.json`));
    expect(readFileSync(`${two}.pkl.tar.gz`)).toEqual(readFileSync(`${prefix}.pkl.tar.gz`));
    const shards = [0, 1].map((i) => {
      const p = join(dir, `shard${i}`);
      const s = runCli("gen-eval", [
        ...evalFixtureArgs(dir),
        "--format",
        "json",
        "--shard",
        `${i}/2`,
        "-o",
        p,
      ]);
      expect(s.code, s.stderr).toBe(0);
      return JSON.parse(readFileSync(`${p}.json`, "utf8"));
    });
    const whole = JSON.parse(readFileSync(`${prefix}.json`, "utf8"));
    for (const m of METRICS) {
      const merged = { ...shards[0][m], ...shards[1][m] };
      expect(Object.keys(merged).sort()).toEqual(Object.keys(whole[m]).sort());
      expect(merged).toEqual(whole[m]);
    }
  });

  it("the best-question oracle on the regenerated dict scores exactly each context's MAX in convkit-clariq-eval", () => {
    const run = join(dir, "bestq");
    const dict = `${prefix}.pkl.tar.gz`;
    for (const metric of ["MRR100", "NDCG3"]) {
      const o = runCli("baselines", [
        "oracle",
        "--multi_turn",
        "--metric",
        metric,
        "--eval_dict",
        dict,
        "--data",
        dir,
        "-o",
        run,
      ]);
      expect(o.code, o.stderr).toBe(0);
      const out = join(dir, "perf.json");
      const e = runCli("clariq-eval", [
        "--eval_task",
        "document_relevance",
        "--multi_turn",
        "--data_dir",
        dir,
        "--run_file",
        run,
        "--out_file",
        out,
      ]);
      expect(e.code, e.stderr).toBe(0);
      const per = JSON.parse(readFileSync(out, "utf8"))[metric];
      const d = JSON.parse(readFileSync(`${prefix}.json`, "utf8"))[metric];
      expect(Object.keys(per).length).toBe(Object.keys(d).length);
      for (const [c, v] of Object.entries(d) as [string, { MAX: { with_answer: number } }][])
        expect(per[c], `context ${c}`).toBe(v.MAX.with_answer);
    }
  });

  it("gzipped JSONL texts (held in memory, not by offset) give the same dict", () => {
    const gz = join(dir, "docs.jsonl.gz");
    writeFileSync(gz, gzipSync(readFileSync(join(dir, "docs.jsonl"))));
    const p = join(tempDir(), "multi_turn_dev_eval");
    const r = runCli("gen-eval", [
      "--data",
      dir,
      "--docs",
      join(dir, "docs.run"),
      "--texts",
      gz,
      "--qrels",
      join(dir, "dev.qrel"),
      "--format",
      "json",
      "-o",
      p,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(`${p}.json`)).toEqual(readFileSync(`${prefix}.json`));
  });

  it("--contexts: records from gen:synthetic (JSONL and the pickle in tar.gz) give the planned run's dict", () => {
    const syn = join(dir, "syn");
    const g = runCli("gen-synthetic", [
      "--data",
      dir,
      "--splits",
      "dev",
      "--format",
      "jsonl,pickle",
      "--out",
      syn,
    ]);
    expect(g.code, g.stderr).toBe(0);
    for (const f of ["dev_synthetic.jsonl", "dev_synthetic.pkl.tar.gz"]) {
      const p = join(tempDir(), "multi_turn_dev_eval");
      const r = runCli("gen-eval", [
        ...evalFixtureArgs(dir),
        "--contexts",
        join(syn, f),
        "--format",
        "json",
        "-o",
        p,
      ]);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(readFileSync(`${p}.json`, "utf8")), f).toEqual(
        JSON.parse(readFileSync(`${prefix}.json`, "utf8")),
      );
    }
  });

  it("bad input: a document of the run without a text is one line naming it, exit 2, no output", () => {
    const p = join(dir, "bad");
    const r = runCli("gen-eval", [
      "--data",
      dir,
      "--docs",
      join(dir, "docs.run"),
      "--texts",
      join(dir, "dev.qrel"),
      "--qrels",
      join(dir, "dev.qrel"),
      "-o",
      p,
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split("\n").length).toBe(1);
    expect(() => readFileSync(`${p}.json`)).toThrow();
  });
});

describe("convkit-gen-eval, Qulac's flavour (--qulac-ids, --format qulac-json)", () => {
  it("keys every record id with flag 0 and 1, values as in ClariQ's layout of the same run", async () => {
    const dir = tempDir("gen-eval-qulac-");
    const { formatQulacJson } = await import("@convkit/formats");
    const { rng } = await import("@convkit/test-helpers");
    const r = rng(3);
    const words = "apple pie recipe oven bake sugar flour crust price store".split(" ");
    const pick = (n: number) =>
      Array.from({ length: n }, () => words[Math.floor(r() * words.length)]!).join(" ");
    const rows = [];
    for (const facet of [1, 2])
      for (const q of [1, 2, 3])
        rows.push({
          topic_id: 1,
          facet_id: facet,
          topic_facet_id: `1-${facet}`,
          topic_facet_question_id: `1-${facet}-${q}`,
          topic: "apple pie",
          topic_type: "faceted",
          facet_type: "inf",
          topic_desc: "d",
          facet_desc: "f",
          question: `do you want ${pick(2)}`,
          answer: `${r() < 0.5 ? "no" : "yes"} ${pick(2)}`,
        });
    writeFileSync(join(dir, "qulac.json"), formatQulacJson(rows));
    const docs = Array.from({ length: 60 }, (_, i) => ({ id: `doc${i}`, text: pick(30) }));
    writeFileSync(join(dir, "docs.jsonl"), docs.map((d) => JSON.stringify(d)).join("\n"));
    writeFileSync(join(dir, "docs.run"), docs.map((d, i) => `1 Q0 ${d.id} ${i + 1} ${60 - i} x`).join("\n"));
    writeFileSync(
      join(dir, "qrels"),
      docs.flatMap((d) => ["1-1", "1-2"].map((f) => `${f} 0 ${d.id} ${Math.floor(r() * 4) - 1}`)).join("\n"),
    );
    const p = join(dir, "qulac_eval");
    const g = runCli("gen-eval", [
      "--qulac-ids",
      "--qulac",
      join(dir, "qulac.json"),
      "--docs",
      join(dir, "docs.run"),
      "--texts",
      join(dir, "docs.jsonl"),
      "--qrels",
      join(dir, "qrels"),
      "--format",
      "json,qulac-json",
      "-o",
      p,
    ]);
    expect(g.code, g.stderr).toBe(0);
    const flat = JSON.parse(readFileSync(`${p}.qulac.json`, "utf8"));
    const nested = JSON.parse(readFileSync(`${p}.json`, "utf8"));
    expect(Object.keys(flat)).toEqual(METRICS);
    // 2 facets × (3 + 3·2 + 3·1 records) × 2 flags.
    expect(Object.keys(flat.MRR100).length).toBe(2 * (3 + 6 + 3) * 2);
    expect(flat.MRR100).toHaveProperty("1-2-1-3-2-0");
    expect(flat.MRR100).toHaveProperty("1-1-3-1");
    for (const m of METRICS)
      for (const [ctx, qs] of Object.entries(nested[m]) as [
        string,
        Record<string, { no_answer: number; with_answer: number }>,
      ][])
        for (const [q, v] of Object.entries(qs)) {
          if (q === "MAX" || q === "MIN") continue;
          expect(flat[m][`${ctx}-${q}-0`]).toBe(v.no_answer);
          expect(flat[m][`${ctx}-${q}-1`]).toBe(v.with_answer);
        }
  });
});

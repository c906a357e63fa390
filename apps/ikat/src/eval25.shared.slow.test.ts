// convkit-ikat on 2025 runs and topics (shared): eval-passages as trec_eval scores the official
// generate_run.py output, eval-ptkb, eval-citations into compare, flatten, TREC back to a skeleton.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { requires, rng, runCli, shared, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

const G = (c: string, f: string) => shared("golden", "ikat25", c, f);
const TOPICS = () => shared("data", "ikat", "2025_test_topics.json");
const gunzip = (p: string) => gunzipSync(readFileSync(p)).toString("utf8");

/** Qrels over some of a TREC run's passages (grades -1..3) and a few it missed, seeded. */
function qrelsFor(trec: string, seed: number): string {
  const r = rng(seed);
  const judged = new Map<string, number>();
  const turns = new Set<string>();
  for (const l of trec.split("\n")) {
    if (l === "") continue;
    const [qid, , docno, , score] = l.split("\t");
    turns.add(qid!);
    // A NaN score judged: where trec_eval puts it shows.
    if (r() < 0.2 || score === "nan") judged.set(`${qid} 0 ${docno}`, Math.floor(r() * 5) - 1);
  }
  for (const t of turns)
    if (r() < 0.5) judged.set(`${t} 0 clueweb22-en0000-00-00000:${Math.floor(r() * 9)}`, 2);
  return [...judged].map(([k, g]) => `${k} ${g}\n`).join("");
}

requires("shared").describe("convkit-ikat on 2025 runs (shared)", () => {
  it("eval-passages on a 2025 run = convkit trec-eval on the official generate_run.py file (all_trec, -q)", () => {
    // 035: a NaN score, read as Python's json reads it.
    for (const c of ["000", "035", "049", "061", "098"]) {
      const dir = tempDir();
      const trec = gunzip(G(c, "trec.run.gz"));
      writeFileSync(join(dir, "trec.run"), trec);
      writeFileSync(join(dir, "qrels"), qrelsFor(trec, Number(c) + 1));
      const ours = runCli("ikat", [
        "eval-passages",
        "--qrels",
        join(dir, "qrels"),
        G(c, "run.jsonl.gz"),
        "-m",
        "all_trec",
        "-q",
      ]);
      expect(ours.code, ours.stderr).toBe(0);
      const ref = runCli("trec-eval", ["-q", "-m", "all_trec", join(dir, "qrels"), join(dir, "trec.run")]);
      expect(ref.code, ref.stderr).toBe(0);
      expect(ours.stdout, c).toBe(ref.stdout);
      expect(ours.stdout).toMatch(/^runid\s+\tall\trun-\d+$/m);
    }
  });

  it("eval-ptkb: each response's PTKB ids against relevant_ptkbs (P and R derived here from the raw files)", () => {
    const topics = JSON.parse(readFileSync(TOPICS(), "utf8")) as {
      number: string;
      ptkb: string[];
      responses: { turn_id: number; relevant_ptkbs: string[] }[];
    }[];
    const run = new Map<string, string[]>();
    for (const l of gunzip(G("000", "run.jsonl.gz")).split("\n").filter(Boolean)) {
      const e = JSON.parse(l) as { turn_id: string; responses: { ptkb_provenance: string[] }[] };
      run.set(e.turn_id, [...new Set(e.responses.flatMap((r) => r.ptkb_provenance))]);
    }
    const P: number[] = [];
    const R: number[] = [];
    for (const t of topics)
      for (const u of t.responses) {
        if (u.relevant_ptkbs.length === 0) continue;
        const rel = new Set(u.relevant_ptkbs.map((x) => String(t.ptkb.indexOf(x) + 1)));
        const got = run.get(`${t.number}_${u.turn_id}`) ?? [];
        const hits = got.filter((x) => rel.has(x)).length;
        P.push(got.length ? hits / got.length : 0);
        R.push(hits / rel.size);
      }
    const r = runCli("ikat", ["eval-ptkb", "--topics", TOPICS(), G("000", "run.jsonl.gz")]);
    expect(r.code, r.stderr).toBe(0);
    const all = Object.fromEntries(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => [l.split("\t")[0]!.trim(), Number(l.split("\t")[2])]),
    );
    const mean = (v: number[]) => v.reduce((a, x) => a + x, 0) / v.length;
    expect(all.num_turns).toBe(P.length);
    expect(P.length).toBeGreaterThan(20);
    expect(all.P).toBeCloseTo(mean(P), 4);
    expect(all.R).toBeCloseTo(mean(R), 4);
    expect(all.R).toBeGreaterThan(0);
  });

  it("eval-citations -q files are what convkit compare --per-topic compares", () => {
    const dir = tempDir();
    const trec = gunzip(G("000", "trec.run.gz"));
    writeFileSync(join(dir, "qrels"), qrelsFor(trec, 5));
    const outs = ["000", "006"].map((c) => {
      const r = runCli("ikat", ["eval-citations", "--qrels", join(dir, "qrels"), G(c, "run.jsonl.gz"), "-q"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^cit_rel {15}\t1-1_2\t\d\.\d{4}$/m);
      expect(r.stdout).toMatch(/^num_q {17}\tall\t\d+$/m);
      writeFileSync(join(dir, `${c}.q`), r.stdout);
      return join(dir, `${c}.q`);
    });
    const cmp = runCli("compare", ["--per-topic", "--format", "json", ...outs]);
    expect(cmp.code, cmp.stderr).toBe(0);
    const j = JSON.parse(cmp.stdout);
    expect(j.measures.map((m: { name: string }) => m.name)).toEqual([
      "cit_rel",
      "cit_rel_2",
      "resp_supported",
      "ref_recall",
    ]);
    // And compare --qrels takes the TREC files of 2025 runs.
    writeFileSync(join(dir, "a.run"), trec);
    writeFileSync(join(dir, "b.run"), gunzip(G("006", "trec.run.gz")));
    const q = runCli("compare", [
      "--qrels",
      join(dir, "qrels"),
      "-m",
      "map",
      join(dir, "a.run"),
      join(dir, "b.run"),
    ]);
    expect(q.code, q.stderr).toBe(0);
  });

  it("convert --from-trec --year 2025: a skeleton whose references score as the TREC run", () => {
    const dir = tempDir();
    const trec = gunzip(G("000", "trec.run.gz"));
    writeFileSync(join(dir, "trec.run"), trec);
    writeFileSync(join(dir, "qrels"), qrelsFor(trec, 9));
    const skel = join(dir, "skel.jsonl");
    const c = runCli("ikat", [
      "convert",
      "--from-trec",
      "--year",
      "2025",
      "--team-id",
      "tm",
      join(dir, "trec.run"),
      "-o",
      skel,
    ]);
    expect(c.code, c.stderr).toBe(0);
    const lines = readFileSync(skel, "utf8").trim().split("\n");
    expect(lines.length).toBe(188);
    expect(JSON.parse(lines[0]!).metadata).toEqual({ team_id: "tm", run_id: "run-1", run_type: "automatic" });
    expect(JSON.parse(lines[0]!).responses).toEqual([{ text: "", citations: {}, ptkb_provenance: [] }]);
    const m = ["-m", "all_trec", "-q"];
    const ours = runCli("ikat", ["eval-passages", "--qrels", join(dir, "qrels"), skel, ...m]);
    const ref = runCli("trec-eval", [...m, join(dir, "qrels"), join(dir, "trec.run")]);
    expect(ours.code, ours.stderr).toBe(0);
    expect(ours.stdout).toBe(ref.stdout);
    const bad = runCli("ikat", [
      "convert",
      "--from-trec",
      "--year",
      "2025",
      "--run-type",
      "only_response",
      join(dir, "trec.run"),
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^convkit-ikat convert: --run-type must be one of automatic, manual, generation-only for 2025/,
    );
  });

  it("a 2025 run with a bad field: one line naming file, line and field, exit 2", () => {
    const dir = tempDir();
    const lines = gunzip(G("000", "run.jsonl.gz")).split("\n");
    const e = JSON.parse(lines[4]!);
    e.responses[0].citations = ["clueweb22-en0000-00-00000:1"];
    lines[4] = JSON.stringify(e);
    writeFileSync(join(dir, "run.jsonl"), lines.join("\n"));
    writeFileSync(join(dir, "qrels"), "1-1_1 0 x 1\n");
    for (const cmd of [
      ["eval-passages", "--qrels", join(dir, "qrels")],
      ["eval-citations", "--qrels", join(dir, "qrels")],
      ["eval-ptkb", "--topics", TOPICS()],
    ]) {
      const r = runCli("ikat", [...cmd, join(dir, "run.jsonl")]);
      expect(r.code, cmd[0]).toBe(2);
      expect(r.stderr).toBe(
        `${join(dir, "run.jsonl")}:5: expected an object at responses[0].citations, found ["clueweb22-en0000-00-00000:1"]\n`,
      );
    }
  });

  it("flatten keeps every 2025 turn field, the same from the JSON file and from its Python-literal form", () => {
    const dir = tempDir();
    const raw = JSON.parse(readFileSync(TOPICS(), "utf8")) as {
      number: string;
      responses: Record<string, unknown>[];
    }[];
    const plain = runCli("ikat", ["flatten", TOPICS()]);
    expect(plain.code, plain.stderr).toBe(0);
    const recs = plain.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const turns = raw.flatMap((t) => t.responses.map((u) => ({ id: `${t.number}_${u.turn_id}`, u })));
    expect(recs.map((r) => r.turn_id)).toEqual(turns.map((t) => t.id));
    recs.forEach((r, i) => {
      const u = turns[i]!.u;
      expect([r.utterance, r.resolved_utterance, r.response, r.relevant_ptkbs, r.citations]).toEqual([
        u.user_utterance,
        u.resolved_utterance,
        u.response,
        u.relevant_ptkbs,
        u.citations,
      ]);
    });
    // Python's repr of a str (quotes chosen as Python does) and of a list of strs.
    const pyStr = (s: string) => {
      const q = s.includes("'") && !s.includes('"') ? '"' : "'";
      const body = s
        .replace(/\\/g, "\\\\")
        .replace(/\n/g, "\\n")
        .replace(/\r/g, "\\r")
        .replace(/\t/g, "\\t")
        .replace(q === "'" ? /'/g : /"/g, `\\${q}`);
      return `${q}${body}${q}`;
    };
    const pyList = (v: unknown) => `[${(v as string[]).map(pyStr).join(", ")}]`;
    const literal = raw.map((t) => ({
      ...t,
      responses: t.responses.map((u) => ({
        turn_id: String(u.turn_id),
        user_utterance: pyStr(u.user_utterance as string),
        resolved_utterance: u.resolved_utterance,
        response: pyStr(u.response as string),
        relevant_ptkbs: pyList(u.relevant_ptkbs),
        citations: pyList(u.citations),
      })),
    }));
    writeFileSync(join(dir, "topics.json"), JSON.stringify(literal));
    const lit = runCli("ikat", ["flatten", join(dir, "topics.json")]);
    expect(lit.code, lit.stderr).toBe(0);
    expect(lit.stdout).toBe(plain.stdout);
  });

  it("a run and judgments without a turn in common: all zeros, and a warning says so (exit 0, as trec_eval)", () => {
    const dir = tempDir();
    const run = join(dir, "run.jsonl");
    writeFileSync(run, gunzip(G("000", "run.jsonl.gz")));
    const qrels = join(dir, "other.qrels");
    writeFileSync(qrels, "0_1 0 clueweb22-en0000-00-00000:1 2\n");
    for (const args of [
      ["eval-passages", "--qrels", qrels, run],
      ["eval-citations", "--qrels", qrels, run],
      ["eval-ptkb", "--topics", shared("data", "ikat", "2024_test_topics.json"), run],
    ]) {
      const r = runCli("ikat", args);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /warning: none of the run's 188 turns \(1-1_1, …\) is in .*: every score is 0\n$/,
      );
    }
    const r = runCli("ikat", ["eval-ptkb", "--topics", TOPICS(), run]);
    expect(r.stderr).toBe("");
  });
});

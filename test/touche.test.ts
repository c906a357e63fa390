// convkit-touche end to end: a generated args.me corpus through the TIRA command, checked against a direct scorer; evaluation.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { rng, runCli, tempDir } from "@convkit/test-helpers";
import { argumentText, toucheTerms } from "@convkit/touche";
import { beforeAll, describe, expect, it } from "vitest";

const TOPICS = [
  "Should teachers get tenure?",
  "Is vaping with e-cigarettes safe?",
  "Should the death penalty be abolished?",
];

describe("convkit-touche run (TIRA: -i INPUT_DIR -o OUTPUT_DIR) on a generated args.me corpus", () => {
  const input = tempDir("touche-in-");
  type Arg = {
    id: string;
    conclusion: string;
    premises: { text: string; stance: string; annotations: unknown[] }[];
    context: Record<string, string>;
  };
  const all: Arg[] = [];
  beforeAll(() => {
    const r = rng(5);
    const words =
      "teachers tenure vaping cigarettes safe death penalty abolished school health state law crime evidence students".split(
        " ",
      );
    const filler = "the of and is it that this argument because however".split(" ");
    const text = (n: number) =>
      Array.from({ length: n }, () => (r() < 0.4 ? words : filler)[Math.floor(r() * 10)]!).join(" ");
    for (const [f, n] of [
      ["debateorg.json", 1500],
      ["debatepedia.json", 700],
      ["debatewise.json", 600],
      ["idebate.json", 400],
      ["parliamentary.json", 100],
    ] as const) {
      const args: Arg[] = Array.from({ length: n }, (_, i) => ({
        premises: [
          { text: text(5 + Math.floor(r() * 60)), stance: r() < 0.5 ? "PRO" : "CON", annotations: [] },
        ],
        context: {
          sourceId: `${f}-${i}`,
          previousArgumentInSourceId: "",
          acquisitionTime: "2019-04-18T17:59:57Z",
          discussionTitle: text(4),
          sourceTitle: "Debate",
          sourceUrl: `https://example.org/${f}/${i}`,
          nextArgumentInSourceId: "",
        },
        id: `${f.replace(".json", "")}${i.toString(16).padStart(4, "0")}-A${i}`,
        conclusion: text(3 + Math.floor(r() * 8)),
      }));
      all.push(...args);
      writeFileSync(join(input, f), JSON.stringify({ arguments: args }, null, 1));
    }
    writeFileSync(
      join(input, "topics.xml"),
      `<?xml version="1.0" encoding="UTF-8"?>\n<topics>\n${TOPICS.map((t, i) => `  <topic>\n    <number>${i + 1}</number>\n    <title>${t}</title>\n  </topic>\n`).join("")}</topics>\n`,
    );
  });

  const lines = (out: string) =>
    readFileSync(join(out, "run.txt"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" "));

  it("dirichlet: the top 1,000 per topic by Lucene's LMDirichlet formula, scores non-increasing, ranks 1..n", () => {
    const out = tempDir("touche-out-");
    const r = runCli("touche", ["run", "-i", input, "-o", out]);
    expect(r.code, r.stderr).toBe(0);
    const run = lines(out);
    // The reference: every argument scored directly from the formula over the whole corpus.
    const docs = all.map((a) => ({ id: a.id, terms: toucheTerms(argumentText(a as never)) }));
    const tokens = docs.reduce((n, d) => n + d.terms.length, 0);
    const cf = new Map<string, number>();
    for (const d of docs) for (const t of d.terms) cf.set(t, (cf.get(t) ?? 0) + 1);
    TOPICS.forEach((title, i) => {
      const q = toucheTerms(title);
      const scored = docs
        .filter((d) => q.some((t) => d.terms.includes(t)))
        .map((d) => {
          let s = 0;
          for (const t of q) {
            const tf = d.terms.filter((x) => x === t).length;
            if (tf === 0) continue;
            const v =
              Math.log(1 + tf / (2000 * (((cf.get(t) ?? 0) + 1) / (tokens + 1)))) +
              Math.log(2000 / (d.terms.length + 2000));
            if (v > 0) s += v;
          }
          return { id: d.id, s };
        })
        .sort((a, b) => b.s - a.s || (a.id < b.id ? 1 : -1));
      const ours = run.filter((l) => l[0] === String(i + 1));
      expect(ours.length).toBe(Math.min(1000, scored.length));
      expect(ours.map((l) => l[2])).toEqual(scored.slice(0, 1000).map((x) => x.id));
      ours.forEach((l, k) => {
        expect(l[3]).toBe(String(k + 1));
        expect(Number(l[4])).toBeCloseTo(scored[k]!.s, 12);
        if (k > 0) expect(Number(l[4])).toBeLessThanOrEqual(Number(ours[k - 1]![4]));
      });
    });
  });

  it("bm25 and --depth; a missing input folder is a usage error", () => {
    const out = tempDir("touche-out-");
    expect(runCli("touche", ["run", "-i", input, "-o", out, "--model", "bm25", "--depth", "50"]).code).toBe(
      0,
    );
    const run = lines(out);
    for (const t of ["1", "2", "3"]) expect(run.filter((l) => l[0] === t).length).toBe(50);
    expect(run[0]![5]).toBe("convkit-bm25");
    const bad = runCli("touche", ["run", "-i", join(input, "nope"), "-o", out]);
    expect(bad.code).toBe(2);
  });

  it("eval: nDCG@5 for relevance and quality, -2 spam non-relevant, equal to convkit-trec-eval's ndcg_cut.5", () => {
    const out = tempDir("touche-out-");
    expect(runCli("touche", ["run", "-i", input, "-o", out]).code).toBe(0);
    const run = lines(out);
    const r = rng(9);
    const rel = run.filter(() => r() < 0.5).map((l) => `${l[0]} 0 ${l[2]} ${Math.floor(r() * 5) - 2}`);
    const qual = run.filter(() => r() < 0.5).map((l) => `${l[0]} 0 ${l[2]} ${Math.floor(r() * 4)}`);
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "rel.qrels"), `${rel.join("\n")}\n`);
    writeFileSync(join(dir, "qual.qrels"), `${qual.join("\n")}\n`);
    const e = runCli("touche", [
      "eval",
      "--relevance",
      join(dir, "rel.qrels"),
      "--quality",
      join(dir, "qual.qrels"),
      join(out, "run.txt"),
      "-q",
    ]);
    expect(e.code, e.stderr).toBe(0);
    for (const [kind, q] of [
      ["relevance", "rel.qrels"],
      ["quality", "qual.qrels"],
    ]) {
      const t = runCli("trec-eval", ["-q", "-m", "ndcg_cut.5", join(dir, q!), join(out, "run.txt")]);
      const expected = t.stdout
        .trim()
        .split("\n")
        .filter((l) => l.startsWith("ndcg_cut_5"))
        .map((l) => `ndcg_cut_5_${kind}\t${l.split("\t")[1]}\t${l.split("\t")[2]}`);
      const ours = e.stdout
        .trim()
        .split("\n")
        .filter((l) => l.startsWith(`ndcg_cut_5_${kind}`));
      expect(ours).toEqual(expected);
    }
  });
});

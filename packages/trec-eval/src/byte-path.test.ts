// The byte path (loadByteQrels + evaluateRunFile) against the plain path it replaces (loadQrels +
// loadRun + trecEval) on seeded random qrels and runs full of what real files hold and what they
// should not: CRLF, tabs and spaces, trailing whitespace, comments, a BOM, UTF-8 and invalid
// bytes, \v inside a docno, duplicate docnos and judgments, negative and odd grades, scores in
// every notation, bad fields, topics interleaved or unjudged; read in small units so lines and
// topics straddle reads. Same bytes out, or the same error.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseFloatStrict } from "@convkit/formats";
import { rng } from "@convkit/test-helpers";
import { afterAll, describe, expect, it } from "vitest";
import { formatTrecEval, type TrecEvalOptions, trecEval } from "./evaluate.js";
import { evaluateRunFile, formatRunEvaluation } from "./evaluate-files.js";
import { parseScore, SCORE } from "./line-fields.js";
import { loadQrels, loadRun } from "./load.js";
import { parseMeasures } from "./measure-specs.js";
import { loadByteQrels } from "./qrels-bytes.js";

const dir = mkdtempSync(join(tmpdir(), "convkit-byte-path-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const QIDS = ["1", "2", "10", "3", "q1", "Ω3", "301"];
const DOCS = [
  ...Array.from({ length: 24 }, (_, i) => `d${i}`),
  "D1",
  "ä1",
  "a\u000bb",
  "😀",
  "\uff21",
  "clueweb22-en0000-01-00001",
];
const GRADES = ["0", "1", "2", "3", "-1", "-2", "+1", "007", "-0", "0", "1"];
const SCORES = [
  "1",
  "2",
  "0.5",
  "0.50",
  "-0",
  "-1.25",
  "+3",
  ".5",
  "5.",
  "1e-3",
  "2.5E+2",
  "0.12345678901234567",
  "1e400",
  "inf",
  "-Infinity",
  "nan",
  "12345678901234567890",
  "3.0000000000000004",
];

/** A separator between fields: what runs hold, spaces and tabs in any mix. */
const sep = (r: () => number) => pick(r, [" ", " ", " ", "\t", "  ", " \t "]);
const eol = (r: () => number) => pick(r, ["\n", "\n", "\n", "\r\n", " \n", "\t\n", "\u00a0\n"]);

function qrelsText(r: () => number, bad: boolean): string {
  let s = r() < 0.1 ? "\ufeff" : "";
  for (const q of QIDS.filter(() => r() < 0.7)) {
    const docs = DOCS.filter(() => r() < 0.4);
    if (bad && r() < 0.2 && docs.length) docs.push(docs[0]!); // judged twice
    for (const d of docs) {
      if (r() < 0.05) s += r() < 0.5 ? "# a comment\n" : "\n";
      const g = bad && r() < 0.02 ? "x" : pick(r, GRADES);
      s += `${r() < 0.1 ? " " : ""}${q}${sep(r)}0${sep(r)}${d}${sep(r)}${g}${eol(r)}`;
    }
  }
  return s;
}

function runText(r: () => number, bad: boolean): string {
  const lines: string[] = [];
  for (const q of QIDS.filter(() => r() < 0.8)) {
    const depth = r() < 0.2 ? 0.95 : 0.5;
    const docs = DOCS.filter(() => r() < depth);
    if (bad && r() < 0.15 && docs.length) docs.push(pick(r, docs)); // retrieved twice
    const scores = docs.map(() => (r() < 0.4 ? String(Math.floor(r() * 4) / 2) : pick(r, SCORES)));
    if (r() < 0.1) scores.fill(pick(r, ["1", "0", "-0"])); // one tie of them all
    // Mostly ranked as runs are written (score descending, ties in any order); else in any order.
    if (r() < 0.6) scores.sort((a, b) => Number(b) - Number(a));
    const mixed: string[] = [];
    docs.forEach((d, i) => {
      let f = [q, "Q0", d, String(i + 1), scores[i]!, "tag"];
      if (r() < 0.1) f[4] = f[4] === "0" ? "-0" : f[4] === "1" ? "1.0" : f[4]!; // equal, written otherwise
      if (r() < 0.1) f.push("extra");
      if (bad && r() < 0.01) f[3] = "x";
      if (bad && r() < 0.01) f[4] = "abc";
      if (bad && r() < 0.01) f = f.slice(0, 5);
      if (bad && r() < 0.005) f[2] = "\udcff"; // written as bytes below: invalid UTF-8
      mixed.push(f.join(sep(r)));
    });
    lines.push(...mixed);
  }
  // Interleaved: lines shuffled across topics (trec_eval sorts; the order within a topic moves too).
  if (r() < 0.3)
    for (let i = lines.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [lines[i], lines[j]] = [lines[j]!, lines[i]!];
    }
  let s = r() < 0.1 ? "\ufeff" : "";
  for (const l of lines) s += (r() < 0.03 ? "# comment\n\n" : "") + l + eol(r);
  if (r() < 0.2) s = s.replace(/\r?\n$/, ""); // no final newline
  return s;
}

/** Text as UTF-8, but a lone \udcff as the byte 0xff. */
const bytesOf = (s: string) =>
  Buffer.concat(
    s.split("\udcff").flatMap((p, i) => (i ? [Buffer.from([0xff]), Buffer.from(p)] : [Buffer.from(p)])),
  );

async function outcome(f: () => Promise<string>): Promise<string> {
  try {
    return `ok ${await f()}`;
  } catch (e) {
    return `${(e as Error).constructor.name}: ${(e as Error).message}`;
  }
}

const OPTIONS: TrecEvalOptions[] = [
  {},
  { allTopics: true },
  { maxDocs: 3 },
  { relevanceLevel: 2 },
  { relevanceLevel: 0, allTopics: true, maxDocs: 5 },
];

describe("byte path = plain path", () => {
  it("on 160 seeded random qrels and runs (edge cases included), any unit size", async () => {
    const r = rng(31);
    const specs = parseMeasures(["all_trec", "official"]);
    let errors = 0;
    const routes = new Map<string, number>();
    for (let c = 0; c < 160; c++) {
      const bad = r() < 0.3;
      const q = join(dir, `q${c}`);
      const run = join(dir, `r${c}`);
      writeFileSync(q, bytesOf(qrelsText(r, bad)));
      writeFileSync(run, bytesOf(runText(r, bad)));
      const options = { ...pick(r, OPTIONS), runFile: run };
      const unit = pick(r, [16, 64, 200, 1 << 20]);
      const plain = await outcome(async () => {
        const qrels = await loadQrels(q);
        const { run: entries, tag } = await loadRun(run);
        return formatTrecEval(trecEval(entries, qrels, specs, options), { perTopic: true, runid: tag });
      });
      const fast = await outcome(async () => {
        const qrels = await loadByteQrels(q);
        const ev = await evaluateRunFile(qrels, run, specs, { ...options, perTopicLines: true }, unit);
        const key = `${qrels.fromPlain ? "plain" : "bytes"} qrels, ${ev.route} run`;
        routes.set(key, (routes.get(key) ?? 0) + 1);
        return formatRunEvaluation(ev, true).toString("utf8");
      });
      if (!plain.startsWith("ok")) errors++;
      expect(fast, `case ${c} (${JSON.stringify(options)}, unit ${unit})`).toBe(plain);
    }
    // Both routes of the byte path were taken, and both kinds of outcome met: results and errors.
    expect(routes.get("bytes qrels, stream run")).toBeGreaterThan(20);
    expect(routes.get("bytes qrels, buffered run")).toBeGreaterThan(10);
    expect(errors).toBeGreaterThan(10);
    expect(errors).toBeLessThan(100);
  });

  it("parseScore equals the plain float parser on random score fields", () => {
    const r = rng(7);
    const parts = [
      "",
      "+",
      "-",
      "0",
      "1",
      "9",
      "00",
      "123",
      ".",
      "e",
      "E",
      "e+",
      "e-",
      "5",
      "inf",
      "nan",
      "x",
      "1234567890123456",
    ];
    for (let k = 0; k < 20000; k++) {
      let s = "";
      const n = 1 + Math.floor(r() * 5);
      for (let i = 0; i < n; i++) s += pick(r, parts);
      if (r() < 0.3) s = `${(r() - 0.5) * 10 ** Math.floor(r() * 40 - 20)}`;
      if (r() < 0.2) s = (r() * 1000).toFixed(Math.floor(r() * 18));
      const b = Buffer.from(s, "latin1");
      const plain = parseFloatStrict(s);
      const ok = parseScore(b, 0, b.length);
      expect(ok ? SCORE[0] : undefined, s).toBe(plain);
    }
  });
});

// convkit-segment with spaCy's senter (shared model and goldens): sentences and tokens as spaCy
// gives them, passages the official way, agreement as spaCy itself scores, bad model folders.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pyStrip } from "@convkit/pycompat";
import { agreeingPairs, passagePairs, windowPassages } from "@convkit/segment";
import {
  REPO,
  readSpacyGoldens,
  requires,
  runCli,
  type SpacyGolden,
  shared,
  spacyModel,
  tempDir,
} from "@convkit/test-helpers";
import { beforeAll, expect, it } from "vitest";

// Read from ../shared before the tests (not while the file is collected: without shared/ they are skipped).
let MODEL: string;
let GOLDEN: SpacyGolden[];
let PASSAGES: string;

/** Sentence start offsets from sentence texts found in order in the text. */
function startsOf(text: string, sentences: string[]): number[] {
  const out: number[] = [];
  let from = 0;
  for (const s of sentences) {
    const at = text.indexOf(s, from);
    out.push(at);
    from = at + s.length;
  }
  return out;
}

requires("shared").describe("convkit-segment --splitter spacy (shared model and goldens)", () => {
  let dir: string;
  let sample: SpacyGolden[];
  let input: string;
  beforeAll(() => {
    MODEL = spacyModel();
    GOLDEN = readSpacyGoldens();
    PASSAGES = shared("data", "ikat", "2023_train_topics_psg_text.jsonl");
    dir = tempDir("spacy-cli-");
    // Every 8th golden text, and every long one (iKAT documents as the chunker sees them).
    sample = GOLDEN.filter((g, i) => i % 8 === 0 || g.id.startsWith("ikat-long"));
    input = join(dir, "texts.jsonl");
    writeFileSync(input, `${sample.map((g) => JSON.stringify({ id: g.id, text: g.text })).join("\n")}\n`);
  });

  it("sentences --tokens with 2 threads: spaCy's tokens, spaces, starts and sentences for every text, in input order", () => {
    const out = join(dir, "sentences.jsonl");
    const r = runCli("segment", [
      "sentences",
      "--spacy-model",
      MODEL,
      "--tokens",
      "--threads",
      "2",
      input,
      "-o",
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const got = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as SpacyGolden);
    expect(got.length).toBe(sample.length);
    const bad = got.filter((g, i) => {
      const e = sample[i]!;
      return (
        g.id !== e.id ||
        JSON.stringify([g.tokens, g.ws, g.sent, g.sentences]) !==
          JSON.stringify([e.tokens, e.ws, e.sent, e.sentences])
      );
    });
    expect(bad.map((g) => g.id)).toEqual([]);
    // One thread from stdin: the same bytes.
    const one = runCli(
      "segment",
      ["sentences", "--splitter", "spacy", "--spacy-model", MODEL, "--tokens", "-"],
      readFileSync(input),
    );
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toBe(readFileSync(out, "utf8"));
  });

  it("run: passages are the official method's windows over spaCy's sentences (10 sentences, stride 5)", () => {
    const long = GOLDEN.filter((g) => g.id.startsWith("ikat-long"));
    const docs = join(dir, "docs.jsonl");
    writeFileSync(docs, `${long.map((g) => JSON.stringify({ id: g.id, text: g.text })).join("\n")}\n`);
    const out = join(dir, "passages");
    const r = runCli("segment", ["run", "--spacy-model", MODEL, "--threads", "2", docs, "-o", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/differ from the official/);
    const got = readFileSync(join(out, "docs.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; contents: string });
    const expected = long.flatMap((g) =>
      windowPassages(g.sentences).map((p, k) => ({ id: `${g.id}:${k}`, contents: p })),
    );
    expect(got.length).toBe(expected.length);
    expect(got.map((p) => [p.id, p.contents])).toEqual(expected.map((p) => [p.id, p.contents]));
    // CONVKIT_SPACY_MODEL makes spacy the default splitter: the same passages.
    const env = spawnSync(
      process.execPath,
      [join(REPO, "apps/convkit/bin/convkit-segment.js"), "run", docs, "-o", "-"],
      {
        env: { ...process.env, CONVKIT_SPACY_MODEL: MODEL },
      },
    );
    expect(env.status, env.stderr.toString()).toBe(0);
    expect(env.stdout.toString()).toBe(readFileSync(join(out, "docs.jsonl"), "utf8"));
  });

  it("agreement with the official passages: what spaCy's own sentences score (33/37 with the 3.8.0 model)", () => {
    const r = runCli("segment", [
      "agreement",
      "--splitter",
      "spacy",
      "--spacy-model",
      MODEL,
      "--passages",
      PASSAGES,
    ]);
    expect(r.code, r.stderr).toBe(0);
    const recs = readFileSync(PASSAGES, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { doc_id: string; passage_id: unknown; passage_text: string })
      .map((x) => ({ doc_id: x.doc_id, passage_id: String(x.passage_id), passage_text: x.passage_text }));
    const pairs = passagePairs(recs);
    // The goldens hold the passages as the generator stripped them (one of the 37 ends in U+00A0).
    const byText = new Map(GOLDEN.map((g) => [g.text, g.sentences]));
    const spacyItself = agreeingPairs(pairs, (text) => {
      const core = pyStrip(text);
      return startsOf(text, byText.get(core)!);
    });
    expect(spacyItself).toBe(33);
    expect(r.stdout).toBe(
      `spacy\t${spacyItself}/${pairs.length}\t${((100 * spacyItself) / pairs.length).toFixed(1)}%\n`,
    );
  });

  it("a text with a lone surrogate (spaCy raises UnicodeEncodeError): one line naming file, line and offset, exit 2, no output", () => {
    // 1,200 lines of ~600 bytes: line 1,000 sits in the second work unit (line numbers cross units).
    const good = (i: number) =>
      `${JSON.stringify({ id: `t${i}`, text: `Sentence ${i} is here. ${"word ".repeat(110)}End.` })}\n`;
    const file = join(dir, "lone.jsonl");
    writeFileSync(
      file,
      Array.from({ length: 1200 }, (_, i) =>
        i + 1 === 1000 ? '{"id": "x", "text": "  Fine. Then \\ud800 here."}\n' : good(i),
      ).join(""),
    );
    for (const threads of ["1", "2"]) {
      const out = join(dir, `lone-${threads}`);
      const common = ["--splitter", "spacy", "--spacy-model", MODEL, "--threads", threads, file, "-o"];
      const sentences = runCli("segment", ["sentences", ...common, `${out}.jsonl`]);
      expect(sentences.code, sentences.stderr).toBe(2);
      expect(sentences.stderr.trim().split("\n")).toHaveLength(1);
      expect(sentences.stderr).toMatch(
        /lone\.jsonl:1000: expected a text without a lone surrogate \(spaCy cannot encode one as UTF-8\), found \\ud800 at UTF-16 offset 13$/m,
      );
      expect(existsSync(`${out}.jsonl`)).toBe(false);
      // run: the offset is in the document's text as read (spaCy got it stripped: iKAT's preparation).
      const run = runCli("segment", ["run", ...common, out]);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(
        /lone\.jsonl:1000: expected the text of document "x" without a lone surrogate \(spaCy cannot encode one as UTF-8\), found \\ud800 at UTF-16 offset 13$/m,
      );
      expect(existsSync(join(out, "lone.jsonl"))).toBe(false);
    }
  });

  it("without a model: today's default, and one note on stderr saying how to get the official passages", () => {
    const docs = join(dir, "one.jsonl");
    writeFileSync(docs, `${JSON.stringify({ id: "d", text: "One. Two. Three." })}\n`);
    const r = runCli("segment", ["run", docs, "-o", "-"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.match(/differ from the official iKAT passages/g)?.length).toBe(1);
    expect(r.stderr).toMatch(/en_core_web_sm 3\.4\.1/);
    const noModel = runCli("segment", ["run", "--splitter", "spacy", docs, "-o", "-"]);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toMatch(/needs a spaCy pipeline folder/);
  });
});

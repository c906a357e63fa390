// `segment run --offsets`: each passage's start and end, code points of the document's text, the
// same in the JSONL and the Parquet output, for both presets and any thread count; the manifest
// and the queue payload carry the option.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PASSAGE_SCHEMA, PASSAGE_WITH_OFFSETS_SCHEMA } from "@convkit/formats";
import { segmentFileJob } from "@convkit/segment";
import { rng, runCli, tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { expectParquetRows, jsonlRows } from "./parquet-cases/check.js";

const WORDS = [
  "café",
  "río",
  "über",
  "日本語",
  "文章",
  "😀",
  "𝒜𝒷𝒸",
  "naïve",
  "plain",
  "word",
  "👍🏽",
  "Ünïcödé",
];

/** Seeded documents, sentences one space apart (so that a passage is its slice exactly), leading whitespace. */
function documents(n: number): { jsonl: string; texts: Map<string, string> } {
  const r = rng(41);
  const pick = () => WORDS[Math.floor(r() * WORDS.length)]!;
  const texts = new Map<string, string>();
  let jsonl = "";
  for (let i = 0; i < n; i++) {
    const sentences = Array.from({ length: 3 + (i % 30) }, (_, k) => {
      const words = Array.from({ length: 3 + Math.floor(r() * 8) }, pick).join(" ");
      return `${k % 2 ? "Sentence" : "Then"} ${k} of ${i}: ${words}.`;
    });
    const text = `${i % 2 ? " \n" : ""}${sentences.join(" ")}`;
    texts.set(`doc${i}`, text);
    jsonl += `${JSON.stringify({ id: `doc${i}`, url: `http://x.example/${i}`, title: `Títle ${i} 😀`, text })}\n`;
  }
  return { jsonl, texts };
}

/** `segment run INPUT -o OUT ARGS…`, checked to succeed. */
function segment(input: string, out: string, args: string[]) {
  const r = runCli("segment", ["run", input, "-o", out, ...args]);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

/** Python's `text[start:end]`: a code point slice. */
const slice = (text: string, a: number, b: number) => Array.from(text).slice(a, b).join("");

describe("segment run --offsets", () => {
  const root = tempDir("seg-offsets-");
  const input = join(root, "a.jsonl");
  // Over 512 KiB: two units, so that 2 threads share them.
  const { jsonl, texts } = documents(1100);
  writeFileSync(input, jsonl);
  expect(Buffer.byteLength(jsonl)).toBeGreaterThan(512 * 1024);
  const small = join(root, "small.jsonl");
  writeFileSync(small, documents(100).jsonl);

  for (const [preset, args] of [
    ["ikat", []],
    ["msmarco", ["--preset", "msmarco", "--url-title"]],
  ] as const)
    it(`${preset}: the offsets slice each document's text back to the passage, JSONL and Parquet alike, 1 and 2 threads`, async () => {
      const [a, b] = ["1", "2"].map((threads) => {
        const out = join(root, `${preset}-${threads}`);
        segment(input, out, ["--format", "jsonl,parquet", "--offsets", "--threads", threads, ...args]);
        return out;
      }) as [string, string];
      for (const f of ["a.jsonl", "a.parquet"])
        expect(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), f).toBe(true);
      const rows = jsonlRows(join(a, "a.jsonl"));
      expect(rows.length).toBeGreaterThan(1100);
      const sep = preset === "ikat" ? ":" : "#";
      for (const r of rows) {
        const text = texts.get(String(r.id).split(sep)[0]!)!;
        // --url-title's url and title lines are not in the document: the offsets locate what follows them.
        const passage = preset === "ikat" ? r.contents : String(r.contents).split("\n").slice(2).join("\n");
        expect(slice(text, r.start as number, r.end as number), String(r.id)).toBe(passage);
      }
      expect(
        rows.some((r) => (r.end as number) !== Array.from(String(r.contents)).length + (r.start as number)),
      ).toBe(preset === "msmarco");
      await expectParquetRows(join(a, "a.parquet"), PASSAGE_WITH_OFFSETS_SCHEMA, rows);
    });

  it("without --offsets nothing changes; the option asked for later redoes the outputs, dropped again redoes them", async () => {
    const out = join(root, "resume");
    segment(small, out, ["--format", "jsonl,parquet"]);
    const rows = jsonlRows(join(out, "small.jsonl"));
    expect(rows.every((r) => !("start" in r) && !("end" in r))).toBe(true);
    await expectParquetRows(join(out, "small.parquet"), PASSAGE_SCHEMA, rows);
    expect(segment(small, out, ["--format", "jsonl,parquet"]).stderr).toMatch(/^0 files \(1 already done\)/m);
    const redo = segment(small, out, ["--format", "jsonl,parquet", "--offsets"]);
    expect(redo.stderr).toMatch(/written with other options \(offsets null, now true\), redoing/);
    expect(jsonlRows(join(out, "small.jsonl")).every((r) => typeof r.start === "number")).toBe(true);
    expect(segment(small, out, ["--format", "jsonl,parquet", "--offsets"]).stderr).toMatch(
      /^0 files \(1 already done\)/m,
    );
    expect(segment(small, out, ["--format", "jsonl,parquet"]).stderr).toMatch(
      /offsets true, now null\), redoing/,
    );
    expect(jsonlRows(join(out, "small.jsonl"))).toEqual(rows);
  });
});

describe("a queued unit's payload", () => {
  it("carries --offsets", () => {
    const unit = {
      input: { file: "a", rel: "a" },
      out: "o",
      formats: ["jsonl"],
      preset: "ikat",
      splitter: "icu",
    };
    expect(segmentFileJob.payload({ ...unit, offsets: true })).toMatchObject({ offsets: true });
    expect(segmentFileJob.payload(unit).offsets).toBeUndefined();
  });
});

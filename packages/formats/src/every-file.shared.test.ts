import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { shared } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import type { FormatName } from "./detect.js";
import { parseJsonText } from "./json-text.js";
import { readAny } from "./read-any.js";

/** The format every file of ../shared/data must be recognized as, by content. */
function expectedFormat(rel: string): FormatName | "json" | undefined {
  const name = rel.split("/").at(-1)!;
  if (name === "LICENSE" || name === "README.md") return undefined;
  if (name.endsWith(".eval")) return "json";
  if (["train.tsv", "dev.tsv", "test_with_labels.tsv"].includes(name)) return "clariq-topics";
  if (name === "test.tsv") return "clariq-test-topics";
  if (name === "question_bank.tsv") return "question-bank";
  if (name === "multi_turn_human_generated_data.tsv") return "human-multi-turn";
  if (name.endsWith(".qrel")) return "qrels";
  if (name.endsWith("multi_turn")) return "multi-turn-run";
  if (rel.includes("sample_runs/")) return "run";
  if (name === "qulac.json") return "qulac-json";
  if (name.endsWith("_topics.json")) return "ikat-topics";
  if (name.includes("sample_run")) return "ikat-run";
  if (name === "sample_hashes.tsv") return "passage-hashes";
  if (name.endsWith("psg_text.jsonl")) return undefined; // official passage texts: generic JSONL (tested elsewhere)
  throw new Error(`no expectation for ${rel}`);
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) =>
    statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)],
  );
}

describe("every file of ../shared/data (shared)", () => {
  const root = shared("data");
  for (const path of files(root)) {
    const rel = relative(root, path);
    const expected = expectedFormat(rel);
    if (expected === undefined) continue;
    it(`${rel} is read as ${expected}`, async () => {
      if (expected === "json") {
        const v = parseJsonText(path, readFileSync(path, "utf8")) as Record<string, Record<string, number>>;
        expect(Object.keys(v).length).toBeGreaterThan(0);
        return;
      }
      const { format, batches } = await readAny(path);
      expect(format).toBe(expected);
      let n = 0;
      for await (const b of batches) n += b.length;
      expect(n).toBeGreaterThan(0);
    });
  }
});

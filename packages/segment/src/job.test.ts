// runSegmentation's resume decisions where a CLI test cannot reach: an input that changes while it
// is being segmented is not recorded as done.
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { runSegmentation } from "./job.js";

const line = (i: number) => `${JSON.stringify({ id: `d${i}`, text: `One ${i}. Two. Three.` })}\n`;

describe("runSegmentation", () => {
  it("an input changed while it is segmented: exit-1 error, one line, no manifest; the next run redoes it", async () => {
    const d = tempDir("seg-job-");
    const file = join(d, "a.jsonl");
    writeFileSync(file, Array.from({ length: 100 }, (_, i) => line(i)).join(""));
    const o = { inputs: [file], out: join(d, "out"), formats: ["jsonl" as const], preset: "ikat" as const };
    let changed = false;
    const run = runSegmentation({
      ...o,
      splitter: "heuristic",
      // Called on the main thread once a unit's outputs are written: the input changes mid-run.
      onProgress: () => {
        if (changed) return;
        changed = true;
        appendFileSync(file, line(100));
      },
    });
    await expect(run).rejects.toThrow(
      `${file}: changed while it was being segmented; its outputs are not recorded as done: run again`,
    );
    await expect(run).rejects.toMatchObject({ exitCode: 1 });
    expect(existsSync(join(d, "out", "a.manifest.json"))).toBe(false);
    const notes: string[] = [];
    const again = await runSegmentation({ ...o, splitter: "heuristic", onNote: (l) => notes.push(l) });
    expect(notes).toEqual([
      `${file}: ${join(d, "out", "a")}.* has no manifest (an older convkit's output, or a run killed before its end), redoing`,
    ]);
    expect(again).toMatchObject({ files: 1, skipped: 0, docs: 101 });
    expect(readFileSync(join(d, "out", "a.jsonl"), "utf8")).toContain('"d100:0"');
    expect(JSON.parse(readFileSync(join(d, "out", "a.manifest.json"), "utf8")).docs).toBe(101);
  });
});

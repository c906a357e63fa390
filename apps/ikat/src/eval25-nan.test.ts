// eval-passages on 2025 runs with NaN scores (seeded, no ../shared): the ranking it scores must be
// the one generate_run.py writes, since trec_eval's own sort leaves a NaN where its input put it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { rng, runCli, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

/** A run line whose scores are drawn from a few values, NaN among them (json.dumps spells it NaN). */
function runLine(turn: string, r: () => number): string {
  const values = ["NaN", "0.5", "0.25", "1.0", "0.75", "NaN", "0.5"];
  const refs = Array.from(
    { length: 5 + Math.floor(r() * 25) },
    (_, i) =>
      `"clueweb22-en00${i}-00-00000:${Math.floor(r() * 9)}": ${values[Math.floor(r() * values.length)]}`,
  );
  // A repeated passage id in one dict is one key in Python: keep them apart.
  const unique = [...new Map(refs.map((x) => [x.split(":").slice(0, 2).join(":"), x])).values()];
  return `{"metadata": {"team_id": "t", "run_id": "nanrun", "run_type": "automatic"}, "turn_id": "${turn}", "references": {${unique.join(", ")}}, "responses": [{"text": "x", "citations": {}, "ptkb_provenance": []}]}\n`;
}

it("eval-passages = trec-eval on the converted TREC file, NaN scores anywhere (seeded)", () => {
  for (const seed of [1, 2, 3, 4, 5]) {
    const r = rng(seed);
    const dir = tempDir();
    const turns = Array.from({ length: 6 }, (_, i) => `1-${seed}_${i + 1}`);
    writeFileSync(join(dir, "run.jsonl"), turns.map((t) => runLine(t, r)).join(""));
    const conv = runCli("ikat", ["convert", join(dir, "run.jsonl"), "-o", join(dir, "trec.run")]);
    expect(conv.code, conv.stderr).toBe(0);
    // Every passage judged, grades -1..3, so each NaN's place changes the measures.
    const qrels = turns.flatMap((t) =>
      Array.from({ length: 30 }, (_, i) =>
        Array.from(
          { length: 9 },
          (_, k) => `${t} 0 clueweb22-en00${i}-00-00000:${k} ${Math.floor(r() * 5) - 1}\n`,
        ),
      ).flat(),
    );
    writeFileSync(join(dir, "qrels"), qrels.join(""));
    const m = ["-m", "all_trec", "-q"];
    const ours = runCli("ikat", [
      "eval-passages",
      "--qrels",
      join(dir, "qrels"),
      join(dir, "run.jsonl"),
      ...m,
    ]);
    const ref = runCli("trec-eval", [...m, join(dir, "qrels"), join(dir, "trec.run")]);
    expect(ours.code, ours.stderr).toBe(0);
    expect(ref.code, ref.stderr).toBe(0);
    expect(ours.stdout, `seed ${seed}`).toBe(ref.stdout);
  }
  // 15 commands one after another: ~8 s on a quiet machine, over vitest's 30 s on a loaded one.
}, 120_000);

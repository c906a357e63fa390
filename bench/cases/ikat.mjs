// Bench case: the passage-id database built from a generated hash TSV (rows/s), then a
// 1,000-passages-per-turn run over all 2024 turns validated with the database check.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readIkatTopics } from "@convkit/formats";
import { buildPassageDb, PassageDb, validateRun } from "@convkit/ikat";
import { report } from "./report.mjs";

const [work, topicsFile, mrows, what] = process.argv.slice(2);
mkdirSync(work, { recursive: true });
const rows = Number(mrows) * 1e6;
const tsv = join(work, `hashes-${mrows}m.tsv`);
const id = (i) =>
  `clueweb22-en${String(Math.floor(i / 1e6) % 10000).padStart(4, "0")}-${String(Math.floor(i / 1e4) % 100).padStart(2, "0")}-${String(Math.floor(i / 10) % 1000).padStart(5, "0")}`;
if (!existsSync(tsv)) {
  const parts = [];
  let chunk = "";
  for (let i = 0; i < rows; i++) {
    chunk += `${id(i)}\t${i % 10}\t${((i * 2654435761) >>> 0).toString(16).padStart(8, "0").repeat(4)}\n`;
    if (chunk.length > 1 << 22) {
      parts.push(chunk);
      chunk = "";
    }
  }
  parts.push(chunk);
  writeFileSync(tsv, parts.join(""));
}
const db = join(work, `passages-${mrows}m.sqlite`);
if (what === "build") {
  rmSync(db, { force: true });
  const t0 = performance.now();
  const n = await buildPassageDb(tsv, db);
  report({ records: n, seconds: (performance.now() - t0) / 1000 });
} else {
  if (!existsSync(db)) await buildPassageDb(tsv, db);
  const topics = await readIkatTopics(topicsFile);
  const turns = topics.flatMap((t) => t.turns.map((u) => `${t.number}_${u.turn_id}`));
  let k = 0;
  const run = {
    run_name: "bench",
    run_type: "automatic",
    eval_response: true,
    turns: turns.map((turn_id) => ({
      turn_id,
      responses: [
        {
          rank: 1,
          text: "a response",
          ptkb_provenance: [],
          passage_provenance: Array.from({ length: 1000 }, (_, i) => {
            const j = (k++ * 7919) % rows;
            return { id: `${id(j)}:${j % 10}`, score: 1000 - i, used: i < 5 };
          }),
        },
      ],
    })),
  };
  const t0 = performance.now();
  const findings = validateRun(run, topics, 2024);
  const pdb = new PassageDb(db);
  let missing = 0;
  for (const t of run.turns)
    missing += pdb.missing(t.responses[0].passage_provenance.map((p) => p.id)).length;
  pdb.close();
  if (findings.some((f) => f.level === "error") || missing) throw new Error("the bench run should be valid");
  report({ records: turns.length * 1000, seconds: (performance.now() - t0) / 1000 });
}

// Bench case: a 2025 run of all 188 test turns × 1,000 references (a response of ~150 words
// citing 5 of them), generated once into WORK; `validate` or `convert` it with convkit in this
// process (reading, checking or converting, writing what the official script writes), or
// `fetch` the official scripts (pinned commit) into WORK for bench/py/ikat25_official.py.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pyJsonLoads } from "@convkit/formats";
import { convertRun2025, topicTurnIds2025, validateRun2025 } from "@convkit/ikat";
import { report } from "./report.mjs";

const IKAT_COMMIT = "05399308a3cf4eb56b35bed8bee0771e4f8f1404";
const SCRIPTS = ["validate_trec_ikat25.py", "generate_run.py"];
const [work, topicsFile, what] = process.argv.slice(2);
mkdirSync(work, { recursive: true });
const runFile = join(work, "run25.jsonl");
const topicsText = readFileSync(topicsFile, "utf8");
const ids = topicTurnIds2025(pyJsonLoads(topicsText));
if (!existsSync(runFile)) writeFileSync(runFile, generate([...ids]));
const records = ids.size * 1000;

if (what === "fetch") {
  for (const s of SCRIPTS) {
    const to = join(work, s);
    if (existsSync(to)) continue;
    const git = process.env.IKAT_GIT_DIR;
    // A local clone when given (IKAT_GIT_DIR), else GitHub's raw file at the pinned commit.
    const text = git
      ? execFileSync("git", [`--git-dir=${git}`, "show", `${IKAT_COMMIT}:2025/scripts/${s}`])
      : execFileSync("curl", [
          "-fsSL",
          `https://raw.githubusercontent.com/irlabamsterdam/iKAT/${IKAT_COMMIT}/2025/scripts/${s}`,
        ]);
    writeFileSync(to, text);
  }
  report({ records });
} else {
  const t0 = performance.now();
  const bytes = readFileSync(runFile);
  if (what === "validate") {
    const r = validateRun2025(
      bytes,
      topicTurnIds2025(pyJsonLoads(readFileSync(topicsFile, "utf8"))),
      runFile,
    );
    if (r.exitCode !== 0) throw new Error("the bench run should pass");
    if (r.fixed) writeFileSync(`${runFile}.fixed`, r.fixed);
  } else {
    const r = convertRun2025(runFile, bytes);
    if (r.errors.length) throw new Error("the bench run should convert whole");
    writeFileSync(join(work, "run25.convkit.run"), r.trec);
  }
  report({ records, seconds: (performance.now() - t0) / 1000 });
}

/** The run: deterministic scores (descending), ids of the ClueWeb22 shape. */
function generate(turns) {
  const lines = [];
  let k = 0;
  const words = ["the", "acid", "reflux", "diet", "sleep", "doctor", "meal", "late", "avoid", "coffee"];
  for (const turn of turns) {
    const refs = {};
    for (let i = 0; i < 1000; i++) {
      const j = (k++ * 7919) % 9_999_991;
      const id = `clueweb22-en${String(j % 10000).padStart(4, "0")}-${String(j % 97).padStart(2, "0")}-${String(j % 99991).padStart(5, "0")}:${j % 13}`;
      refs[id] = Math.round((1000 - i) * 1e4 + (j % 7)) / 1e4;
    }
    const ids_ = Object.keys(refs);
    const citations = Object.fromEntries(ids_.slice(0, 5).map((id) => [id, refs[id]]));
    const text = Array.from({ length: 150 }, (_, i) => words[(i * 7 + k) % words.length]).join(" ");
    lines.push(
      JSON.stringify({
        metadata: { team_id: "bench", run_id: "bench-run", run_type: "automatic" },
        turn_id: turn,
        references: refs,
        responses: [{ text, citations, ptkb_provenance: [1] }],
      }),
    );
  }
  return `${lines.join("\n")}\n`;
}

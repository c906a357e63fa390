// convkit-ikat validate: a run judged as the year's official checker judges it.
import { defineCommand } from "@convkit/cli";
import { parseIkatRun, parseJsonText, readIkatTopics } from "@convkit/formats";
import { type Finding, type IkatYear, PassageDb, validateRun } from "@convkit/ikat";
import { openInput, readAll } from "@convkit/io";
import { validate2025 } from "./validate-2025.js";

/** --year's choices as the guidelines' years. */
const IKAT_YEARS = { "2023": 2023, "2024": 2024, "2025": 2025 } as const satisfies Record<string, IkatYear>;

/** `convkit-ikat validate`. */
export const validateCommand = defineCommand({
  name: "convkit-ikat validate",
  summary:
    "Check a run submission with the official checkers' rules for its year. Warnings go to stderr and pass (exit 0); any fatal error is printed with its turn id and the exit code is 2.",
  positionals: { name: "RUN.json", description: "the run submission", min: 1, max: 1 },
  options: [
    {
      name: "year",
      type: "string",
      required: true,
      choices: ["2023", "2024", "2025"],
      description: "the guidelines' year",
    },
    {
      name: "topics",
      type: "string",
      metavar: "FILE",
      required: true,
      description: "the year's topics file",
    },
    {
      name: "passages-db",
      type: "string",
      metavar: "FILE",
      description: "SQLite passage-id database (convkit-ikat build-db): every provenance id must be in it",
    },
    {
      name: "fix",
      type: "string",
      metavar: "FILE",
      description:
        "2025: write the official validator's .fixed file (its trimmed responses and references, byte for byte) to FILE; nothing is written where it writes none",
    },
    {
      name: "format",
      type: "string",
      default: "text",
      choices: ["text", "jsonl"],
      description:
        "findings as text lines on stderr, or as JSON records {line, level, turn, message} on stdout",
    },
  ],
  async run(o, [runFile]) {
    if (o.year === "2025") return validate2025(runFile!, o);
    const topics = await readIkatTopics(o.topics);
    const run = parseJsonText(runFile!, (await readAll(await openInput(runFile!))).toString("utf8"));
    const findings: Finding[] = validateRun(run, topics, IKAT_YEARS[o.year]);
    if (typeof o["passages-db"] === "string" && !findings.some((f) => f.level === "error")) {
      const db = new PassageDb(o["passages-db"]);
      try {
        // The validator found no error: the run has the guidelines' shape, parsed here into its types.
        for (const turn of parseIkatRun(runFile!, run).turns) {
          const ids = turn.responses.flatMap((r) => r.passage_provenance.map((p) => p.id));
          for (const id of db.missing(ids))
            findings.push({
              level: "error",
              turn: turn.turn_id,
              message: `passage ${id} is not in the collection`,
            });
        }
      } finally {
        db.close();
      }
    }
    let text = "";
    for (const f of findings)
      text += `${runFile}: ${f.level}${f.turn ? ` (turn ${f.turn})` : ""}: ${f.message}\n`;
    const errors = findings.filter((f) => f.level === "error").length;
    text += `${runFile}: ${errors ? "INVALID" : "valid"} (${errors} errors, ${findings.length - errors} warnings)\n`;
    process.stderr.write(text);
    return errors ? 2 : 0;
  },
});

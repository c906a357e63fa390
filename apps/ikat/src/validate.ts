// convkit-ikat validate: a run judged as the year's official checker judges it, then convkit's own reading.

import { resolve } from "node:path";
import { defineCommand } from "@convkit/cli";
import { readIkatTopics } from "@convkit/formats";
import { type Finding, type IkatYear, judgeRun, PassageDb } from "@convkit/ikat";
import { InputError, openInput, readAll, UsageError } from "@convkit/io";
import { printFindings } from "./findings.js";
import { onePositional } from "./positional.js";
import { validate2025 } from "./validate-2025.js";

/** --year's choices as the guidelines' years. */
const IKAT_YEARS = { "2023": 2023, "2024": 2024, "2025": 2025 } as const satisfies Record<string, IkatYear>;

/** `convkit-ikat validate`. */
export const validateCommand = defineCommand({
  name: "convkit-ikat validate",
  summary:
    'Check a run submission as the year\'s official checker does. 2023, 2024: run_validation/main.py with -S (or with --passages-db as its passage-id service): its verdict (exit 0 where it exits 0, 2 where it exits 255), each of its WARNING/ERROR lines with the turn (and the line in the run file where the finding belongs to one), in its order, stopping where it stops; then convkit\'s own stricter reading of the guidelines (increasing scores, passage ids not clueweb22-enNNNN-NN-NNNNN:k, ranks not 1, 2, …, missing fields, repeated or unknown turns, …) as warnings marked "convkit:", which fail the run only with --strict. 2025: validate_trec_ikat25.py with its defaults (both fixes on): exit 0 where it exits 0, 2 where it exits 1, its [Line N] errors and missing or additional turn ids, notes marked "convkit:" where convkit reads a line differently (--strict does not apply); --fix FILE writes its .fixed file. Text goes to stderr; --format jsonl prints one {line, level, turn, message} record per finding on stdout.',
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
      description:
        "SQLite passage-id database (convkit-ikat build-db), as the official passage-id service: each id not in it is a warning",
    },
    {
      name: "max-warnings",
      type: "integer",
      metavar: "N",
      min: 0,
      default: 2000,
      description: "the official checker's --max_warnings: more warnings than this fail the run",
    },
    {
      name: "strict",
      type: "boolean",
      description:
        "2023/2024: convkit's own errors (its stricter reading of the guidelines) fail the run too",
    },
    {
      name: "format",
      type: "string",
      default: "text",
      choices: ["text", "jsonl"],
      description: "text: findings and the verdict on stderr; jsonl: one record per finding on stdout",
    },
    {
      name: "fix",
      type: "string",
      metavar: "FILE",
      description:
        "2025: write the official validator's .fixed file (its trimmed responses and references, byte for byte) to FILE; nothing is written where it writes none",
    },
  ],
  async run(o, args) {
    const runFile = onePositional(args, "RUN.json");
    // An option the year's checker has no use for is a mistake to say, not to ignore.
    if (o.year !== "2025" && o.fix !== undefined)
      throw new UsageError(
        "convkit-ikat validate: --fix is for --year 2025 (the 2023/2024 checkers fix nothing)",
      );
    if (o.year === "2025" && (o.strict || o["passages-db"] !== undefined))
      throw new UsageError(
        `convkit-ikat validate: ${o.strict ? "--strict" : "--passages-db"} is for --year 2023/2024 (the 2025 validator has neither)`,
      );
    if (o.fix !== undefined && o.fix !== "-" && resolve(o.fix) === resolve(runFile))
      throw new UsageError(
        "convkit-ikat validate: --fix would overwrite the run it checks; give another file",
      );
    if (o.year === "2025") return validate2025(runFile, o);
    const topics = await readIkatTopics(o.topics);
    const bytes = await readAll(await openInput(runFile));
    let findings: Finding[];
    let valid: boolean;
    const db = typeof o["passages-db"] === "string" ? new PassageDb(o["passages-db"]) : undefined;
    try {
      const j = judgeRun(bytes, topics, IKAT_YEARS[o.year], {
        maxWarnings: o["max-warnings"],
        strict: o.strict,
        ...(db ? { missingPassages: (ids: string[]) => db.missing(ids) } : {}),
      });
      findings = j.findings;
      valid = j.valid;
    } finally {
      db?.close();
    }
    const first = findings[0];
    const unreadable =
      !valid && first?.level === "error" && first.message.startsWith("Run file not in the right format");
    if (unreadable && o.format !== "jsonl") {
      // A run the checker cannot read (not JSON, a field of the wrong type): one line, exit 2
      // (jsonl prints it as its record).
      throw new InputError(
        runFile,
        first.line ? { line: first.line } : {},
        "a run the official checker reads",
        first.message,
      );
    }
    const errors = findings.filter((f) => f.level === "error").length;
    await printFindings(runFile, findings, {
      format: o.format,
      verdict: `${valid ? "valid" : "INVALID"} (${errors} errors, ${findings.length - errors} warnings)`,
    });
    return valid ? 0 : 2;
  },
});

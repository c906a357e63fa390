// convkit-ikat: what iKAT participants run before every submission.
import { defineCommand, startProgress } from "@convkit/cli";
import {
  collect,
  parseIkatRun,
  parseJsonText,
  readIkatRun,
  readIkatTopics,
  readRun,
  writeRun,
} from "@convkit/formats";
import {
  buildPassageDb,
  evaluatePtkb,
  type Finding,
  flattenTopics,
  type IkatYear,
  PassageDb,
  PTKB_MEASURES,
  runToTrec,
  trecToRun,
  validateRun,
} from "@convkit/ikat";
import { openInput, readAll, writeAtomic, writeJsonl, writeStdout } from "@convkit/io";
import { formatTrecEval, loadQrels, parseMeasures, type Scored, trecEval } from "@convkit/trec-eval";

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
  ],
  async run(o, [runFile]) {
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

/** `convkit-ikat convert`. */
export const convertCommand = defineCommand({
  name: "convkit-ikat convert",
  summary:
    "A run submission to TREC run lines as the official generate_run.py does (per turn, provenance in first-seen order, each passage once, score·1/(response rank + 1), rank = position); with --from-trec, TREC lines back to a submission (one response per turn, provenance in trec_eval's order, the top --used marked used).",
  positionals: { name: "INPUT", description: "RUN.json, or a TREC run with --from-trec", min: 1, max: 1 },
  options: [
    { name: "from-trec", type: "boolean", description: "TREC run → submission JSON" },
    { name: "run-name", type: "string", description: "run_name of the submission (default: the TREC tag)" },
    {
      name: "run-type",
      type: "string",
      default: "automatic",
      choices: ["automatic", "manual", "only_response"],
      description: "run_type of the submission",
    },
    { name: "used", type: "integer", min: 0, default: 5, description: "passages marked used per turn" },
    { name: "out", short: "o", type: "string", default: "-", description: "output file (- for stdout)" },
  ],
  async run(o, [input]) {
    if (o["from-trec"]) {
      const lines = await collect(readRun(input!));
      const run = trecToRun(lines, {
        runName: o["run-name"],
        runType: o["run-type"],
        used: o.used,
      });
      await writeAtomic(o.out, (s) => s.write(`${JSON.stringify(run, null, 2)}\n`));
      return 0;
    }
    await writeRun(o.out, [runToTrec(await readIkatRun(input!))]);
    return 0;
  },
});

/** `convkit-ikat flatten`. */
export const flattenCommand = defineCommand({
  name: "convkit-ikat flatten",
  summary:
    "Topics (2023-2025 layouts) into JSONL turn records: turn id topic_turn, utterance, resolved utterance, response, PTKB, provenance, and the history before the turn.",
  positionals: { name: "TOPICS.json", description: "a topics file", min: 1, max: 1 },
  options: [
    { name: "out", short: "o", type: "string", default: "-", description: "JSONL output (- for stdout)" },
  ],
  async run(o, [file]) {
    const turns = flattenTopics(await readIkatTopics(file!));
    await writeJsonl(o.out, [turns]);
    return 0;
  },
});

/** `convkit-ikat eval-ptkb`. */
export const evalPtkbCommand = defineCommand({
  name: "convkit-ikat eval-ptkb",
  summary:
    "PTKB statement ranking of a run (first response per turn) against the topics' ptkb_provenance: P, R, P@1/3/5, MAP per turn (-q) and mean.",
  positionals: { name: "RUN.json", description: "the run submission", min: 1, max: 1 },
  options: [
    {
      name: "topics",
      type: "string",
      metavar: "FILE",
      required: true,
      description: "topics file with ptkb_provenance",
    },
    { name: "q", short: "q", type: "boolean", description: "per-turn values too" },
  ],
  async run(o, [file]) {
    const e = evaluatePtkb(await readIkatRun(file!), await readIkatTopics(o.topics));
    let out = "";
    if (o.q)
      for (const t of e.perTurn)
        for (const m of PTKB_MEASURES) out += `${m.padEnd(22)}\t${t.turn_id}\t${t.values[m]!.toFixed(4)}\n`;
    for (const m of PTKB_MEASURES) out += `${m.padEnd(22)}\tall\t${e.mean[m]!.toFixed(4)}\n`;
    out += `${"num_turns".padEnd(22)}\tall\t${e.perTurn.length}\n`;
    await writeStdout(out);
    return 0;
  },
});

/** `convkit-ikat eval-passages`. */
export const evalPassagesCommand = defineCommand({
  name: "convkit-ikat eval-passages",
  summary:
    "Passage ranking of a run (converted as generate_run.py does) against iKAT qrels, trec_eval-exact (default measures: ndcg_cut.5, P.20, map, recall.1000, recip_rank).",
  positionals: { name: "RUN.json", description: "the run submission", min: 1, max: 1 },
  options: [
    {
      name: "qrels",
      type: "string",
      metavar: "FILE",
      required: true,
      description: "passage qrels (turn_id 0 docid:k grade)",
    },
    {
      name: "measure",
      short: "m",
      type: "string",
      multiple: true,
      description: "trec_eval measures (-m, repeatable)",
    },
    {
      name: "relevance-level",
      short: "l",
      type: "integer",
      default: 1,
      description: "lowest relevant grade (-l)",
    },
    { name: "q", short: "q", type: "boolean", description: "per-turn values too" },
  ],
  async run(o, [file]) {
    const run = new Map<string, Scored[]>();
    for (const l of runToTrec(await readIkatRun(file!))) {
      const t = run.get(l.qid) ?? [];
      t.push({ docno: l.docno, score: l.score });
      run.set(l.qid, t);
    }
    const specs = parseMeasures(
      o.measure.length > 0 ? o.measure : ["ndcg_cut.5", "P.20", "map", "recall.1000", "recip_rank"],
    );
    const r = trecEval(run, await loadQrels(o.qrels), specs, { relevanceLevel: o["relevance-level"] });
    await writeStdout(formatTrecEval(r, { perTopic: o.q }));
    return 0;
  },
});

/** `convkit-ikat build-db`. */
export const buildDbCommand = defineCommand({
  name: "convkit-ikat build-db",
  summary:
    "Build the SQLite passage-id database from a hash TSV (docid<TAB>k<TAB>md5), streaming, one transaction per 100,000 rows.",
  positionals: { name: "HASHES.tsv", description: "the hash TSV (any compression)", min: 1, max: 1 },
  options: [
    {
      name: "db",
      type: "string",
      metavar: "FILE",
      required: true,
      description: "database file (created or extended)",
    },
  ],
  async run(o, [file]) {
    const progress = startProgress("build-db", "rows");
    let last = 0;
    const t0 = performance.now();
    const n = await buildPassageDb(file!, o.db, (rows) => {
      progress.tick(rows - last);
      last = rows;
    });
    progress.done();
    const secs = (performance.now() - t0) / 1000;
    process.stderr.write(`${n} rows in ${secs.toFixed(2)} s (${Math.round(n / secs)} rows/s)\n`);
    return 0;
  },
});

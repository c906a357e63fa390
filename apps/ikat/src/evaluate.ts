// convkit-ikat eval-ptkb, eval-passages and eval-citations: PTKB and passage rankings of a run, and a 2025 run's citations, scored.

import { stat } from "node:fs/promises";
import { defineCommand } from "@convkit/cli";
import {
  detectFormat,
  type Ikat25Turn,
  isParquetFile,
  isParquetHead,
  readIkat25Run,
  readIkatRun,
  readIkatTopics,
} from "@convkit/formats";
import {
  CITATION_MEASURES,
  evaluateCitations,
  evaluatePtkb,
  evaluatePtkbRankings,
  ikat25PassageRankings,
  ikat25PtkbRankings,
  isCountMeasure,
  PTKB_MEASURES,
  type PtkbEvaluation,
  runToTrec,
} from "@convkit/ikat";
import { openInput, peek, writeStdout } from "@convkit/io";
import {
  formatTrecEval,
  formatTrecLine,
  loadQrels,
  loadRun,
  parseMeasureOptions,
  type Scored,
  trecEval,
} from "@convkit/trec-eval";
import { onePositional } from "./positional.js";

// The options the evaluation commands share, each defined once.
const QRELS_OPTION = {
  name: "qrels",
  type: "string",
  metavar: "FILE",
  required: true,
  description: "passage qrels (turn_id 0 docid:k grade)",
} as const;
const RELEVANCE_LEVEL_OPTION = {
  name: "relevance-level",
  short: "l",
  type: "integer",
  default: 1,
  description: "lowest relevant grade (-l)",
} as const;
const PER_TURN_OPTION = {
  name: "q",
  short: "q",
  type: "boolean",
  description: "per-turn values too",
} as const;

/** Whether a run file is a 2025 run (JSON Lines), from its content; else a 2023/2024 run JSON. */
/**
 * Scores of all zeros because the run and the judgments share no turn (another year's topics or
 * qrels, turn ids written differently) look like a bad run: said on stderr, once.
 */
function warnIfDisjoint(
  command: string,
  runTurns: Iterable<string>,
  judged: ReadonlySet<string> | ReadonlyMap<string, unknown>,
  what: string,
): void {
  const turns = [...runTurns];
  if (turns.length === 0 || turns.some((t) => judged.has(t))) return;
  const sample = [...judged.keys()][0];
  process.stderr.write(
    `${command}: warning: none of the run's ${turns.length} turns (${turns[0]}, …) is in ${what}${sample === undefined ? " (it has none)" : ` (${sample}, …)`}: every score is 0\n`,
  );
}

async function is2025(file: string): Promise<boolean> {
  return (await detectFormat(file)) === "ikat25-run";
}

/** Every turn of a 2025 run (a run is small: 188 turns of up to 1,000 references). */
async function ikat25Turns(file: string): Promise<Ikat25Turn[]> {
  const out: Ikat25Turn[] = [];
  for await (const b of readIkat25Run(file)) for (const t of b) out.push(t);
  return out;
}

/**
 * Whether the run is a Parquet table: a regular file sniffed in place, stdin or a pipe peeked at
 * (isParquetFile says false for them). A stream's head is replayed to the next reader (openInput
 * keeps it), so loadRun, or the JSON readers, read it from byte 0 as trec-eval's openTableInput does.
 */
async function isParquetRun(file: string): Promise<boolean> {
  const regular =
    file !== "-" &&
    (await stat(file).then(
      (s) => s.isFile(),
      () => true,
    ));
  if (regular) return isParquetFile(file);
  const { head, close } = await peek((await openInput(file)).chunks, 4);
  await close();
  return isParquetHead(head);
}

/** `convkit-ikat eval-ptkb`. */
export const evalPtkbCommand = defineCommand({
  name: "convkit-ikat eval-ptkb",
  summary:
    "PTKB statement ranking of a run against the topics' relevant statements (2023/2024 ptkb_provenance, 2025 relevant_ptkbs): P, R, P@1/3/5, MAP per turn (-q) and mean. 2023/2024: the first response's list; 2025 (JSON Lines, detected from content): the ids of every response's ptkb_provenance, in order of first mention.",
  positionals: { name: "RUN", description: "the run submission (.json, or a 2025 .jsonl)", min: 1, max: 1 },
  options: [
    {
      name: "topics",
      type: "string",
      metavar: "FILE",
      required: true,
      description: "topics file with ptkb_provenance or relevant_ptkbs",
    },
    PER_TURN_OPTION,
  ],
  async run(o, args) {
    const file = onePositional(args, "RUN");
    const topics = await readIkatTopics(o.topics);
    let e: PtkbEvaluation;
    let runTurns: string[];
    if (await is2025(file)) {
      const rankings = ikat25PtkbRankings(await ikat25Turns(file));
      runTurns = [...rankings.keys()];
      e = evaluatePtkbRankings(rankings, topics);
    } else {
      const run = await readIkatRun(file);
      runTurns = run.turns.map((t) => t.turn_id);
      e = evaluatePtkb(run, topics);
    }
    const judged = new Set<string>();
    for (const t of topics)
      for (const u of t.turns) if (u.ptkb_provenance.length > 0) judged.add(`${t.number}_${u.turn_id}`);
    warnIfDisjoint(
      "convkit-ikat eval-ptkb",
      runTurns,
      judged,
      `the topics' turns with relevant PTKB statements (${o.topics})`,
    );
    let out = "";
    if (o.q)
      for (const t of e.perTurn)
        for (const m of PTKB_MEASURES) out += formatTrecLine(m, t.turn_id, t.values[m]!, false);
    for (const m of PTKB_MEASURES) out += formatTrecLine(m, "all", e.mean[m]!, false);
    out += formatTrecLine("num_turns", "all", e.perTurn.length, true);
    await writeStdout(out);
    return 0;
  },
});

/** `convkit-ikat eval-passages`. */
export const evalPassagesCommand = defineCommand({
  name: "convkit-ikat eval-passages",
  summary:
    "Passage ranking of a run (converted as the year's generate_run.py does; a 2025 run, detected from content: its references, scores as %.6f) against iKAT qrels, trec_eval-exact (default measures: ndcg_cut.5, P.20, map, recall.1000, recip_rank).",
  positionals: {
    name: "RUN",
    description:
      "the run submission (.json, or a 2025 .jsonl), or its passage ranking as a Parquet run table",
    min: 1,
    max: 1,
  },
  options: [
    QRELS_OPTION,
    {
      name: "measure",
      short: "m",
      type: "string",
      multiple: true,
      description: "trec_eval measures (-m, repeatable)",
    },
    RELEVANCE_LEVEL_OPTION,
    PER_TURN_OPTION,
  ],
  async run(o, args) {
    const file = onePositional(args, "RUN");
    // Checked before the run is read: a measure misspelt is a usage line at once.
    const specs = parseMeasureOptions(
      "convkit-ikat eval-passages",
      o.measure.length > 0 ? o.measure : ["ndcg_cut.5", "P.20", "map", "recall.1000", "recip_rank"],
    );
    let run: Map<string, Scored[]>;
    // runid as trec_eval prints it for the TREC file: the tag of its first line.
    let runid: string | undefined;
    if (await isParquetRun(file)) {
      // The passage ranking already as a TREC run table (convkit's layout or ranx's), as
      // convkit-trec-eval reads it.
      ({ run, tag: runid } = await loadRun(file));
    } else if (await is2025(file)) {
      const turns = await ikat25Turns(file);
      runid = turns.find((t) => t.references.length > 0)?.metadata.run_id;
      run = ikat25PassageRankings(turns);
    } else {
      run = new Map();
      for (const l of runToTrec(await readIkatRun(file))) {
        runid ??= l.tag;
        const t = run.get(l.qid) ?? [];
        t.push({ docno: l.docno, score: l.score });
        run.set(l.qid, t);
      }
    }
    const qrels = await loadQrels(o.qrels);
    warnIfDisjoint("convkit-ikat eval-passages", run.keys(), qrels, `the qrels (${o.qrels})`);
    const r = trecEval(run, qrels, specs, {
      relevanceLevel: o["relevance-level"],
      runFile: file,
    });
    await writeStdout(formatTrecEval(r, { perTopic: o.q, runid }));
    return 0;
  },
});

/** `convkit-ikat eval-citations`. */
export const evalCitationsCommand = defineCommand({
  name: "convkit-ikat eval-citations",
  summary:
    "A 2025 run's citations and references against passage qrels (convkit's own measures, see the README): per turn (-q) and over the turns judged, the share of cited passages judged relevant (cit_rel, grade >= -l; cit_rel_2, grade >= 2), of responses citing a relevant passage (resp_supported), and the relevant passages the references reach (num_rel_ref, ref_recall). Lines as trec_eval prints them: convkit compare --per-topic reads them.",
  positionals: { name: "RUN.jsonl", description: "a 2025 run (JSON Lines)", min: 1, max: 1 },
  options: [QRELS_OPTION, RELEVANCE_LEVEL_OPTION, PER_TURN_OPTION],
  async run(o, args) {
    const file = onePositional(args, "RUN.jsonl");
    const qrels = await loadQrels(o.qrels);
    const turns = await ikat25Turns(file);
    warnIfDisjoint(
      "convkit-ikat eval-citations",
      turns.map((t) => t.turn_id),
      qrels,
      `the qrels (${o.qrels})`,
    );
    const e = evaluateCitations(turns, qrels, o["relevance-level"]);
    let out = "";
    if (o.q)
      for (const t of e.perTurn)
        for (const m of CITATION_MEASURES)
          out += formatTrecLine(m, t.turn_id, t.values[m], isCountMeasure(m));
    out += formatTrecLine("num_q", "all", e.perTurn.length, true);
    for (const m of CITATION_MEASURES) out += formatTrecLine(m, "all", e.all[m], isCountMeasure(m));
    await writeStdout(out);
    return 0;
  },
});

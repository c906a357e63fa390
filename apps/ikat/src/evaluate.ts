// convkit-ikat eval-ptkb and eval-passages: PTKB and passage rankings of a run, scored.
import { defineCommand } from "@convkit/cli";
import { readIkatRun, readIkatTopics } from "@convkit/formats";
import { evaluatePtkb, PTKB_MEASURES, runToTrec } from "@convkit/ikat";
import { writeStdout } from "@convkit/io";
import { formatTrecEval, loadQrels, parseMeasures, type Scored, trecEval } from "@convkit/trec-eval";

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

// Per-topic values of several runs, from where users have them: trec_eval -q files, qrels and runs (trec_eval's measures), or the ClariQ evaluator.
import { basename } from "node:path";
import { clariqScorer } from "@convkit/clariq-eval";
import { InputError, openInput, readLineBatches, UsageError } from "@convkit/io";
import { evaluateRunFile, loadByteQrels, parseMeasureOptions } from "@convkit/trec-eval";

/** One run's values: measure → topic → value. */
export type RunValues = Map<string, Map<string, number>>;

/** The runs to compare, in the order given, each under a unique name. */
export interface PerTopicTable {
  runs: { name: string; values: RunValues }[];
}

/** Short names for the runs: file names, or whole paths where two file names are the same. */
export function runNames(paths: readonly string[]): string[] {
  const base = paths.map((p) => (p === "-" ? "<stdin>" : basename(p)));
  return paths.map((p, i) => {
    const b = base[i] ?? p;
    return base.indexOf(b) !== base.lastIndexOf(b) ? p : b;
  });
}

function put(values: RunValues, measure: string, topic: string, value: number): void {
  let m = values.get(measure);
  if (!m) {
    m = new Map();
    values.set(measure, m);
  }
  m.set(topic, value);
}

/**
 * A `trec_eval -q` output file: `measure<TAB>topic<TAB>value` lines (the measure name padded
 * with spaces, as trec_eval prints it); the `all` lines, `runid` and quoted strings (relstring)
 * are skipped. Anything else is an InputError at its line.
 */
export async function readPerTopicFile(path: string): Promise<RunValues> {
  const src = await openInput(path);
  const values: RunValues = new Map();
  for await (const batch of readLineBatches(src)) {
    batch.lines.forEach((line, i) => {
      if (line.trim() === "") return;
      const f = line.split("\t").map((x) => x.trim());
      const [measure = "", topic = "", value = ""] = f;
      if (f.length !== 3 || measure === "" || topic === "" || value === "")
        throw new InputError(src.name, { line: batch.firstLine + i }, "measure<TAB>topic<TAB>value", line);
      if (topic === "all" || measure === "runid" || value.startsWith("'")) return;
      const v = Number(value);
      if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value) || !Number.isFinite(v))
        throw new InputError(src.name, { line: batch.firstLine + i }, "a number in the value field", value);
      put(values, measure, topic, v);
    });
  }
  if (values.size === 0) throw new InputError(src.name, {}, "per-topic lines (trec_eval -q output)", "none");
  return values;
}

/** The measures a comparison can use by default from trec_eval's: those of most papers. */
export const DEFAULT_TREC_MEASURES = ["map", "ndcg_cut.10", "P.10", "recip_rank"];

/**
 * Per-topic values of trec_eval measures (`-m` specs, full precision) for each run against the
 * qrels. `allTopics` is trec_eval's -c: every qrels topic, a run's missing topic scored as
 * trec_eval does. Counts (num_ret, …) and strings (relstring) are left out: they are no scores.
 */
export async function trecPerTopic(
  qrelsPath: string,
  runPaths: readonly string[],
  measures: readonly string[],
  allTopics: boolean,
): Promise<RunValues[]> {
  const specs = parseMeasureOptions(
    "convkit-compare",
    measures.length > 0 ? measures : DEFAULT_TREC_MEASURES,
  );
  // trec_eval's byte path (the qrels read once, each run streamed topic by topic).
  const qrels = await loadByteQrels(qrelsPath);
  const out: RunValues[] = [];
  for (const path of runPaths) {
    const ev = await evaluateRunFile(qrels, path, specs, { allTopics, runFile: path });
    const values: RunValues = new Map();
    for (const t of ev.topics)
      ev.template.forEach((v, i) => {
        if (!v.count && v.text === undefined && v.name !== "runid") put(values, v.name, t.qid, t.values[i]!);
      });
    if (values.size === 0)
      throw new InputError(path === "-" ? "<stdin>" : path, {}, `topics judged in ${qrelsPath}`, "none");
    out.push(values);
  }
  return out;
}

/** Per-topic (facet, context) values of ClariQ runs, as convkit-clariq-eval's --out_file holds them. */
export async function clariqPerTopic(
  task: string,
  dataDir: string,
  multiTurn: boolean,
  experimentType: string,
  runPaths: readonly string[],
): Promise<RunValues[]> {
  if (task !== "document_relevance" && task !== "question_relevance")
    throw new UsageError(
      `--clariq must be document_relevance or question_relevance (clarification_need has no per-topic values), not ${JSON.stringify(task)}`,
    );
  const score = await clariqScorer({
    eval_task: task,
    experiment_type: experimentType,
    data_dir: dataDir,
    multi_turn: multiTurn,
  });
  const out: RunValues[] = [];
  for (const runFile of runPaths) {
    const perf = await score(runFile);
    const values: RunValues = new Map();
    for (const [metric, { ids, values: v }] of perf)
      ids.forEach((id, i) => {
        put(values, metric, String(id), v[i]!);
      });
    out.push(values);
  }
  return out;
}

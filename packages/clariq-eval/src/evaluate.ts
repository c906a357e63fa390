// The ClariQ evaluation tool end to end: what it reads from the data dir, what it prints and writes.
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  clariqFile,
  collect,
  type EvalDict,
  readClariqRows,
  readQuestionBank,
  scanEvalDict,
  toEvalDict,
} from "@convkit/formats";
import { type ByteSource, InputError, openPayload, prefetch, splitParts, UsageError } from "@convkit/io";
import { readPickleFile } from "@convkit/pickle";
import { formatFixed, formatPyFloat, pythonJsonString, pythonMean } from "@convkit/pycompat";
import { evaluateClarificationNeed } from "./clarification-need.js";
import { evaluateDocumentRelevance, topQuestions } from "./document-relevance.js";
import { evaluateQuestionRelevance } from "./question-relevance.js";
import { pandasText, readNeedRun, readRankedRun } from "./run-table.js";

/** The upstream tool's options (same names and defaults). */
export interface ClariqEvalOptions {
  eval_task: "clarification_need" | "document_relevance" | "question_relevance";
  experiment_type: string;
  data_dir: string;
  run_file: string;
  out_file: string;
  multi_turn: boolean;
  leaderboard: boolean;
}

/** What a run of the tool produces: the exact stdout and, when asked, the out_file JSON text. */
export interface ClariqEvalResult {
  stdout: string;
  outFile?: string;
}

/** The topic file upstream reads for an experiment type. */
function topicFile(dataDir: string, type: string): string {
  return clariqFile(dataDir, type === "train" || type === "dev" ? `${type}.tsv` : "test_with_labels.tsv");
}

/** The eval-dict path upstream reads; `x.pkl` may also be `x.pkl.tar.gz` or split `x.pkl.tar.gz.aa…`. */
function evalFile(dataDir: string, type: string, multiTurn: boolean): string {
  const name =
    type === "train" || type === "dev"
      ? multiTurn
        ? `multi_turn_${type}_eval.pkl`
        : "single_turn_train_eval.pkl"
      : "single_turn_test_eval.pkl";
  const plain = join(dataDir, name);
  for (const p of [plain, `${plain}.tar.gz`]) if (existsSync(p) || splitParts(p).length > 0) return p;
  throw new InputError(
    plain,
    {},
    "the eval dict (also looked for .tar.gz and split .tar.gz.aa)",
    "no such file",
  );
}

/** Per metric, the evaluated ids (topics, facets or contexts) in upstream's order and their values. */
export type Performance = ReadonlyMap<
  string,
  { readonly ids: readonly (string | number)[]; readonly values: readonly number[] }
>;

function fromMaps(perf: ReadonlyMap<string, ReadonlyMap<string | number, number>>): Performance {
  return new Map([...perf].map(([m, v]) => [m, { ids: [...v.keys()], values: [...v.values()] }]));
}

/** JSON as Python's json.dump writes a {metric: {id: float}} dict. */
function performanceJson(perf: Performance): string {
  const metrics = [...perf].map(([m, { ids, values }]) => {
    const items = ids.map((k, i) => `${pythonJsonString(String(k))}: ${formatPyFloat(values[i]!)}`);
    return `${pythonJsonString(m)}: {${items.join(", ")}}`;
  });
  return `{${metrics.join(", ")}}`;
}

function means(perf: Performance): Map<string, number> {
  return new Map([...perf].map(([m, v]) => [m, pythonMean(v.values)]));
}

function leaderboardLine(values: number[]): string {
  return `| RANK | CREATOR | MODELNAME | ${values.map((v) => formatFixed(v, 4)).join(" | ")} |\n`;
}

function report(perf: Performance, o: ClariqEvalOptions, board: string[], source: string): ClariqEvalResult {
  const mean = means(perf);
  const missing = o.leaderboard ? board.filter((m) => !mean.has(m)) : [];
  // Upstream stops at a KeyError; a "nan" column would pass for a score.
  if (missing.length > 0)
    throw new InputError(
      source,
      {},
      `the leaderboard's metrics ${board.join(", ")}`,
      `no ${missing.join(", ")}`,
    );
  const stdout = o.leaderboard
    ? leaderboardLine(board.flatMap((m) => mean.get(m) ?? [])) // every one there: checked above
    : [...mean].map(([m, v]) => `${m}: ${formatPyFloat(v)}\n`).join("");
  return o.out_file === "" ? { stdout } : { stdout, outFile: performanceJson(perf) };
}

async function loadEvalDict(path: string): Promise<EvalDict> {
  return toEvalDict(path, await readPickleFile(path));
}

/**
 * Multi-turn document relevance straight off the pickle stream (the dicts are tens of MB): per
 * metric and context, the selected question's `with_answer`, else `MIN`, or 0 without a selection.
 * `selected` maps each context of the run to its question id (null: a question the bank lacks).
 */
async function multiTurnPerformance(
  path: ByteSource,
  selected: ReadonlyMap<number, string | null>,
): Promise<Performance> {
  // Per metric, contexts in dict order with their MIN and selected values (NaN: not seen).
  const byMetric = new Map<string, { ctxs: (string | number)[]; min: number[]; sel: number[] }>();
  const onlyMin: readonly string[] = ["MIN"];
  // Only MIN and the selected question matter: the scan skips every other question unread.
  const wanted = new Map<number, { questions: readonly string[]; pick: string | null }>();
  for (const [ctx, q] of selected) wanted.set(ctx, { questions: q === null ? onlyMin : ["MIN", q], pick: q });
  let questions: readonly string[] = onlyMin;
  let lastMetric: string | undefined;
  let lastCtx: string | number | undefined;
  let cur = { ctxs: [] as (string | number)[], min: [] as number[], sel: [] as number[] };
  let slot = -1;
  let pick: string | null | undefined;
  // A (metric, context) pair opens its slot once: when the scan asks for its questions or, on the
  // general path that does not ask, at its first value.
  const open = (metric: string, ctx: string | number): void => {
    if (metric !== lastMetric) {
      lastMetric = metric;
      lastCtx = undefined;
      const m = byMetric.get(metric);
      if (m) cur = m;
      else {
        cur = { ctxs: [], min: [], sel: [] };
        byMetric.set(metric, cur);
      }
    }
    if (ctx === lastCtx) return;
    lastCtx = ctx;
    slot = cur.ctxs.length;
    cur.ctxs.push(ctx);
    cur.min.push(Number.NaN);
    cur.sel.push(Number.NaN);
    // One lookup per context: the scan asks this for every context of every metric.
    const w = typeof ctx === "number" ? wanted.get(ctx) : undefined;
    pick = w?.pick;
    questions = w?.questions ?? onlyMin;
  };
  await scanEvalDict(
    path,
    (metric, ctx, q, _na, wa) => {
      if (metric !== lastMetric || ctx !== lastCtx) open(metric, ctx);
      if (q === "MIN") cur.min[slot] = wa;
      else if (q === pick && q !== "MAX") cur.sel[slot] = wa;
    },
    (metric, ctx) => {
      open(metric, ctx);
      return questions;
    },
  );
  const perf = new Map<string, { ids: (string | number)[]; values: number[] }>();
  for (const [metric, m] of byMetric) {
    const values = new Array<number>(m.ctxs.length);
    for (let i = 0; i < m.ctxs.length; i++) {
      const ctx = m.ctxs[i]!;
      if (typeof ctx !== "number" || !selected.has(ctx)) values[i] = 0;
      else {
        const v = Number.isNaN(m.sel[i]!) ? m.min[i]! : m.sel[i]!;
        if (Number.isNaN(v))
          throw new InputError(path.name, {}, `a MIN entry for context ${ctx} of ${metric}`, "none");
        values[i] = v;
      }
    }
    perf.set(metric, { ids: m.ctxs, values });
  }
  // Upstream prints nothing and exits 0: no score at all must not pass for a result.
  if (perf.size === 0)
    throw new InputError(path.name, {}, "an eval dict with at least one metric", "an empty dict");
  return perf;
}

function checkKnown(
  run: readonly { line: number; id: number }[],
  known: ReadonlySet<number>,
  file: string,
  what: string,
): void {
  for (const r of run)
    if (!known.has(r.id))
      throw new InputError(file, { line: r.line }, `a ${what} of the topic file`, `unknown topic ${r.id}`);
}

/**
 * Every metric of a single-turn eval dict holds at least one facet of the topic file. Upstream
 * stops with "StatisticsError: mean requires at least one data point" for a metric without one,
 * and prints nothing, exit 0, for a dict without metrics.
 */
function checkCoversFacets(
  evalPath: string,
  topicPath: string,
  topicFacets: readonly string[],
  facets: ReadonlyMap<string, readonly unknown[]>,
): void {
  const shown = topicFacets.slice(0, 3).join(", ");
  const expected = `entries for the facets of ${topicPath} (${shown}${topicFacets.length > 3 ? `, … ${topicFacets.length} in all` : ""})`;
  if (facets.size === 0) throw new InputError(evalPath, {}, `a metric with ${expected}`, "an empty dict");
  for (const [metric, fs] of facets)
    if (fs.length === 0) throw new InputError(evalPath, {}, expected, `none under ${metric}`);
}

/** Runs one evaluation exactly as `clariq_eval_tool.py` does. */
export async function runClariqEval(o: ClariqEvalOptions): Promise<ClariqEvalResult> {
  if (!["clarification_need", "document_relevance", "question_relevance"].includes(o.eval_task)) {
    throw new UsageError(
      `--eval_task must be clarification_need, document_relevance or question_relevance, not ${JSON.stringify(o.eval_task)}`,
    );
  }
  const runName = o.run_file === "-" ? "<stdin>" : o.run_file;
  if (o.eval_task === "clarification_need") {
    const rows = await collect(readClariqRows(topicFile(o.data_dir, o.experiment_type)));
    const labels = new Map<number, number>();
    for (const r of rows) if (!labels.has(r.topic_id)) labels.set(r.topic_id, r.clarification_need);
    const run = await readNeedRun(o.run_file);
    checkKnown(
      run.map((r) => ({ line: r.line, id: r.topic })),
      new Set(labels.keys()),
      runName,
      "topic",
    );
    const predictions = new Map(run.map((r) => [r.topic, r.label]));
    const { precision, recall, f1 } = evaluateClarificationNeed(labels, predictions);
    // Upstream writes no out_file for this task.
    const stdout = o.leaderboard
      ? `<td>${formatFixed(precision, 4)}</td>\n<td>${formatFixed(recall, 4)}</td>\n<td>${formatFixed(f1, 4)}</td>\n`
      : `Precision:  ${formatPyFloat(precision)}\nRecall:  ${formatPyFloat(recall)}\nF1: ${formatPyFloat(f1)}\n`;
    return { stdout };
  }
  const perf = await (await clariqScorer(o))(o.run_file);
  if (o.eval_task === "question_relevance")
    return report(perf, o, ["Recall5", "Recall10", "Recall20", "Recall30"], runName);
  return report(
    perf,
    o,
    ["MRR100", "P1", "NDCG3", "NDCG5"],
    evalFile(o.data_dir, o.experiment_type, o.multi_turn),
  );
}

/**
 * The values the tool averages, per metric and evaluated id (topic, facet or context), in its
 * order: what its out_file holds, for document_relevance and question_relevance (clarification
 * need has no per-topic values). The inputs every run shares (topic file, question bank,
 * single-turn eval dict) are read once; the function returned scores one run file.
 */
export async function clariqScorer(
  o: Pick<ClariqEvalOptions, "eval_task" | "experiment_type" | "data_dir" | "multi_turn">,
): Promise<(runFile: string) => Promise<Performance>> {
  const runName = (f: string) => (f === "-" ? "<stdin>" : f);
  if (o.eval_task === "question_relevance") {
    const rows = await collect(readClariqRows(topicFile(o.data_dir, o.experiment_type)));
    const relevant = new Map<number, Set<string>>();
    for (const r of rows) {
      const s = relevant.get(r.topic_id);
      if (s) s.add(r.question_id);
      else relevant.set(r.topic_id, new Set([r.question_id]));
    }
    if (relevant.size === 0)
      throw new InputError(topicFile(o.data_dir, o.experiment_type), {}, "at least one topic", "none");
    return async (runFile) => {
      const run = await readRankedRun(runFile);
      checkKnown(run, new Set(relevant.keys()), runName(runFile), "topic");
      return fromMaps(evaluateQuestionRelevance(relevant, run));
    };
  }
  if (o.multi_turn) {
    const evalPath = evalFile(o.data_dir, o.experiment_type, true);
    // Started, not awaited: a run's scoring starts unpacking its dict at once, and reading the
    // bank and the run overlaps it (gunzip runs off the main thread).
    const bank = collect(readQuestionBank(clariqFile(o.data_dir, "question_bank.tsv"))).then((rows) => {
      const m = new Map<string, string>();
      for (const q of rows) m.set(pandasText(q.question), q.question_id);
      return m;
    });
    bank.catch(() => {});
    return async (runFile) => {
      const payload = openPayload(evalPath).then(prefetch);
      const [texts, run] = await Promise.all([bank, readRankedRun(runFile)]);
      const selected = new Map<number, string | null>();
      for (const [ctx, text] of topQuestions(run)) selected.set(ctx, texts.get(text) ?? null);
      return await multiTurnPerformance(await payload, selected);
    };
  }
  const topicPath = topicFile(o.data_dir, o.experiment_type);
  const rows = await collect(readClariqRows(topicPath));
  const facetTopic = new Map(rows.map((r) => [r.facet_id, r.topic_id]));
  const evalPath = evalFile(o.data_dir, o.experiment_type, false);
  const evalDict = await loadEvalDict(evalPath);
  // Only facets of the topic file count, in the dict's order.
  const facets = new Map(
    [...evalDict].map(([m, byFacet]) => [m, [...byFacet.keys()].filter((f) => facetTopic.has(f as string))]),
  );
  checkCoversFacets(evalPath, topicPath, [...facetTopic.keys()], facets);
  return async (runFile) => {
    const run = await readRankedRun(runFile);
    checkKnown(run, new Set(facetTopic.values()), runName(runFile), "topic");
    const top = topQuestions(run);
    const perf = evaluateDocumentRelevance(
      evalDict,
      (m) => facets.get(m)!,
      (facet) => top.get(facetTopic.get(facet as string)!),
    );
    return fromMaps(perf);
  };
}

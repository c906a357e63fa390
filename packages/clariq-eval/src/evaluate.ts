// The ClariQ evaluation tool end to end: what it reads from the data dir, what it prints and writes.
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  collect,
  type EvalDict,
  readClariqRows,
  readQuestionBank,
  scanEvalDict,
  toEvalDict,
} from "@convkit/formats";
import {
  type ByteSource,
  formatPyFloat,
  InputError,
  openPayload,
  prefetch,
  pythonJsonString,
  splitParts,
  UsageError,
} from "@convkit/io";
import { readPickleFile } from "@convkit/pickle";
import { formatFixed, pythonMean } from "@convkit/pynum";
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
  return join(dataDir, type === "train" || type === "dev" ? `${type}.tsv` : "test_with_labels.tsv");
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

/** JSON as Python's json.dump writes a {metric: {id: float}} dict. */
function performanceJson(perf: ReadonlyMap<string, ReadonlyMap<string | number, number>>): string {
  const metrics = [...perf].map(([m, values]) => {
    const items = [...values].map(([k, v]) => `${pythonJsonString(String(k))}: ${formatPyFloat(v)}`);
    return `${pythonJsonString(m)}: {${items.join(", ")}}`;
  });
  return `{${metrics.join(", ")}}`;
}

function means(perf: ReadonlyMap<string, ReadonlyMap<string | number, number>>): Map<string, number> {
  return new Map([...perf].map(([m, v]) => [m, pythonMean([...v.values()])]));
}

function leaderboardLine(values: number[]): string {
  return `| RANK | CREATOR | MODELNAME | ${values.map((v) => formatFixed(v, 4)).join(" | ")} |\n`;
}

function report(
  perf: Map<string, Map<string | number, number>>,
  o: ClariqEvalOptions,
  board: string[],
): ClariqEvalResult {
  const mean = means(perf);
  const stdout = o.leaderboard
    ? leaderboardLine(board.map((m) => mean.get(m) ?? Number.NaN))
    : [...mean].map(([m, v]) => `${m}: ${formatPyFloat(v)}\n`).join("");
  return o.out_file === "" ? { stdout } : { stdout, outFile: performanceJson(perf) };
}

async function loadEvalDict(path: string): Promise<EvalDict> {
  return toEvalDict(path, await readPickleFile(path));
}

/**
 * Multi-turn document relevance straight off the pickle stream (the dicts are tens of MB): per
 * metric and context, the selected question's `with_answer`, else `MIN`, or 0 without a selection.
 */
async function multiTurnPerformance(
  path: ByteSource,
  selected: (ctx: number) => string | null | undefined,
): Promise<Map<string, Map<string | number, number>>> {
  // Per metric, contexts in dict order with their MIN and selected values (NaN: not seen).
  const byMetric = new Map<string, { ctxs: (string | number)[]; min: number[]; sel: number[] }>();
  // Context ids run to millions and are sparse: Maps, not arrays (sparse arrays turn slow).
  const choice = new Map<number, string | null | undefined>();
  const choose = (ctx: string | number) => {
    if (typeof ctx !== "number") return undefined;
    if (choice.has(ctx)) return choice.get(ctx);
    const c = selected(ctx);
    choice.set(ctx, c);
    return c;
  };
  const wanted = new Map<number, Set<string>>();
  const onlyMin = new Set(["MIN"]);
  // Consecutive values share their metric and context: look each up once per run of them.
  let lastMetric: string | undefined;
  let lastCtx: string | number | undefined;
  let cur = { ctxs: [] as (string | number)[], min: [] as number[], sel: [] as number[] };
  let slot = -1;
  let pick: string | null | undefined;
  await scanEvalDict(
    path,
    (metric, ctx, q, _na, wa) => {
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
      if (ctx !== lastCtx) {
        lastCtx = ctx;
        slot = cur.ctxs.length;
        cur.ctxs.push(ctx);
        cur.min.push(Number.NaN);
        cur.sel.push(Number.NaN);
        pick = choose(ctx);
      }
      if (q === "MIN") cur.min[slot] = wa;
      else if (q === pick && q !== "MAX") cur.sel[slot] = wa;
    },
    (_metric, ctx) => {
      // Only MIN and the selected question matter: skip every other question unread.
      if (typeof ctx !== "number") return onlyMin;
      let w = wanted.get(ctx);
      if (!w) {
        const c = choose(ctx);
        w = c ? new Set(["MIN", c]) : onlyMin;
        wanted.set(ctx, w);
      }
      return w;
    },
  );
  const perf = new Map<string, Map<string | number, number>>();
  for (const [metric, m] of byMetric) {
    const values = new Map<string | number, number>();
    m.ctxs.forEach((ctx, i) => {
      if (choose(ctx) === undefined) values.set(ctx, 0);
      else {
        const v = Number.isNaN(m.sel[i]!) ? m.min[i]! : m.sel[i]!;
        if (Number.isNaN(v))
          throw new InputError(path.name, {}, `a MIN entry for context ${ctx} of ${metric}`, "none");
        values.set(ctx, v);
      }
    });
    perf.set(metric, values);
  }
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
  if (o.eval_task === "question_relevance") {
    const rows = await collect(readClariqRows(topicFile(o.data_dir, o.experiment_type)));
    const relevant = new Map<number, Set<string>>();
    for (const r of rows) {
      const s = relevant.get(r.topic_id);
      if (s) s.add(r.question_id);
      else relevant.set(r.topic_id, new Set([r.question_id]));
    }
    const run = await readRankedRun(o.run_file);
    checkKnown(run, new Set(relevant.keys()), runName, "topic");
    return report(evaluateQuestionRelevance(relevant, run), o, [
      "Recall5",
      "Recall10",
      "Recall20",
      "Recall30",
    ]);
  }
  const board = ["MRR100", "P1", "NDCG3", "NDCG5"];
  if (o.multi_turn) {
    // Unpacking the eval dict (gunzip runs off the main thread) overlaps reading the run and bank.
    const evalPath = evalFile(o.data_dir, o.experiment_type, true);
    const payload = openPayload(evalPath).then(prefetch);
    const [bankRows, run] = await Promise.all([
      collect(readQuestionBank(join(o.data_dir, "question_bank.tsv"))),
      readRankedRun(o.run_file),
    ]);
    const bank = new Map<string, string>();
    for (const q of bankRows) bank.set(pandasText(q.question), q.question_id);
    const top = topQuestions(run);
    const selected = (ctx: number): string | null | undefined => {
      const text = top.get(ctx);
      return text === undefined ? undefined : (bank.get(text) ?? null);
    };
    return report(await multiTurnPerformance(await payload, selected), o, board);
  }
  const rows = await collect(readClariqRows(topicFile(o.data_dir, o.experiment_type)));
  const facetTopic = new Map(rows.map((r) => [r.facet_id, r.topic_id]));
  const evalDict = await loadEvalDict(evalFile(o.data_dir, o.experiment_type, false));
  const run = await readRankedRun(o.run_file);
  checkKnown(run, new Set(facetTopic.values()), runName, "topic");
  const top = topQuestions(run);
  const perf = evaluateDocumentRelevance(
    evalDict,
    // Only facets of the topic file count, in the dict's order.
    (m) => [...evalDict.get(m)!.keys()].filter((f) => facetTopic.has(f as string)),
    (facet) => top.get(facetTopic.get(facet as string)!),
  );
  return report(perf, o, board);
}

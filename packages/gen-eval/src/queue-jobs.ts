// gen:eval's job kinds on the queue, declared once for the command that submits a run and the
// worker that runs it: one unit per group of topics (spooled beside the output), and the run's
// end writing the dicts.
import type { Fields } from "@convkit/json";
import { CODECS } from "@convkit/parquet";
import { defineJobKindWithState, defineRunKind } from "@convkit/queue";
import {
  discardQueuedEval,
  evaluateQueuedTopics,
  finishQueuedEval,
  type GenEvalSummary,
  type GenEvalUnitData,
  type GenEvalUnitResult,
  openGenEvalPool,
  type QueuedGenEvalOptions,
} from "./generate.js";
import { readInRange } from "./ranges.js";
import type { RankingOptions } from "./topic-eval.js";

const MODELS = ["ql", "dirichlet", "bm25"] as const satisfies readonly RankingOptions["model"][];
const FORMATS = [
  "pickle",
  "json",
  "qulac-json",
  "parquet",
] as const satisfies QueuedGenEvalOptions["formats"];

function readRanking(f: Fields): RankingOptions {
  return {
    model: f.choice("model", MODELS),
    mu: readInRange(f, "mu"),
    k1: readInRange(f, "k1"),
    b: readInRange(f, "b"),
    float32: f.optionalBoolean("float32"),
  };
}

function readOptions(f: Fields): QueuedGenEvalOptions {
  return {
    data: f.string("data"),
    qulac: f.optionalString("qulac"),
    split: f.string("split"),
    maxHistory: readInRange(f, "maxHistory"),
    singleTurn: f.optionalBoolean("singleTurn"),
    qulacIds: f.optionalBoolean("qulacIds"),
    contexts: f.optionalString("contexts"),
    docs: f.string("docs"),
    texts: f.strings("texts"),
    qrels: f.string("qrels"),
    stats: f.optionalString("stats"),
    depth: readInRange(f, "depth"),
    ranking: readRanking(f.object("ranking")),
    out: f.string("out"),
    formats: f.choices("formats", FORMATS),
    compression: f.has("compression") ? f.choice("compression", CODECS) : undefined,
  };
}

/** A unit: a group of topics evaluated on the worker's thread pool into spool files. */
export const genEvalTopicsJob = defineJobKindWithState({
  name: "gen-eval-topics",
  payload: (f): GenEvalUnitData => ({
    options: readOptions(f.object("options")),
    topics: f.integers("topics"),
    spools: f.string("spools"),
  }),
  result: (f): GenEvalUnitResult => ({
    topics: f.integer("topics"),
    contexts: f.integer("contexts"),
    queries: f.integer("queries"),
  }),
  open: (env) => openGenEvalPool(env.threads),
  close: (pool) => pool.destroy(),
  handle: (data, ctx, pool) => evaluateQueuedTopics(data, pool, (topics) => ctx.progress(topics, 0)),
});

/** The run's end: what it needs to write the dicts from the units' spools. */
export interface GenEvalRunData {
  options: QueuedGenEvalOptions;
  /** The run's spool folder (removed at its end). */
  spoolDir: string;
  /** Each unit's spool prefix, in unit order. */
  unitSpools: string[];
}

/** The run's end: the dicts from the units' spools, in unit order; with a failed unit, nothing is written. */
export const genEvalRunJob = defineRunKind({
  name: "gen-eval-run",
  unit: genEvalTopicsJob,
  payload: (f): GenEvalRunData => ({
    options: readOptions(f.object("options")),
    spoolDir: f.string("spoolDir"),
    unitSpools: f.strings("unitSpools"),
  }),
  result: (f): GenEvalSummary => ({
    topics: f.integer("topics"),
    contexts: f.integer("contexts"),
    queries: f.integer("queries"),
    files: f.strings("files"),
  }),
  handle: async (p, units) => {
    // A dict with topics missing is not the dict: no file written, none reported.
    if (units.failed.length) {
      await discardQueuedEval(p.spoolDir);
      return { topics: 0, contexts: 0, queries: 0, files: [] };
    }
    return finishQueuedEval(p.options, p.spoolDir, p.unitSpools, units.results);
  },
});

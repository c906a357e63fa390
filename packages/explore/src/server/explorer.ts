// The explorer: the inputs named on the command line, opened once, answering the app's GET requests.
import { readdir, symlink } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { pandasText, readRankedRun, topQuestions } from "@convkit/clariq-eval";
import { readIkat25Run, readIkatTopics, readQuestionBank } from "@convkit/formats";
import { InputError, openInput, peek, UsageError } from "@convkit/io";
import { ABSENT_TOPICS } from "@convkit/synthetic-plan";
import { loadQrels } from "@convkit/trec-eval";
import type { Meta } from "../shared/api.js";
import { at } from "../shared/checked.js";
import { IdDecoder } from "./clariq-ids.js";
import { SyntheticSet } from "./conversations.js";
import { Dataset } from "./dataset.js";
import { EvalDictFile } from "./eval-dicts.js";
import { answer } from "./handlers.js";
import type { Answer, Inputs } from "./inputs.js";
import { PassageFile, Splitters } from "./passages.js";
import { ResponseSet, shortNames } from "./responses.js";
import { RunSet } from "./runs.js";
import { makeTempDir, removeTempDir } from "./temp-dirs.js";

export interface ExploreOptions {
  /** ClariQ's data folder (train/dev/test_with_labels.tsv, question_bank.tsv). */
  data?: string;
  /** qulac.json. */
  qulac?: string;
  /** gen:synthetic's JSONL sets. */
  synthetic?: readonly string[];
  /** ClariQ eval dicts (.pkl or .pkl.tar.gz). */
  evalDicts?: readonly string[];
  /** TREC qrels for the runs; without them the runs are ClariQ runs scored with `data`. */
  qrels?: string;
  /** TREC, ClariQ or iKAT 2025 (JSONL) runs; 2025 runs are told apart by their content. */
  runs?: readonly string[];
  /** iKAT topics (2025: the gold responses and citations of the Responses view). */
  topics?: string;
  /** ClariQ split of the runs (their topic file). */
  split?: string;
  /** Documents or iKAT official passages (JSONL). */
  passages?: readonly string[];
  /** The two splitters of the Passages view. */
  splitters?: readonly [string, string];
  /** spaCy pipeline folder for the `spacy` splitter. */
  spacyModel?: string;
}

export class Explorer implements Inputs {
  private constructor(
    readonly options: ExploreOptions,
    readonly dataset: Dataset | undefined,
    readonly synthetic: SyntheticSet[],
    readonly evalDicts: EvalDictFile[],
    readonly runs: RunSet | undefined,
    /** Per run, its pick per context or topic id (ClariQ runs). */
    readonly picks: { run: string; byId: Map<number, string | null> }[],
    readonly passages: PassageFile[],
    readonly splitters: Splitters,
    readonly decoder: IdDecoder | undefined,
    readonly responses: ResponseSet | undefined,
    private readonly scoringDir: string | undefined,
    readonly openSeconds: number,
  ) {}

  static async open(o: ExploreOptions): Promise<Explorer> {
    const t0 = performance.now();
    const dataset =
      o.data !== undefined || o.qulac !== undefined ? await Dataset.open(o.data, o.qulac) : undefined;
    const synthetic: SyntheticSet[] = [];
    const evalDicts: EvalDictFile[] = [];
    let scoringDir: string | undefined;
    try {
      for (const p of o.synthetic ?? []) synthetic.push(await SyntheticSet.open(p));
      // ClariQ's ids decoded by gen:synthetic's own numbering (topics <= 200 need qulac.json).
      let decoder: IdDecoder | undefined;
      if (synthetic.length > 0 && o.data !== undefined)
        decoder = await IdDecoder.open(o.data, o.qulac).catch((e: unknown) => {
          if (e instanceof InputError) return undefined;
          throw e;
        });
      for (const p of o.evalDicts ?? []) evalDicts.push(await EvalDictFile.open(p));
      let runs: RunSet | undefined;
      const picks: { run: string; byId: Map<number, string | null> }[] = [];
      const all = o.runs ?? [];
      const is25 = await Promise.all(all.map(isIkat25Run));
      const runs25 = all.filter((_, i) => is25[i]);
      const runPaths = all.filter((_, i) => !is25[i]);
      if (runs25.length > 0 && runPaths.length > 0)
        throw new UsageError(
          `--run: iKAT 2025 runs (JSON Lines) and TREC or ClariQ runs cannot be mixed (${basename(at(runs25, 0))} and ${basename(at(runPaths, 0))})`,
        );
      const passages = await Promise.all((o.passages ?? []).map((p) => PassageFile.open(p)));
      let responses: ResponseSet | undefined;
      if (runs25.length > 0 || o.topics !== undefined) {
        // With qrels and two runs or more, the references also go to the Runs view as TREC runs.
        const names = shortNames(runs25);
        const ranked = o.qrels !== undefined && runs25.length >= 2;
        const dir = ranked ? makeTempDir("convkit-explore-runs-") : undefined;
        if (dir) scoringDir = dir;
        const trecOut = dir ? runs25.map((_, i) => join(dir, `run${i}.trec`)) : undefined;
        responses = await ResponseSet.open({
          topics: o.topics === undefined ? [] : await readIkatTopics(o.topics),
          runs: runs25.map((p, i) => ({ name: at(names, i), turns: readIkat25Run(p) })),
          passages,
          ...(o.qrels !== undefined ? { qrels: await loadQrels(o.qrels) } : {}),
          ...(trecOut ? { trecOut } : {}),
          ranked: () => runs !== undefined,
        });
        if (trecOut && o.qrels !== undefined)
          runs = await RunSet.open(trecOut, { kind: "trec", qrels: o.qrels }, names);
      }
      if (runPaths.length > 0 && o.data === undefined && (runPaths.length < 2 || o.qrels === undefined))
        // Otherwise the runs would be left out of every view without a word.
        throw new UsageError(
          `--run: TREC runs are compared with --qrels and at least two runs, ClariQ runs with --data (${runPaths.length} run${runPaths.length === 1 ? "" : "s"}${o.qrels === undefined ? ", no --qrels" : ""})`,
        );
      if (runPaths.length >= 2 && o.qrels !== undefined)
        runs = await RunSet.open(runPaths, { kind: "trec", qrels: o.qrels });
      else if (runPaths.length > 0 && o.data !== undefined) {
        // ClariQ's tool looks for its eval dict in the data folder: a folder of links to both.
        scoringDir = makeTempDir("convkit-explore-data-");
        for (const f of await readdir(o.data)) await symlink(resolve(o.data, f), join(scoringDir, f));
        for (const p of o.evalDicts ?? []) {
          const name = basename(p);
          if (!(await readdir(scoringDir)).includes(name)) await symlink(resolve(p), join(scoringDir, name));
        }
        const hasDict = (await readdir(scoringDir)).some((f) => f.startsWith("single_turn_train_eval.pkl"));
        const bank = new Map<string, string>();
        for await (const b of readQuestionBank(join(o.data, "question_bank.tsv")))
          for (const q of b) bank.set(pandasText(q.question), q.question_id);
        for (const p of runPaths) {
          const top = topQuestions(await readRankedRun(p));
          const byId = new Map<number, string | null>();
          for (const [id, text] of top) byId.set(id, /^Q\d+$/.test(text) ? text : (bank.get(text) ?? null));
          picks.push({ run: basename(p), byId });
        }
        // Multi-turn runs (a pick per context of a multi-turn dict given) are scored as the tool's
        // multi-turn task does: the pick's value in the dict (multi_turn_<split>_eval.pkl).
        const multiTurn =
          picks.length > 0 &&
          evalDicts.some((d) => !d.keyedByFacet && picks.every((k) => d.covers(k.byId.keys())));
        if (runPaths.length >= 2)
          runs = await RunSet.open(runPaths, {
            kind: "clariq",
            task: hasDict || multiTurn ? "document_relevance" : "question_relevance",
            dataDir: scoringDir,
            split: o.split ?? "dev",
            multiTurn,
          });
      }
      const splitters = new Splitters(
        o.splitters ?? [o.spacyModel !== undefined ? "spacy" : "sentencizer", "heuristic"],
        o.spacyModel,
      );
      return new Explorer(
        o,
        dataset,
        synthetic,
        evalDicts,
        runs,
        picks,
        passages,
        splitters,
        decoder,
        responses,
        scoringDir,
        (performance.now() - t0) / 1000,
      );
    } catch (e) {
      for (const s of synthetic) s.close();
      await Promise.all(evalDicts.map((d) => d.close()));
      removeTempDir(scoringDir);
      throw e;
    }
  }

  async close(): Promise<void> {
    for (const s of this.synthetic) s.close();
    await Promise.all(this.evalDicts.map((d) => d.close()));
    removeTempDir(this.scoringDir);
  }

  /** Which views have data, and the headline counts of each (file names only: no local folders). */
  meta(): Meta {
    return {
      views: {
        dataset: this.dataset !== undefined,
        conversations: this.synthetic.length > 0,
        evalDicts: this.evalDicts.length > 0,
        runs: this.runs !== undefined,
        passages: this.passages.length > 0,
        responses: this.responses !== undefined,
      },
      ...(this.dataset ? { dataset: this.dataset.summary() } : {}),
      synthetic: this.synthetic.map((s) => ({ ...s.summary(), absent: absentTopics(s, this.dataset) })),
      evalDicts: this.evalDicts.map((d) => ({
        file: basename(d.name),
        metrics: d.metrics,
        contexts: d.contexts,
        keyedBy: d.keyedByFacet ? "facet" : "context",
      })),
      ...(this.runs ? { runs: { names: this.runs.names, scoring: describeScoring(this.runs) } } : {}),
      ...(this.responses
        ? { responses: { runs: this.responses.names, turns: this.responses.turnCount } }
        : {}),
      passages: this.passages.map((p) => ({ file: basename(p.name), kind: p.kind, documents: p.count })),
      splitters: this.splitters.names,
      ...(this.splitters.model ? { spacyModel: this.splitters.model } : {}),
      idsDecoded: this.decoder !== undefined,
      openSeconds: this.openSeconds,
    };
  }

  /** The answer to `GET /api/<path>?<query>`: parameters checked against the route table first. */
  api(path: string, q: URLSearchParams): Promise<Answer> {
    return answer(this, path, q);
  }
}

/**
 * The dataset's topics of the splits a synthetic set covers (the splits of its topics) that it has
 * no records of: ClariQ's own sets leave some out on purpose (ABSENT_TOPICS), others are unexplained.
 */
function absentTopics(
  s: SyntheticSet,
  dataset: Dataset | undefined,
): { topic_id: number; split: string; why: string }[] {
  if (!dataset) return [];
  const all = dataset.topicSplits();
  const present = new Set(s.topics().map((t) => t.topic_id));
  const splits = new Set(all.filter((t) => present.has(t.topic_id)).map((t) => t.split));
  return all
    .filter((t) => splits.has(t.split) && !present.has(t.topic_id))
    .map((t) => ({
      ...t,
      why: ABSENT_TOPICS.has(t.topic_id)
        ? "ClariQ's synthetic sets leave this topic out (gen:synthetic does the same)"
        : "no records of it in this file",
    }));
}

function describeScoring(r: RunSet): string {
  return r.describe();
}

/** Whether a run file is an iKAT 2025 run: JSON Lines (its first non-blank byte a `{`; TREC and ClariQ runs start with an id). */
async function isIkat25Run(path: string): Promise<boolean> {
  const src = await openInput(path);
  const { head, close } = await peek(src.chunks, 256);
  await close();
  const text = new TextDecoder("utf-8").decode(head).replace(/^\uFEFF/, "");
  return text.trimStart().startsWith("{");
}

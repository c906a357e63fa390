// The explorer: the inputs named on the command line, opened once, answering the app's GET requests.
import { readdir, symlink } from "node:fs/promises";
import { basename, join, resolve } from "node:path";
import { pandasText, readRankedRun, topQuestions } from "@convkit/clariq-eval";
import { readQuestionBank } from "@convkit/formats";
import { InputError } from "@convkit/io";
import { IdDecoder } from "./clariq-ids.js";
import { SyntheticSet } from "./conversations.js";
import { Dataset } from "./dataset.js";
import { EvalDictFile } from "./eval-dicts.js";
import { PassageFile, Splitters } from "./passages.js";
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
  runs?: readonly string[];
  /** ClariQ split of the runs (their topic file). */
  split?: string;
  /** Documents or iKAT official passages (JSONL). */
  passages?: readonly string[];
  /** The two splitters of the Passages view. */
  splitters?: readonly [string, string];
  /** spaCy pipeline folder for the `spacy` splitter. */
  spacyModel?: string;
}

/** What a request gets: a status and a JSON body (or an error message). */
export interface Answer {
  status: number;
  body: unknown;
}

type Query = URLSearchParams;
const int = (q: Query, k: string, d: number) => {
  const v = Number(q.get(k) ?? d);
  return Number.isInteger(v) && v >= 0 ? v : d;
};
const notFound = (what: string): Answer => ({ status: 404, body: { error: `no such ${what}` } });

export class Explorer {
  private constructor(
    readonly options: ExploreOptions,
    readonly dataset: Dataset | undefined,
    readonly synthetic: SyntheticSet[],
    readonly evalDicts: EvalDictFile[],
    readonly runs: RunSet | undefined,
    /** Per run, its pick per context or topic id (ClariQ runs). */
    private readonly picks: { run: string; byId: Map<number, string | null> }[],
    readonly passages: PassageFile[],
    private readonly splitters: Splitters,
    private readonly decoder: IdDecoder | undefined,
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
      const runPaths = o.runs ?? [];
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
        if (runPaths.length >= 2)
          runs = await RunSet.open(runPaths, {
            kind: "clariq",
            task: hasDict ? "document_relevance" : "question_relevance",
            dataDir: scoringDir,
            split: o.split ?? "dev",
          });
        const bank = new Map<string, string>();
        for await (const b of readQuestionBank(join(o.data, "question_bank.tsv")))
          for (const q of b) bank.set(pandasText(q.question), q.question_id);
        for (const p of runPaths) {
          const top = topQuestions(await readRankedRun(p));
          const byId = new Map<number, string | null>();
          for (const [id, text] of top) byId.set(id, /^Q\d+$/.test(text) ? text : (bank.get(text) ?? null));
          picks.push({ run: basename(p), byId });
        }
      }
      const passages = await Promise.all((o.passages ?? []).map((p) => PassageFile.open(p)));
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

  /** Which views have data, and the headline counts of each. */
  meta() {
    return {
      views: {
        dataset: this.dataset !== undefined,
        conversations: this.synthetic.length > 0,
        evalDicts: this.evalDicts.length > 0,
        runs: this.runs !== undefined,
        passages: this.passages.length > 0,
      },
      dataset: this.dataset?.summary(),
      synthetic: this.synthetic.map((s) => s.summary()),
      evalDicts: this.evalDicts.map((d) => ({ file: d.name, metrics: d.metrics, contexts: d.contexts })),
      runs: this.runs ? { names: this.runs.names, scoring: describeScoring(this.runs) } : undefined,
      passages: this.passages.map((p) => ({ file: p.name, kind: p.kind, documents: p.count })),
      splitters: this.splitters.names,
      idsDecoded: this.decoder !== undefined,
      openSeconds: this.openSeconds,
    };
  }

  /** The answer to `GET /api/<path>?<query>`. */
  async api(path: string, q: Query): Promise<Answer> {
    const ok = (body: unknown): Answer => ({ status: 200, body });
    const offset = int(q, "offset", 0);
    const limit = int(q, "limit", 50);
    const file = int(q, "file", 0);
    switch (path) {
      case "meta":
        return ok(this.meta());
      case "dataset/topics":
        if (!this.dataset) return notFound("dataset");
        return ok(this.dataset.searchTopics(q.get("q") ?? "", q.get("split") ?? undefined, offset, limit));
      case "dataset/topic": {
        const t = this.dataset?.topic(int(q, "id", -1));
        return t ? ok(t) : notFound("topic");
      }
      case "conversations/topics": {
        const s = this.synthetic[file];
        return s ? ok(s.topics()) : notFound("synthetic set");
      }
      case "conversations/topic": {
        const s = this.synthetic[file];
        return s ? ok(s.topic(int(q, "id", -1))) : notFound("synthetic set");
      }
      case "conversations/context": {
        const r = await this.synthetic[file]?.context(
          int(q, "id", -1),
          offset,
          limit,
          this.dataset,
          this.decoder,
        );
        return r ? ok(r) : notFound("context");
      }
      case "evaldict/contexts": {
        const d = this.evalDicts[file];
        return d ? ok(d.list(q.get("q") ?? "", offset, limit)) : notFound("eval dict");
      }
      case "evaldict/context": {
        const d = this.evalDicts[file];
        const id = q.get("id") ?? "";
        if (!d?.has(id)) return notFound("context");
        return ok(await d.context(id, this.picksOf(d, id)));
      }
      case "runs/summary":
        return this.runs
          ? ok({ comparison: this.runs.comparison, scoring: describeScoring(this.runs) })
          : notFound("runs");
      case "runs/deltas": {
        const measure = q.get("measure") ?? this.runs?.comparison.measures[0]?.name ?? "";
        const d = this.runs?.deltas(measure, int(q, "b", 1));
        return d ? ok(d) : notFound("measure");
      }
      case "runs/topics":
        return this.runs ? ok(this.runs.topicIds()) : notFound("runs");
      case "runs/topic":
        return this.runs
          ? ok(this.runs.topic(q.get("id") ?? "", Math.min(int(q, "depth", 20), 1000)))
          : notFound("runs");
      case "passages/docs": {
        const p = this.passages[file];
        return p ? ok(p.list(q.get("q") ?? "", offset, limit)) : notFound("passage file");
      }
      case "passages/doc": {
        const p = this.passages[file];
        const id = q.get("id") ?? "";
        const t = await p?.text(id);
        if (!t) return notFound("document");
        return ok({
          ...(await this.splitters.compare(id, t.text, t.firstPassage)),
          firstPassage: t.firstPassage,
          official: t.official ?? null,
          kind: p!.kind,
        });
      }
      default:
        return notFound("endpoint");
    }
  }

  /**
   * The runs' picks for an eval-dict context. A single-turn dict is keyed by facet (`F0123`): a
   * run's pick for the facet's topic counts. A multi-turn dict is keyed by context: only runs
   * whose ids are mostly this dict's contexts count (a topic id can equal a facet number).
   */
  private picksOf(d: EvalDictFile, ctx: string): { run: string; question: string | null }[] {
    let id = Number(ctx);
    let runs = this.picks;
    if (!Number.isInteger(id)) {
      const topic = this.dataset?.topicOfFacet(ctx);
      if (topic === undefined) return [];
      id = topic;
    } else runs = runs.filter((p) => d.covers(p.byId.keys()));
    return runs.filter((p) => p.byId.has(id)).map((p) => ({ run: p.run, question: p.byId.get(id)! }));
  }
}

function describeScoring(r: RunSet): string {
  const s = r.scoring;
  return s.kind === "trec"
    ? `trec_eval measures against ${basename(s.qrels)}`
    : `clariq_eval_tool.py ${s.task} (${s.split})`;
}

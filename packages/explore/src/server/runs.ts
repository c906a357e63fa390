// The Runs view's data: convkit-compare's table, per-topic deltas and rankings side by side.
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import { pandasText, readRankedRun } from "@convkit/clariq-eval";
import {
  type Comparison,
  clariqPerTopic,
  compareRuns,
  DEFAULT_TREC_MEASURES,
  type RunValues,
  runNames,
  trecPerTopic,
} from "@convkit/compare";
import { readClariqRows, readQuestionBank } from "@convkit/formats";
import { loadQrels, loadRun, trecOrder } from "@convkit/trec-eval";
import { at, got } from "../shared/checked.js";

/** How the runs are scored: TREC runs against qrels, or ClariQ runs as clariq_eval_tool.py does. */
export type RunScoring =
  | { kind: "trec"; qrels: string; measures?: readonly string[] }
  | {
      kind: "clariq";
      task: "document_relevance" | "question_relevance";
      dataDir: string;
      split: string;
      /** Runs with a pick per context of a multi-turn dict (ids are context ids, not topics). */
      multiTurn?: boolean;
    };

interface RankedEntry {
  doc: string;
  score: number;
  /** The question's text, for ClariQ runs. */
  text?: string;
}

/** The comparison options of the view: convkit-compare's defaults, each run against the first. */
function compareOptions(baseline: string) {
  return {
    baseline,
    test: "t" as const,
    alternative: "two-sided" as const,
    correction: "holm" as const,
    alpha: 0.05,
    missing: "drop" as const,
    zeroMethod: "wilcox" as const,
    continuity: false,
    permutations: 10000,
    seed: 1,
    threads: 1,
  };
}

export class RunSet {
  private constructor(
    readonly names: string[],
    readonly scoring: RunScoring,
    readonly comparison: Comparison,
    private readonly values: RunValues[],
    private readonly rankings: Map<string, RankedEntry[]>[],
    private readonly judged: Map<string, Map<string, number>>,
  ) {}

  /** `names`: the runs' names when the files are not what the user named (2025 runs' rankings). */
  static async open(paths: readonly string[], scoring: RunScoring, names = runNames(paths)): Promise<RunSet> {
    let values: RunValues[];
    let rankings: Map<string, RankedEntry[]>[];
    let judged: Map<string, Map<string, number>>;
    if (scoring.kind === "trec") {
      values = await trecPerTopic(scoring.qrels, paths, scoring.measures ?? DEFAULT_TREC_MEASURES, false);
      judged = await loadQrels(scoring.qrels);
      rankings = [];
      for (const p of paths) {
        const { run } = await loadRun(p);
        const m = new Map<string, RankedEntry[]>();
        for (const [qid, list] of run)
          m.set(
            qid,
            [...list].sort(trecOrder).map((e) => ({ doc: e.docno, score: e.score })),
          );
        rankings.push(m);
      }
    } else {
      values = await clariqPerTopic(
        scoring.task,
        scoring.dataDir,
        scoring.multiTurn ?? false,
        scoring.split,
        paths,
      );
      ({ rankings, judged } = await clariqRankings(paths, scoring));
    }
    const comparison = await compareRuns(
      { runs: names.map((name, i) => ({ name, values: at(values, i) })) },
      compareOptions(at(names, 0)),
    );
    return new RunSet(names, scoring, comparison, values, rankings, judged);
  }

  /** Per measure and run pair (first run → other), each topic's difference, largest first. */
  deltas(measure: string, b: number) {
    const va = this.values[0]?.get(measure);
    const vb = this.values[b]?.get(measure);
    if (!va || !vb) return undefined;
    const rows = [];
    for (const [topic, a] of va) {
      const y = vb.get(topic);
      if (y !== undefined) rows.push({ topic, a, b: y, delta: y - a });
    }
    rows.sort((x, y) => y.delta - x.delta || (x.topic < y.topic ? -1 : x.topic > y.topic ? 1 : 0));
    return { measure, a: at(this.names, 0), b: at(this.names, b), b_index: b, rows };
  }

  /** Whether any run ranks for this id. */
  hasRanking(id: string): boolean {
    return this.rankings.some((m) => m.has(id));
  }

  describe(): string {
    const s = this.scoring;
    return s.kind === "trec"
      ? `trec_eval measures against ${basename(s.qrels)}`
      : `clariq_eval_tool.py ${s.task} (${s.split}${s.multiTurn ? ", multi-turn: a pick per context" : ""})`;
  }

  topicIds(): string[] {
    const ids = new Set<string>();
    for (const m of this.rankings) for (const k of m.keys()) ids.add(k);
    return [...ids].sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Each measure's value of one unit (a topic, or a facet for ClariQ's per-facet values) in every run. */
  valuesOf(id: string): { measure: string; values: (number | null)[] }[] {
    return this.comparison.measures.map(({ name }) => ({
      measure: name,
      values: this.values.map((v) => v.get(name)?.get(id) ?? null),
    }));
  }

  /** Per run, every rank of `doc` in a topic's ranking (a run may list it twice) and the ranking's length. */
  ranksOf(topic: string, doc: string): { run: string; ranks: number[]; of: number }[] {
    return this.rankings.map((m, r) => {
      const l = m.get(topic) ?? [];
      const ranks: number[] = [];
      for (const [i, e] of l.entries()) if (e.doc === doc) ranks.push(i + 1);
      return { run: at(this.names, r), ranks, of: l.length };
    });
  }

  /** The topics (ranking ids) where any run ranks `doc`. */
  topicsRanking(doc: string): string[] {
    const out = new Set<string>();
    for (const m of this.rankings) for (const [t, l] of m) if (l.some((e) => e.doc === doc)) out.add(t);
    return [...out];
  }

  /**
   * A topic's rankings side by side to `depth`: relevance, items only one run has, rank moves
   * against the whole other ranking (so an item that left or entered the top `depth` says where it
   * went), and items a run ranks more than once. The baseline is compared with run `b`.
   */
  topic(id: string, depth: number, b = 1) {
    const rel = this.judged.get(id);
    const full = this.rankings.map((m) => m.get(id) ?? []);
    const lists = full.map((l) => l.slice(0, depth));
    const rankOf = lists.map((l) => firstRanks(l));
    const fullRankOf = full.map(firstRanks);
    // Per run, every rank of each item it ranks (a run may rank one item twice).
    const ranksOf = full.map((l) => {
      const m = new Map<string, number[]>();
      l.forEach((e, i) => {
        const r = m.get(e.doc);
        if (r) r.push(i + 1);
        else m.set(e.doc, [i + 1]);
      });
      return m;
    });
    return {
      topic: id,
      judged: rel ? rel.size : 0,
      depth,
      runs: this.names.map((name, r) => {
        const other = r === 0 ? b : 0;
        return {
          name,
          role: r === 0 ? ("baseline" as const) : ("compared" as const),
          length: at(full, r).length,
          entries: at(lists, r).map((e, i) => {
            const others = rankOf.map((m, k) => (k === r ? undefined : m.get(e.doc)));
            const otherRank = fullRankOf[other]?.get(e.doc) ?? null;
            const dups = got(at(ranksOf, r), e.doc);
            return {
              rank: i + 1,
              doc: e.doc,
              ...(e.text !== undefined ? { text: e.text } : {}),
              score: e.score,
              rel: rel?.get(e.doc) ?? null,
              only_here: others.every((o, k) => k === r || o === undefined),
              // Positive: moved up against the first run.
              move: r === 0 || otherRank === null ? null : otherRank - (i + 1),
              other_rank: other === r ? null : otherRank,
              ...(dups.length > 1 ? { same_item_at: dups.filter((x) => x !== i + 1) } : {}),
            };
          }),
        };
      }),
    };
  }
}

/** Each item's first rank in a list (1-based). */
function firstRanks(l: readonly RankedEntry[]): Map<string, number> {
  const m = new Map<string, number>();
  l.forEach((e, i) => {
    if (!m.has(e.doc)) m.set(e.doc, i + 1);
  });
  return m;
}

/** ClariQ runs as rankings: question ids (texts mapped through the bank) with the topic's questions judged relevant. */
async function clariqRankings(paths: readonly string[], scoring: Extract<RunScoring, { kind: "clariq" }>) {
  const textToId = new Map<string, string>();
  const idToText = new Map<string, string>();
  const bank = join(scoring.dataDir, "question_bank.tsv");
  if (existsSync(bank))
    for await (const b of readQuestionBank(bank))
      for (const q of b) {
        textToId.set(pandasText(q.question), q.question_id);
        idToText.set(q.question_id, q.question);
      }
  const judged = new Map<string, Map<string, number>>();
  const topicFile = join(
    scoring.dataDir,
    scoring.split === "test" ? "test_with_labels.tsv" : `${scoring.split}.tsv`,
  );
  if (existsSync(topicFile))
    for await (const b of readClariqRows(topicFile))
      for (const r of b) {
        let m = judged.get(String(r.topic_id));
        if (!m) {
          m = new Map();
          judged.set(String(r.topic_id), m);
        }
        m.set(r.question_id, 1);
      }
  const rankings: Map<string, RankedEntry[]>[] = [];
  for (const p of paths) {
    const m = new Map<string, RankedEntry[]>();
    for (const line of await readRankedRun(p)) {
      const id = /^Q\d+$/.test(line.item) ? line.item : (textToId.get(line.item) ?? line.item);
      const e: RankedEntry = { doc: id, score: line.score, text: idToText.get(id) ?? line.item };
      const l = m.get(String(line.id));
      if (l) l.push(e);
      else m.set(String(line.id), [e]);
    }
    // Shown as the tool ranks them: by score, highest first (stable for ties: file order).
    for (const l of m.values()) l.sort((x, y) => y.score - x.score);
    rankings.push(m);
  }
  return { rankings, judged };
}

// The Eval-dicts view's data: one context of a ClariQ eval dict at a time, read from disk by offset.
import { createWriteStream } from "node:fs";
import { open } from "node:fs/promises";
import { basename, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { capBytes, InputError, openPayload } from "@convkit/io";
import { indexDictTree, type PyValue, readDictBranch, UnsupportedShape } from "@convkit/pickle";
import type { EvalContextView, EvalMetric } from "../shared/api.js";
import { at } from "../shared/checked.js";
import { makeTempDir, removeTempDir } from "./temp-dirs.js";

/** The most bytes one context's dict takes (a guard: ClariQ's take a few hundred). */
const MAX_BRANCH_BYTES = 1 << 24;

/**
 * An eval dict `{metric: {context: {question: {no_answer, with_answer}}}}` behind an index of
 * each (metric, context) dict's byte offset, built in one pass; a context's values are decoded
 * from its bytes when asked for. A `.tar.gz` is unpacked once into a temporary file (a gzip
 * stream cannot be read from the middle); it is removed by {@link close}.
 */
export class EvalDictFile {
  private constructor(
    readonly name: string,
    private readonly path: string,
    private readonly temp: string | undefined,
    readonly metrics: string[],
    /** Per context id (as a string): per metric, its branch's byte range and memo length. */
    private readonly where: Map<string, Map<string, [number, number, number]>>,
    private readonly contextIds: PyValue[],
    private readonly memo: ReadonlyMap<number, string>,
  ) {}

  static async open(path: string): Promise<EvalDictFile> {
    // A plain pickle starts with PROTO; anything else (tar, gzip, bzip2, split parts) is unpacked
    // once, since offsets must be into the pickle's own bytes.
    let plain = path;
    let temp: string | undefined;
    const head = Buffer.alloc(1);
    const fh = await open(path, "r").catch(() => undefined);
    if (fh) {
      await fh.read(head, 0, 1, 0);
      await fh.close();
    }
    try {
      if (!fh || head[0] !== 0x80) {
        const src = await openPayload(path);
        temp = makeTempDir("convkit-explore-");
        plain = join(temp, basename(src.name.split("!").at(-1) ?? "dict.pkl"));
        // No more than the whole-input cap unpacked: a bomb stops there (and its folder goes, below).
        await pipeline(capBytes(src.name, src.chunks), createWriteStream(plain));
      }
      const index = await indexDictTree(await openPayload(plain), 3).catch((e: unknown) => {
        if (e instanceof UnsupportedShape)
          throw new InputError(
            path,
            {},
            "an eval dict as CPython pickles it ({metric: {context: {question: {name: float}}}})",
            e.message,
          );
        throw e;
      });
      const metrics: string[] = [];
      const where = new Map<string, Map<string, [number, number, number]>>();
      const contextIds: PyValue[] = [];
      const n = index.paths.length;
      for (const [i, path] of index.paths.entries()) {
        // Depth 2: every path is [metric, context].
        const metric = at(path, 0);
        const ctx = at(path, 1);
        const m = String(metric);
        if (metrics.at(-1) !== m && !metrics.includes(m)) metrics.push(m);
        const key = String(ctx);
        let byMetric = where.get(key);
        if (!byMetric) {
          byMetric = new Map();
          where.set(key, byMetric);
          contextIds.push(ctx);
        }
        const start = at(index.offsets, i);
        const end = i + 1 < n ? at(index.offsets, i + 1) : Number.POSITIVE_INFINITY;
        byMetric.set(m, [start, end, at(index.memoLengths, i)]);
      }
      return new EvalDictFile(path, plain, temp, metrics, where, contextIds, index.memo);
    } catch (e) {
      removeTempDir(temp);
      throw e;
    }
  }

  get contexts(): number {
    return this.contextIds.length;
  }

  /**
   * Context ids, in dict order, that contain `q` anywhere (any case), or whose candidates include
   * one of `questions` (a question id searched for, or the bank ids whose text matched); all when
   * `q` is empty. Candidates are read from disk on the first such search, once.
   */
  async search(q: string, questions: ReadonlySet<string> = new Set()): Promise<string[]> {
    const needle = q.trim().toLowerCase();
    const ids = this.contextIds.map(String);
    if (needle === "") return ids;
    const byQuestion = questions.size > 0 ? await this.candidates() : undefined;
    return ids.filter(
      (c) =>
        c.toLowerCase().includes(needle) ||
        (byQuestion !== undefined && [...(byQuestion.get(c) ?? [])].some((x) => questions.has(x))),
    );
  }

  /** Per context, how many candidate questions it has (the first metric's); read once, as {@link search}'s. */
  async candidateCounts(): Promise<Map<string, number>> {
    return new Map([...(await this.candidates())].map(([c, qs]) => [c, qs.length]));
  }

  private candidatesMemo: Promise<Map<string, string[]>> | undefined;

  /** Per context, its candidate questions (the first metric's: every metric has the same ones). */
  private candidates(): Promise<Map<string, string[]>> {
    this.candidatesMemo ??= (async () => {
      const out = new Map<string, string[]>();
      const fh = await open(this.path, "r");
      try {
        const size = (await fh.stat()).size;
        for (const [ctx, byMetric] of this.where) {
          const first = byMetric.values().next().value;
          if (!first) continue;
          const branch = await this.branch(fh, size, first);
          out.set(
            ctx,
            [...branch.keys()].map(String).filter((x) => x !== "MAX" && x !== "MIN"),
          );
        }
      } finally {
        await fh.close();
      }
      return out;
    })();
    return this.candidatesMemo;
  }

  /** One (metric, context) dict, decoded from its bytes. */
  private async branch(
    fh: Awaited<ReturnType<typeof open>>,
    size: number,
    [start, endHint, memoLength]: [number, number, number],
  ) {
    const end = Math.min(size, endHint, start + MAX_BRANCH_BYTES);
    const buf = Buffer.alloc(end - start);
    await fh.read(buf, 0, buf.length, start);
    return readDictBranch(buf, { memo: this.memo }, memoLength, this.name, start);
  }

  /** ClariQ's single-turn dicts are keyed by facet (`F0123`), multi-turn ones by context number. */
  get keyedByFacet(): boolean {
    return /^F\d+$/.test(String(this.contextIds[0] ?? ""));
  }

  get shortName(): string {
    return basename(this.name);
  }

  /** Whether most of these ids (a run's) are contexts of this dict. */
  covers(ids: Iterable<number>): boolean {
    let n = 0;
    let hit = 0;
    for (const id of ids) {
      n++;
      if (this.where.has(String(id))) hit++;
    }
    return n > 0 && hit * 2 > n;
  }

  has(ctx: string): boolean {
    return this.where.has(ctx);
  }

  /**
   * Per metric, the context's candidate questions with both values, MAX and MIN, the best
   * question (highest with_answer; ties: the first in dict order) and, per run pick, its rank.
   */
  async context(ctx: string, picks: { run: string; question: string | null }[]): Promise<EvalContextView> {
    const byMetric = this.where.get(ctx);
    if (!byMetric) throw new Error(`${ctx} is not a context of ${this.name} (ask has() first)`);
    const fh = await open(this.path, "r");
    try {
      const size = (await fh.stat()).size;
      const metrics: EvalMetric[] = [];
      for (const [metric, range] of byMetric) {
        const branch = await this.branch(fh, size, range);
        const questions: EvalMetric["questions"] = [];
        let max: number | undefined;
        let min: number | undefined;
        let maxNo: number | undefined;
        let minNo: number | undefined;
        for (const [q, leaf] of branch) {
          const wa = leaf.get("with_answer") ?? Number.NaN;
          if (q === "MAX") [max, maxNo] = [wa, leaf.get("no_answer")];
          else if (q === "MIN") [min, minNo] = [wa, leaf.get("no_answer")];
          else
            questions.push({
              question: String(q),
              no_answer: leaf.get("no_answer") ?? Number.NaN,
              with_answer: wa,
            });
        }
        let best: string | undefined;
        let bestValue = Number.NEGATIVE_INFINITY;
        for (const x of questions)
          if (x.with_answer > bestValue) {
            best = x.question;
            bestValue = x.with_answer;
          }
        const sorted = questions.map((x) => x.with_answer).sort((a, b) => b - a);
        metrics.push({
          metric,
          max,
          min,
          max_no_answer: maxNo,
          min_no_answer: minNo,
          best,
          questions,
          picks: picks.map((p) => {
            const hit = p.question === null ? undefined : questions.find((x) => x.question === p.question);
            // What clariq_eval_tool.py scores: the pick's with_answer, or MIN when the dict lacks it.
            const value = hit ? hit.with_answer : min;
            return {
              run: p.run,
              question: p.question,
              in_dict: hit !== undefined,
              value,
              // 1 + the number of questions strictly better than the pick.
              rank: value === undefined ? null : 1 + sorted.filter((v) => v > value).length,
            };
          }),
        });
      }
      return { context: ctx, candidates: metrics[0]?.questions.length ?? 0, metrics };
    } finally {
      await fh.close();
    }
  }

  /** A context's raw leaves per metric: question (and MAX, MIN) → {no_answer, with_answer, …}. */
  async leaves(ctx: string): Promise<Map<string, Map<string, Map<string, number>>>> {
    const out = new Map<string, Map<string, Map<string, number>>>();
    const byMetric = this.where.get(ctx);
    if (!byMetric) return out;
    const fh = await open(this.path, "r");
    try {
      const size = (await fh.stat()).size;
      for (const [metric, [start, endHint, memoLength]] of byMetric) {
        const end = Math.min(size, endHint, start + MAX_BRANCH_BYTES);
        const buf = Buffer.alloc(end - start);
        await fh.read(buf, 0, buf.length, start);
        const branch = readDictBranch(buf, { memo: this.memo }, memoLength, this.name, start);
        out.set(metric, new Map([...branch].map(([q, leaf]) => [String(q), leaf])));
      }
      return out;
    } finally {
      await fh.close();
    }
  }

  async close(): Promise<void> {
    removeTempDir(this.temp);
  }
}

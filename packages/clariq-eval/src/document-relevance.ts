// Task 2b: document relevance, the eval-dict value of each context's top question.
import type { EvalDict } from "@convkit/formats";
import { evalPair } from "@convkit/formats";
import { numpyArgsort } from "@convkit/pycompat";
import type { RankedLine } from "./run-table.js";

/**
 * The question each id (topic or context) asks, as upstream picks it: the run sorted by score
 * with numpy's (unstable) quicksort, the last line of each id kept — so among tied top scores the
 * one this exact sort leaves last wins.
 */
export function topQuestions(run: readonly RankedLine[]): Map<number, string> {
  const order = numpyArgsort(run.map((r) => r.score));
  const top = new Map<number, string>();
  for (const i of order) {
    const r = run[i];
    if (r === undefined) throw new Error(`argsort gave ${i} of ${run.length}`);
    top.set(r.id, r.item); // drop_duplicates(keep='last'): the last in sorted order wins
  }
  return top;
}

/**
 * Per metric and context, the `with_answer` value of the selected question; a question the
 * dict does not hold (or `MAX`) counts as the context's `MIN`; no selection counts 0.
 * `select(context)` returns the selected question id, `undefined` for none, `null` for a
 * selection that maps to no known question.
 */
export function evaluateDocumentRelevance(
  evalDict: EvalDict,
  contexts: (metric: string) => Iterable<string | number>,
  select: (context: string | number) => string | null | undefined,
): Map<string, Map<string | number, number>> {
  const out = new Map<string, Map<string | number, number>>();
  for (const [metric, m] of evalDict) {
    const values = new Map<string | number, number>();
    for (const ctx of contexts(metric)) {
      const q = select(ctx);
      if (q === undefined) {
        values.set(ctx, 0);
        continue;
      }
      const byQ = m.get(ctx);
      const pair = byQ && ((q !== null && q !== "MAX" ? byQ.get(q) : undefined) ?? byQ.get("MIN"));
      // The callers check that the dict covers every context and holds its MIN (checkCoversFacets).
      if (pair === undefined) throw new Error(`no MIN entry for ${metric} ${ctx}`);
      values.set(ctx, evalPair(pair).with_answer);
    }
    out.set(metric, values);
  }
  return out;
}

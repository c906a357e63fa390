// Touché evaluation: nDCG@5 for relevance and for quality, per topic and mean, as trec_eval computes them.

import type { RunEntry } from "@convkit/formats";
import { parseMeasures, type Scored, type TopicQrels, trecEval } from "@convkit/trec-eval";

/** nDCG@5 per topic and the mean, for both judgment kinds. */
export interface ToucheEvaluation {
  relevance: { perTopic: Map<string, number>; mean: number };
  quality: { perTopic: Map<string, number>; mean: number };
}

/**
 * nDCG@5 of a run against the relevance and the quality qrels, trec_eval's `ndcg_cut.5`
 * (negative grades such as -2 spam judged non-relevant, topics without qrels ignored, the mean
 * over the topics the run answers; with `allTopics`, over every judged topic, a missing one 0).
 */
export function evaluateTouche(
  run: readonly RunEntry[],
  relevance: ReadonlyMap<string, TopicQrels>,
  quality: ReadonlyMap<string, TopicQrels>,
  o: { allTopics?: boolean } = {},
): ToucheEvaluation {
  const byTopic = new Map<string, Scored[]>();
  for (const l of run) {
    const t = byTopic.get(l.qid) ?? [];
    t.push({ docno: l.docno, score: l.score });
    byTopic.set(l.qid, t);
  }
  const specs = parseMeasures(["ndcg_cut.5"]);
  const one = (q: ReadonlyMap<string, TopicQrels>) => {
    const r = trecEval(byTopic, q, specs, { allTopics: o.allTopics });
    const perTopic = new Map(
      r.topics.map((t) => [t.qid, t.values.find((v) => v.name === "ndcg_cut_5")!.value]),
    );
    return { perTopic, mean: r.summary.find((v) => v.name === "ndcg_cut_5")?.value ?? 0 };
  };
  return { relevance: one(relevance), quality: one(quality) };
}

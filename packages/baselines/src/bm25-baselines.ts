// ClariQ's BM25 baselines (the single- and multi-turn notebooks) as run-line generators.
import type { MultiTurnRunEntry, QuestionBankEntry, RunEntry } from "@convkit/formats";
import { Bm25Okapi } from "@convkit/retrieval";
import { planItem, type TopicNumbers, type TopicPlan, topicContexts } from "@convkit/synthetic-plan";
import { clariqTerms } from "@convkit/text";

/** The question bank indexed with ClariQ's pipeline (tokenize, drop stopwords case-sensitively, stem). */
export function bankIndex(bank: readonly QuestionBankEntry[]): Bm25Okapi {
  return new Bm25Okapi(bank.map((q) => clariqTerms(q.question)));
}

/**
 * Single-turn question ranking: per topic, the initial request against the bank, top `depth`
 * (default 30), lines `topic 0 qid i depth−i bm25` with ranks from 0 as upstream writes them.
 */
export function singleTurnBm25(
  bank: readonly QuestionBankEntry[],
  topics: ReadonlyMap<number, string>,
  depth = 30,
  index = bankIndex(bank),
): RunEntry[] {
  const out: RunEntry[] = [];
  for (const [topic, request] of topics) {
    index.topN(clariqTerms(request), depth).forEach((i, k) => {
      out.push({
        qid: String(topic),
        q0: "0",
        docno: planItem(bank, i).question_id,
        rank: k,
        score: depth - k,
        tag: "bm25",
      });
    });
  }
  return out;
}

/**
 * Multi-turn question selection: per context, the initial request followed directly by each
 * history `question + ' ' + answer` (no separator before the question), the bank's top 5, and
 * the first of them not asked yet; the score column is how many of the five were not asked.
 */
export function multiTurnBm25(
  bank: readonly QuestionBankEntry[],
  plans: readonly TopicPlan[],
  numbers: ReadonlyMap<number, TopicNumbers>,
  index = bankIndex(bank),
): MultiTurnRunEntry[] {
  const out: MultiTurnRunEntry[] = [];
  for (const p of plans) {
    const nums = numbers.get(p.topic_id);
    if (!nums) throw new RangeError(`topic ${p.topic_id} is not numbered`);
    for (const c of topicContexts(p, nums)) {
      const row = planItem(p.answers, c.facet);
      const history = c.history.map((h) => planItem(row, h));
      let query = p.initial_request;
      for (const h of history) query += `${h.question} ${h.answer}`;
      const asked = new Set(history.map((h) => h.question));
      const fresh = index
        .topN(clariqTerms(query), 5)
        .map((i) => planItem(bank, i).question)
        .filter((q) => !asked.has(q));
      const [first] = fresh;
      out.push({
        context_id: c.context_id,
        q0: "0",
        question: first ?? "",
        rank: 0,
        score: fresh.length,
        run: "bm25_multi_turn",
      });
    }
  }
  return out;
}

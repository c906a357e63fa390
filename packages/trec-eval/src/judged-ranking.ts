// One topic's run against its qrels, the way trec_eval's te_form_res_rels builds it.
import { InputError } from "@convkit/io";
import { trecOrder } from "./order.js";

/** Grades of one topic's judged documents (`docno → grade`; a negative grade means judged but unjudgeable). */
export type TopicQrels = ReadonlyMap<string, number>;

/** A retrieved document with its score (rank columns mean nothing to trec_eval). */
export interface Scored {
  readonly docno: string;
  readonly score: number;
}

/** Grade of a retrieved document that is not in the qrels (trec_eval's RELVALUE_NONPOOL). */
export const NONPOOL = -1;
/** Grade of a retrieved document judged with a negative grade (trec_eval's RELVALUE_UNJUDGED). */
export const UNJUDGED = -2;

/** A topic ready for the measures: grades in rank order and the count of judged documents per grade. */
export interface JudgedRanking {
  /** Grade of the document at each rank (NONPOOL / UNJUDGED for unjudged ones). */
  readonly grades: Int32Array;
  /** relLevels[g] = judged documents with grade g (g >= 0). */
  readonly relLevels: readonly number[];
  /** Judged documents with grade >= the relevance level. */
  readonly numRel: number;
  /** Retrieved documents with grade >= the relevance level. */
  readonly numRelRet: number;
}

/**
 * Builds a topic's judged ranking: the run sorted as trec_eval sorts it (cut at `maxDocs`), each
 * document's grade, and the grade histogram of the qrels. Duplicate documents are an error, as in
 * trec_eval.
 */
export function judgeRanking(
  results: readonly Scored[],
  qrels: TopicQrels,
  options: { relevanceLevel?: number; maxDocs?: number; file?: string; qid?: string } = {},
): JudgedRanking {
  const level = options.relevanceLevel ?? 1;
  const sorted = [...results].sort(trecOrder);
  if (options.maxDocs !== undefined && sorted.length > options.maxDocs) sorted.length = options.maxDocs;
  const seen = new Set<string>();
  const grades = new Int32Array(sorted.length);
  let numRelRet = 0;
  sorted.forEach((r, i) => {
    if (seen.has(r.docno)) {
      throw new InputError(
        options.file ?? "<run>",
        {},
        `each document once per topic (topic ${options.qid ?? "?"})`,
        `duplicate docs ${r.docno}`,
      );
    }
    seen.add(r.docno);
    const g = qrels.get(r.docno);
    grades[i] = g === undefined ? NONPOOL : g < 0 ? UNJUDGED : g;
    if (g !== undefined && g >= level) numRelRet++;
  });
  return { grades, ...gradeHistogram(qrels.values(), level), numRelRet };
}

/** A topic's judged documents per grade (grades >= 0) and how many count as relevant at `level`. */
export function gradeHistogram(
  qrelsGrades: Iterable<number>,
  level: number,
): { relLevels: number[]; numRel: number } {
  const relLevels: number[] = [];
  for (const g of qrelsGrades) if (g >= 0) relLevels[g] = (relLevels[g] ?? 0) + 1;
  for (let i = 0; i < relLevels.length; i++) relLevels[i] ??= 0;
  let numRel = 0;
  for (let g = level; g < relLevels.length; g++) numRel += relLevels[g]!;
  return { relLevels, numRel };
}

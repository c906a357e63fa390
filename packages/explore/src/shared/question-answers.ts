// The answer type of the question route (a page per clarifying question): pure, shared with the page.

/** A question's values in one eval-dict entry, per metric, beside the entry's MAX and MIN. */
export interface QuestionEval {
  /** Which eval dict (its index among --eval-dict) and the entry's key there. */
  file: number;
  dict: string;
  key: string;
  /** False: the entry exists but no metric of it lists this question (metrics list different candidates). */
  in_dict: boolean;
  metrics: {
    metric: string;
    no_answer?: number;
    with_answer?: number;
    max: { no_answer?: number; with_answer?: number };
    min: { no_answer?: number; with_answer?: number };
  }[];
}

/** One context where the question was asked (in its history) or is a candidate. */
export interface QuestionContext {
  /** The context's id: a synthetic context number, or an eval dict's facet key. */
  context: string;
  topic_id?: number;
  facet_id?: string;
  /** How many questions were asked before (the history's length). */
  level: number;
  role: "asked" | "candidate";
  /** For "asked": its turn in the history (1 = first). */
  turn?: number;
  /** The synthetic set (index among --synthetic) and context, when it comes from one. */
  conversation?: { file: number; context_id: number };
  evals: QuestionEval[];
  /** Multi-turn runs' picks for this context and whether each is this question. */
  picks: { run: string; question: string | null; is_this: boolean }[];
}

export interface QuestionView {
  question_id: string;
  /** The bank's text ("" for Q00001, the bank's "no question"). */
  question: string;
  in_bank: boolean;
  /** Its ClariQ (or Qulac) rows: the answer per facet. */
  answers: { topic_id: number; split: string; facet_id: string; facet_desc: string; answer: string }[];
  contexts: { total: number; offset: number; items: QuestionContext[] };
  /** Per topic where single-turn runs rank for it: each run's rank(s) of the question and its list's length. */
  rankings: { topic: string; facets: string[]; runs: { run: string; ranks: number[]; of: number }[] }[];
  /** The runs whose rankings are per topic (single-turn) and those picking per context (multi-turn). */
  runs: { single_turn: string[]; multi_turn: string[] };
}

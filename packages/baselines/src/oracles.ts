// BestQuestion / WorstQuestion oracles: the question an eval dict rates highest (lowest) per context or topic.

/** Which end of the eval dict the oracle takes. */
export type OracleKind = "best" | "worst";

/** Which value of an eval-dict entry the oracle optimizes. */
export type OracleVariant = "with_answer" | "no_answer";

/**
 * Per context, the question with the highest (best) or lowest (worst) value of one metric and
 * variant. Feed it the eval dict's values in dict order ({@link scanEvalDict} order); `MAX` and
 * `MIN` are summaries, not questions, and are skipped. Ties keep the first question in dict order.
 */
export class ContextOracle {
  private readonly chosen = new Map<string | number, { question: string; value: number }>();

  constructor(
    private readonly metric: string,
    private readonly kind: OracleKind,
    private readonly variant: OracleVariant = "with_answer",
  ) {}

  /** One eval-dict value; other metrics are ignored. */
  add(
    metric: string,
    context: string | number,
    question: string,
    noAnswer: number,
    withAnswer: number,
  ): void {
    if (metric !== this.metric || question === "MAX" || question === "MIN") return;
    const value = this.variant === "with_answer" ? withAnswer : noAnswer;
    const cur = this.chosen.get(context);
    if (cur === undefined || (this.kind === "best" ? value > cur.value : value < cur.value))
      this.chosen.set(context, { question, value });
  }

  /** Context → chosen question, in the order contexts were first seen. */
  choices(): Map<string | number, string> {
    return new Map([...this.chosen].map(([c, v]) => [c, v.question]));
  }
}

/**
 * Single-turn oracle: one question per topic (the single-turn run format holds one per topic),
 * the one whose value summed over the topic's facets is highest (best) or lowest (worst). A
 * facet without the question counts its `MIN`, as the ClariQ evaluator scores it. Candidates are
 * the questions of any of the topic's facets, in first-seen order; ties keep the first.
 */
export function topicOracle(
  /** Facet id → question → value (with `MIN` among them), for one metric and variant. */
  facets: ReadonlyMap<string, ReadonlyMap<string, number>>,
  /** Topic → its facet ids (those absent from `facets` are left out, as the evaluator does). */
  topics: ReadonlyMap<number, readonly string[]>,
  kind: OracleKind,
): Map<number, string> {
  const out = new Map<number, string>();
  for (const [topic, ids] of topics) {
    const present = ids.map((f) => facets.get(f)).filter((f) => f !== undefined);
    const candidates = new Set<string>();
    for (const f of present) for (const q of f.keys()) if (q !== "MAX" && q !== "MIN") candidates.add(q);
    let best: string | undefined;
    let bestValue = 0;
    for (const q of candidates) {
      let sum = 0;
      for (const f of present) sum += f.get(q) ?? f.get("MIN") ?? 0;
      if (best === undefined || (kind === "best" ? sum > bestValue : sum < bestValue)) {
        best = q;
        bestValue = sum;
      }
    }
    if (best !== undefined) out.set(topic, best);
  }
  return out;
}

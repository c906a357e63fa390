// ClariQ's int record and context ids read back as what they stand for, with gen:synthetic's own planner.
import { planClariqSets } from "@convkit/gen-synthetic";
import { type ClariqIdParts, ClariqIds, type TopicPlan } from "@convkit/synthetic-plan";
import { at, got } from "../shared/checked.js";

/** What a record or context id stands for, by ids (facet id, question ids). */
export interface DecodedId {
  topic_id: number;
  facet_id: string;
  /** Question ids of the history, in the planner's item order. */
  history: string[];
  /** The current question's id (records). */
  question?: string;
}

/**
 * Decodes ClariQ's synthetic ids the way gen:synthetic numbers them (the same planning of the same
 * TSVs and qulac.json), so a record's id can be checked against what the record says.
 */
export class IdDecoder {
  private constructor(
    private readonly ids: ClariqIds,
    private readonly plans: Map<number, TopicPlan>,
  ) {}

  static async open(dataDir: string, qulacPath: string | undefined): Promise<IdDecoder> {
    const sets = await planClariqSets(dataDir, qulacPath);
    return new IdDecoder(
      new ClariqIds(sets.plans, sets.numbers),
      new Map(sets.plans.map((p) => [p.topic_id, p])),
    );
  }

  private named(parts: { topic_id: number; facet: number; history: number[]; question?: number }): DecodedId {
    const plan = got(this.plans, parts.topic_id);
    const answers = at(plan.answers, parts.facet);
    const item = (i: number) => at(answers, i).question_id;
    return {
      topic_id: parts.topic_id,
      facet_id: at(plan.facets, parts.facet),
      history: parts.history.map(item),
      ...(parts.question === undefined ? {} : { question: item(parts.question) }),
    };
  }

  /** A record id's raw parts (item indices), or undefined when none of the planned topics'. */
  recordParts(id: number): ClariqIdParts | undefined {
    try {
      return this.ids.decodeRecord(id);
    } catch {
      return undefined;
    }
  }

  contextParts(id: number): ClariqIdParts | undefined {
    try {
      return this.ids.decodeContext(id);
    } catch {
      return undefined;
    }
  }

  /** A record id's parts, or undefined when the id is none of the planned topics'. */
  record(id: number): DecodedId | undefined {
    try {
      return this.named(this.ids.decodeRecord(id));
    } catch {
      return undefined;
    }
  }

  context(id: number): DecodedId | undefined {
    try {
      return this.named(this.ids.decodeContext(id));
    } catch {
      return undefined;
    }
  }

  /**
   * The item index of history turn `i` of a context decoded to `parts`: the decoded history's
   * items are a set (ascending), the record's turns an order, so the turn's item is the one whose
   * question and answer it shows; undefined when that is not exactly one.
   */
  itemOf(
    parts: ClariqIdParts,
    turns: readonly { question: string; answer: string }[],
    i: number,
  ): number | undefined {
    const answers = this.plans.get(parts.topic_id)?.answers[parts.facet];
    const t = turns[i];
    if (!answers || !t) return undefined;
    const hits = parts.history.filter(
      (x) => answers[x]?.question === t.question && answers[x]?.answer === t.answer,
    );
    return hits.length === 1 ? hits[0] : undefined;
  }

  /** The question text of a question id in a topic's plan (for the consistency check). */
  questionText(topic: number, facet: string, questionId: string): string | undefined {
    const plan = this.plans.get(topic);
    const f = plan?.facets.indexOf(facet) ?? -1;
    return plan === undefined || f < 0
      ? undefined
      : at(plan.answers, f).find((x) => x.question_id === questionId)?.question;
  }
}

// The Dataset view's data: ClariQ's topics, facets, questions and answers per split, and Qulac's rows.
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import {
  type ClariqRow,
  type QulacRow,
  readClariqRows,
  readQuestionBank,
  readQulacJson,
} from "@convkit/formats";
import type { TOPIC_SORT_KEYS } from "../shared/api.js";
import { histogram, lengths, sorter, type TopicsSummary, yesNo } from "../shared/list-summary.js";
import { type Page, page } from "./paging.js";
import { QulacIds } from "./qulac-ids.js";

/** One facet of a topic with its question–answer pairs. */
interface FacetView {
  facet_id: string;
  facet_desc: string;
  /** Qulac's facet number this facet is joined to (topics <= 200 with --qulac). */
  qulac_facet?: number;
  qa: { question_id: string; question: string; answer: string; qulac_id?: string }[];
}

export interface TopicView {
  topic_id: number;
  split: string;
  initial_request: string;
  topic_desc: string;
  clarification_need: number;
  facets: FacetView[];
}

export interface TopicSummary {
  topic_id: number;
  split: string;
  initial_request: string;
  clarification_need: number;
  facets: number;
  questions: number;
}

const SPLITS = [
  ["train", "train.tsv"],
  ["dev", "dev.tsv"],
  ["test", "test_with_labels.tsv"],
] as const;

/** ClariQ (a data folder) and Qulac (qulac.json), as far as they were given. */
export class Dataset {
  private readonly topics: TopicView[] = [];
  private readonly byId = new Map<number, TopicView>();
  questionBank = 0;
  /** The bank's question texts by id (Q00001: no question). */
  readonly bank = new Map<string, string>();
  qulacRows: QulacRow[] = [];
  /** Qulac ids by gen:synthetic's join (ClariQ with --qulac). */
  qulac: QulacIds | undefined;
  readonly files: string[] = [];

  static async open(dataDir: string | undefined, qulacPath: string | undefined): Promise<Dataset> {
    const d = new Dataset();
    if (qulacPath !== undefined) {
      d.qulacRows = await readQulacJson(qulacPath);
      d.files.push(qulacPath);
    }
    if (dataDir !== undefined) {
      const rows: [string, ClariqRow][] = [];
      for (const [split, name] of SPLITS) {
        const path = join(dataDir, name);
        if (!existsSync(path)) continue;
        d.files.push(path);
        for await (const batch of readClariqRows(path)) for (const r of batch) rows.push([split, r]);
      }
      if (d.qulacRows.length > 0)
        d.qulac = new QulacIds(
          rows.map(([, r]) => r),
          d.qulacRows,
        );
      for (const [split, r] of rows) d.add(split, r);
      const bank = join(dataDir, "question_bank.tsv");
      if (existsSync(bank)) {
        d.files.push(bank);
        for await (const b of readQuestionBank(bank))
          for (const q of b) {
            d.questionBank++;
            d.bank.set(q.question_id, q.question);
          }
      }
    }
    // Qulac alone: its topics, facets and question–answer rows, by Qulac's own ids.
    if (d.topics.length === 0)
      for (const r of d.qulacRows) {
        let t = d.byId.get(r.topic_id);
        if (!t) {
          t = {
            topic_id: r.topic_id,
            split: "qulac",
            initial_request: r.topic,
            topic_desc: r.topic_desc,
            clarification_need: Number.NaN,
            facets: [],
          };
          d.byId.set(r.topic_id, t);
          d.topics.push(t);
        }
        let f = t.facets.find((x) => x.facet_id === r.topic_facet_id);
        if (!f) {
          f = { facet_id: r.topic_facet_id, facet_desc: r.facet_desc, qa: [] };
          t.facets.push(f);
        }
        f.qa.push({
          question_id: r.topic_facet_question_id,
          question: r.question,
          answer: r.answer,
          qulac_id: r.topic_facet_question_id,
        });
      }
    return d;
  }

  private add(split: string, r: ClariqRow): void {
    let t = this.byId.get(r.topic_id);
    if (!t) {
      t = {
        topic_id: r.topic_id,
        split,
        initial_request: r.initial_request,
        topic_desc: r.topic_desc,
        clarification_need: r.clarification_need,
        facets: [],
      };
      this.byId.set(r.topic_id, t);
      this.topics.push(t);
    }
    let f = t.facets.find((x) => x.facet_id === r.facet_id);
    if (!f) {
      const qf = this.qulac?.facetOf(r.topic_id, r.facet_id);
      f = {
        facet_id: r.facet_id,
        facet_desc: r.facet_desc,
        ...(qf === undefined ? {} : { qulac_facet: qf }),
        qa: [],
      };
      t.facets.push(f);
    }
    const qulacId = this.qulac?.ofRow(r);
    f.qa.push({
      question_id: r.question_id,
      question: r.question,
      answer: r.answer,
      ...(qulacId ? { qulac_id: qulacId } : {}),
    });
  }

  summary() {
    const bySplit: Record<string, { topics: number; facets: number; questions: number }> = {};
    for (const t of this.topics) {
      const s = bySplit[t.split] ?? { topics: 0, facets: 0, questions: 0 };
      bySplit[t.split] = s;
      s.topics++;
      s.facets += t.facets.length;
      for (const f of t.facets) s.questions += f.qa.length;
    }
    return {
      files: this.files.map((f) => basename(f)),
      splits: bySplit,
      questionBank: this.questionBank,
      qulac: {
        rows: this.qulacRows.length,
        topics: new Set(this.qulacRows.map((r) => r.topic_id)).size,
        facets: new Set(this.qulacRows.map((r) => r.topic_facet_id)).size,
      },
    };
  }

  /**
   * Topics whose request, description, facets, questions, answers or question ids contain `q` (any
   * case), or whose id is `q`, or with a row or facet of Qulac id `q` (`8-1-1`, `8-1`), in `split`,
   * in id order.
   */
  private matching(q: string, split: string | undefined): TopicView[] {
    const needle = q.trim().toLowerCase();
    const qulacLike = /^\d+-\d+(-\d+|-x)?$/.test(needle);
    return [...this.topics]
      .sort((a, b) => a.topic_id - b.topic_id)
      .filter(
        (t) =>
          (split === undefined || split === "" || t.split === split) &&
          (needle === "" ||
            String(t.topic_id) === needle ||
            topicText(t).includes(needle) ||
            (qulacLike && hasQulacId(t, needle))),
      );
  }

  /**
   * The topics {@link matching} `q` in `split`, sorted by `sort` (a column of {@link TOPIC_SORTS},
   * `-` for descending). `at` (a topic id, when no offset is given) picks the page that holds it,
   * so a shared URL shows its topic.
   */
  searchTopics(
    q: string,
    split: string | undefined,
    offset: number,
    limit: number,
    o: { sort?: string | undefined; at?: number | undefined } = {},
  ): Page<TopicSummary> {
    const hits = this.matching(q, split);
    const by = sorter(o.sort, TOPIC_SORTS);
    if (by) hits.sort(by);
    const i = o.at === undefined ? -1 : hits.findIndex((t) => t.topic_id === o.at);
    const from = i >= 0 && offset === 0 ? i - (i % Math.max(1, limit)) : offset;
    return page(hits, from, limit, (t) => ({
      topic_id: t.topic_id,
      split: t.split,
      initial_request: t.initial_request,
      clarification_need: t.clarification_need,
      facets: t.facets.length,
      questions: t.facets.reduce((n, f) => n + f.qa.length, 0),
    }));
  }

  /**
   * The column summaries of the topics {@link matching} `q` in `split`: over the whole filtered
   * list, not a page (the route keeps it per filter: summaries.ts).
   */
  summarizeTopics(q: string, split: string | undefined): TopicsSummary {
    return summarize(this.matching(q, split));
  }

  /** Every topic's id and split, in id order. */
  topicSplits(): { topic_id: number; split: string }[] {
    return [...this.topics]
      .sort((a, b) => a.topic_id - b.topic_id)
      .map((t) => ({ topic_id: t.topic_id, split: t.split }));
  }

  topic(id: number): (TopicView & { qulac_rows: number }) | undefined {
    const t = this.byId.get(id);
    if (!t) return undefined;
    return { ...t, qulac_rows: this.qulacRows.filter((r) => r.topic_id === id).length };
  }

  /** The topic a facet id belongs to (facet ids are unique across ClariQ's splits). */
  topicOfFacet(facet: string): number | undefined {
    if (this.facetTopics.size === 0)
      for (const t of this.topics) for (const f of t.facets) this.facetTopics.set(f.facet_id, t.topic_id);
    return this.facetTopics.get(facet);
  }

  private readonly facetTopics = new Map<string, number>();

  /** A topic's request and its facets' descriptions, for views that show ids of them. */
  topicTexts(id: number): { initial_request: string; facets: Record<string, string> } | undefined {
    const t = this.byId.get(id);
    return (
      t && {
        initial_request: t.initial_request,
        facets: Object.fromEntries(t.facets.map((f) => [f.facet_id, f.facet_desc])),
      }
    );
  }

  /**
   * The bank id of a question asked under a facet, by the facet's rows with its text (and, when
   * that is not one id, its answer too); undefined unless exactly one id fits.
   */
  questionIdOf(topic: number, facet: string, question: string, answer: string): string | undefined {
    const qa = this.byId.get(topic)?.facets.find((x) => x.facet_id === facet)?.qa ?? [];
    const one = (rows: FacetView["qa"]) => {
      const ids = new Set(rows.map((x) => x.question_id));
      return ids.size === 1 ? [...ids][0] : undefined;
    };
    const byText = qa.filter((x) => x.question === question);
    return one(byText) ?? one(byText.filter((x) => x.answer === answer));
  }

  /** Every ClariQ (or Qulac) row of a question id: its facet, topic, split and answer (indexed on first use). */
  rowsOfQuestion(
    id: string,
  ): { topic_id: number; split: string; facet_id: string; facet_desc: string; answer: string }[] {
    if (this.byQuestion === undefined) {
      this.byQuestion = new Map();
      for (const t of this.topics)
        for (const f of t.facets)
          for (const x of f.qa) {
            const l = this.byQuestion.get(x.question_id) ?? [];
            this.byQuestion.set(x.question_id, l);
            l.push({
              topic_id: t.topic_id,
              split: t.split,
              facet_id: f.facet_id,
              facet_desc: f.facet_desc,
              answer: x.answer,
            });
          }
    }
    return this.byQuestion.get(id) ?? [];
  }

  private byQuestion:
    | Map<string, { topic_id: number; split: string; facet_id: string; facet_desc: string; answer: string }[]>
    | undefined;

  /**
   * Bank question ids a search means: the id itself (`Q00706`, any case) or those whose text
   * contains it (any case; three characters at least, so a digit does not pick half the bank).
   */
  questionsMatching(q: string): Set<string> {
    const needle = q.trim().toLowerCase();
    const out = new Set<string>();
    if (/^q\d+$/.test(needle)) out.add(needle.toUpperCase());
    else if (needle.length >= 3)
      for (const [id, text] of this.bank) if (text.toLowerCase().includes(needle)) out.add(id);
    return out;
  }

  facetDesc(facet: string): string | undefined {
    const t = this.topicOfFacet(facet);
    return t === undefined
      ? undefined
      : this.byId.get(t)?.facets.find((x) => x.facet_id === facet)?.facet_desc;
  }
}

/** The columns the topic list sorts by (`sort=need`, `sort=-rows`). */
const TOPIC_SORTS: Record<(typeof TOPIC_SORT_KEYS)[number], (t: TopicView) => number | string> = {
  id: (t) => t.topic_id,
  request: (t) => t.initial_request.toLowerCase(),
  need: (t) => (Number.isNaN(t.clarification_need) ? -1 : t.clarification_need),
  facets: (t) => t.facets.length,
  rows: (t) => t.facets.reduce((n, f) => n + f.qa.length, 0),
};

function summarize(topics: readonly TopicView[]): TopicsSummary {
  const rows = topics.flatMap((t) => t.facets.flatMap((f) => f.qa));
  const answers = { yes: 0, no: 0, other: 0 };
  for (const r of rows) answers[yesNo(r.answer)]++;
  return {
    topics: topics.length,
    rows: rows.length,
    clarification_need: histogram(topics.map((t) => t.clarification_need)),
    answers,
    request_length: lengths(topics.map((t) => t.initial_request)),
    question_length: lengths(rows.map((r) => r.question)),
    answer_length: lengths(rows.map((r) => r.answer)),
  };
}

/** A row or facet of Qulac id `id` (`8-1-1`) or facet id (`8-1`). */
function hasQulacId(t: TopicView, id: string): boolean {
  return t.facets.some(
    (f) =>
      (f.qulac_facet !== undefined && `${t.topic_id}-${f.qulac_facet}` === id) ||
      f.qa.some((x) => x.qulac_id?.toLowerCase() === id),
  );
}

function topicText(t: TopicView): string {
  const parts = [t.initial_request, t.topic_desc];
  for (const f of t.facets) {
    parts.push(f.facet_id, f.facet_desc);
    for (const x of f.qa) parts.push(x.question, x.answer, x.question_id);
  }
  return parts.join("\n").toLowerCase();
}

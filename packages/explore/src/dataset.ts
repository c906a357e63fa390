// The Dataset view's data: ClariQ's topics, facets, questions and answers per split, and Qulac's rows.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type QulacRow, readClariqRows, readQuestionBank, readQulacJson } from "@convkit/formats";
import { type Page, page } from "./paging.js";

/** One facet of a topic with its question–answer pairs. */
interface FacetView {
  facet_id: string;
  facet_desc: string;
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

/** Qulac's ids of a (topic, question, answer) triple, and of a (topic, question) pair. */
export interface QulacIds {
  /** `topic-facet-question` of the row with this question and answer. */
  byAnswer(topic: number, question: string, answer: string): string | undefined;
  /** `topic-?-question`: Qulac's question number when only the question text matches. */
  byQuestion(topic: number, question: string): string | undefined;
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
  qulacRows: QulacRow[] = [];
  readonly files: string[] = [];

  static async open(dataDir: string | undefined, qulacPath: string | undefined): Promise<Dataset> {
    const d = new Dataset();
    if (qulacPath !== undefined) {
      d.qulacRows = await readQulacJson(qulacPath);
      d.files.push(qulacPath);
    }
    const qulac = d.qulacIds();
    if (dataDir !== undefined) {
      for (const [split, name] of SPLITS) {
        const path = join(dataDir, name);
        if (!existsSync(path)) continue;
        d.files.push(path);
        for await (const batch of readClariqRows(path))
          for (const r of batch) {
            let t = d.byId.get(r.topic_id);
            if (!t) {
              t = {
                topic_id: r.topic_id,
                split,
                initial_request: r.initial_request,
                topic_desc: r.topic_desc,
                clarification_need: r.clarification_need,
                facets: [],
              };
              d.byId.set(r.topic_id, t);
              d.topics.push(t);
            }
            let f = t.facets.find((x) => x.facet_id === r.facet_id);
            if (!f) {
              f = { facet_id: r.facet_id, facet_desc: r.facet_desc, qa: [] };
              t.facets.push(f);
            }
            const qulacId = qulac.byAnswer(r.topic_id, r.question, r.answer);
            f.qa.push({
              question_id: r.question_id,
              question: r.question,
              answer: r.answer,
              ...(qulacId ? { qulac_id: qulacId } : {}),
            });
          }
      }
      const bank = join(dataDir, "question_bank.tsv");
      if (existsSync(bank)) {
        d.files.push(bank);
        for await (const b of readQuestionBank(bank)) d.questionBank += b.length;
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
      files: this.files,
      splits: bySplit,
      questionBank: this.questionBank,
      qulac: {
        rows: this.qulacRows.length,
        topics: new Set(this.qulacRows.map((r) => r.topic_id)).size,
        facets: new Set(this.qulacRows.map((r) => r.topic_facet_id)).size,
      },
    };
  }

  /** Topics whose request, description, facets, questions or answers contain `q` (any case). */
  searchTopics(q: string, split: string | undefined, offset: number, limit: number): Page<TopicSummary> {
    const needle = q.trim().toLowerCase();
    const hits = [...this.topics]
      .sort((a, b) => a.topic_id - b.topic_id)
      .filter(
        (t) =>
          (split === undefined || split === "" || t.split === split) &&
          (needle === "" || String(t.topic_id) === needle || topicText(t).includes(needle)),
      );
    return page(hits, offset, limit, (t) => ({
      topic_id: t.topic_id,
      split: t.split,
      initial_request: t.initial_request,
      clarification_need: t.clarification_need,
      facets: t.facets.length,
      questions: t.facets.reduce((n, f) => n + f.qa.length, 0),
    }));
  }

  topic(id: number): (TopicView & { qulac: QulacRow[] }) | undefined {
    const t = this.byId.get(id);
    const qulac = this.qulacRows.filter((r) => r.topic_id === id);
    if (!t) return undefined;
    return { ...t, qulac };
  }

  /** The facet's description and its answer to a question, for conversation records. */
  facetAnswer(topic: number, facet: string, question: string): string | undefined {
    const f = this.byId.get(topic)?.facets.find((x) => x.facet_id === facet);
    return f?.qa.find((x) => x.question === question)?.answer;
  }

  topicOfFacet(facet: string): number | undefined {
    for (const t of this.topics) if (t.facets.some((f) => f.facet_id === facet)) return t.topic_id;
    return undefined;
  }

  facetDesc(topic: number, facet: string): string | undefined {
    return this.byId.get(topic)?.facets.find((x) => x.facet_id === facet)?.facet_desc;
  }

  qulacIds(): QulacIds {
    const byQa = new Map<string, string>();
    const byQ = new Map<string, string>();
    for (const r of this.qulacRows) {
      const [, , qn] = r.topic_facet_question_id.split("-");
      byQa.set(`${r.topic_id}\t${r.question}\t${r.answer}`, r.topic_facet_question_id);
      const k = `${r.topic_id}\t${r.question}`;
      if (!byQ.has(k)) byQ.set(k, `${r.topic_id}-?-${qn}`);
    }
    return {
      byAnswer: (t, q, a) => byQa.get(`${t}\t${q}\t${a}`),
      byQuestion: (t, q) => byQ.get(`${t}\t${q}`),
    };
  }
}

function topicText(t: TopicView): string {
  const parts = [t.initial_request, t.topic_desc];
  for (const f of t.facets) {
    parts.push(f.facet_id, f.facet_desc);
    for (const x of f.qa) parts.push(x.question, x.answer, x.question_id);
  }
  return parts.join("\n").toLowerCase();
}

// The Dataset and Conversations views: ClariQ/Qulac topics, facets and rows; synthetic context trees and records.
import type { Answers, ContextNode, Meta } from "../src/shared/api.js";
import { PAGE, plan, type ViewParams, viewHash } from "../src/shared/views.js";
import { get, holds } from "./client.js";
import { counts, fmt, h, listPane, pager, plural, safely, searchField, table } from "./dom.js";
import { bars, filterSelect, laterSummaries, lengthLine, sortHeaders } from "./list-tools.js";
import { contextPane } from "./view-context.js";
import { questionLink } from "./view-question.js";

/** The Hugging Face viewer's column summaries of the filtered topics (all pages). */
const topicSummaries = (summary: Promise<Answers["dataset/summary"]>): HTMLElement =>
  laterSummaries(
    summary,
    (s) => `${fmt(s.topics)} topics, ${fmt(s.rows)} rows`,
    (s) => [
      bars("clarification need", s.clarification_need, "summary-need"),
      bars("answers", s.answers, "summary-answers"),
      lengthLine("request", s.request_length, "summary-request-length"),
      lengthLine("question", s.question_length, "summary-question-length"),
      lengthLine("answer", s.answer_length, "summary-answer-length"),
    ],
  );

/** The Conversations list's column summaries over the contexts its filters keep (all pages). */
const conversationSummaries = (summary: Promise<Answers["conversations/summary"]>): HTMLElement =>
  laterSummaries(
    summary,
    (s) =>
      `${plural(s.topics, "topics")}, ${plural(s.contexts, "contexts")}, ${plural(s.records, "records")}`,
    (s) => [
      bars("context level (questions asked before it)", s.level, "summary-level"),
      bars("records per context", s.records_per_context, "summary-records"),
      lengthLine("request", s.request_length, "summary-request-length"),
    ],
  );

export async function datasetView(
  p: ViewParams,
  meta: Meta,
  go: (p: ViewParams) => void,
): Promise<HTMLElement> {
  const d = meta.dataset;
  if (!meta.views.dataset || !d)
    return h("p", {}, "No ClariQ data folder or qulac.json was given (--data, --qulac).");
  const r = plan("dataset", p);
  const totals = Object.entries(d.splits).flatMap(([s, c]): [string, number, string?][] => [
    [`${s} topics`, c.topics, `dataset-${s}-topics`],
    [`${s} facets`, c.facets],
    [`${s} question–answer rows`, c.questions],
  ]);
  const left = await safely(async () => {
    const topics = await get(r.list);
    const at = (offset: number) => viewHash("dataset", { ...p, offset: String(offset) });
    // What a new search keeps: the filters and the sort (not the page or the topic).
    const filters = { ...(p.split ? { split: p.split } : {}), ...(p.sort ? { sort: p.sort } : {}) };
    return h(
      "div",
      {},
      searchField(p.q ?? "", "search topics, facets, questions, answers, ids (Q00706, 8-1-1)", (q) =>
        go({ ...filters, q }),
      ),
      h(
        "div",
        { class: "filters" },
        filterSelect(
          "split",
          [["", "all"], ...Object.keys(d.splits).map((s): [string, string] => [s, s])],
          p.split ?? "",
          (split) => go({ ...filters, q: p.q ?? "", split }),
          "split",
        ),
      ),
      sortHeaders(
        [
          ["id", "id"],
          ["request", "request"],
          ["need", "clarification need"],
          ["facets", "facets"],
          ["rows", "rows"],
        ],
        p.sort ?? "id",
        (sort) => go({ ...p, offset: "", sort }),
        "topics",
      ),
      h("div", { class: "ids", "data-test": "topic-hits" }, plural(topics.total, "topics")),
      topicSummaries(get(r.summary)),
      pager(topics.total, topics.offset, PAGE.topics, at, "topics"),
      listPane(topics.items, {
        label: (t) => [
          h("b", {}, t.topic_id),
          " ",
          t.initial_request,
          h(
            "div",
            { class: "ids" },
            `${t.split} · need ${fmt(t.clarification_need)} · ${plural(t.facets, "facets")} · ${plural(t.questions, "rows")}`,
          ),
        ],
        // The page's offset given (0 too): a topic opened from the list keeps this page and its
        // request (a static page holds it), where a URL of a topic alone asks for its page.
        href: (t) => viewHash("dataset", { ...p, topic: String(t.topic_id), offset: String(topics.offset) }),
        held: (t) => holds(plan("dataset", { ...p, topic: String(t.topic_id) }).topic),
        selected: (t) => String(t.topic_id) === p.topic,
        test: "topics",
      }),
    );
  });
  const topicReq = r.topic;
  const right =
    topicReq === undefined
      ? h("p", { class: "ids" }, "Pick a topic (j/k, Enter).")
      : await safely(async () => {
          const t = await get(topicReq);
          const dicts = meta.evalDicts.map((x, i) => ({ ...x, i })).filter((x) => x.keyedBy === "facet");
          return h(
            "div",
            { "data-test": "topic" },
            h("h2", {}, `${t.topic_id}: ${t.initial_request}`),
            h(
              "p",
              {},
              t.topic_desc,
              h("span", { class: "ids" }, ` · ${t.split} · clarification need ${fmt(t.clarification_need)}`),
            ),
            h(
              "p",
              { class: "links" },
              meta.views.conversations
                ? h(
                    "a",
                    { href: viewHash("conversations", { topic: String(t.topic_id) }) },
                    "its conversations",
                  )
                : null,
              meta.views.runs
                ? h("a", { href: viewHash("runs", { topic: String(t.topic_id) }) }, "the runs' rankings")
                : null,
            ),
            t.facets.map((f) =>
              h(
                "section",
                { "data-test": "facet", "data-facet": f.facet_id },
                h("h3", {}, `${f.facet_id}: ${f.facet_desc}`),
                h(
                  "div",
                  { class: "ids" },
                  f.qulac_facet !== undefined ? `Qulac facet ${t.topic_id}-${f.qulac_facet}` : null,
                  // Links only to the dicts that hold this facet (a dict holds one split's facets).
                  dicts.length === 0
                    ? null
                    : dicts.some((x) => f.eval_dicts?.includes(x.i))
                      ? dicts
                          .filter((x) => f.eval_dicts?.includes(x.i))
                          .map((x) => [
                            " · ",
                            h(
                              "a",
                              {
                                href: viewHash("evaldicts", { file: String(x.i), ctx: f.facet_id }),
                                "data-test": "facet-evaldict",
                              },
                              `${x.file} entry`,
                            ),
                          ])
                      : h(
                          "span",
                          { "data-test": "facet-no-evaldict" },
                          ` · no entry in ${dicts.map((x) => x.file).join(", ")}`,
                        ),
                ),
                table(
                  ["question id", "question", "answer", "Qulac id"],
                  f.qa.map((x) => [
                    { cell: questionLink(x.question_id), text: x.question_id },
                    x.question,
                    x.answer,
                    x.qulac_id ?? "",
                  ]),
                  { name: `topic-${t.topic_id}-${f.facet_id}`, test: "qa", stack: true },
                ),
              ),
            ),
            t.qulac_rows > 0
              ? h("p", { class: "ids" }, `${plural(t.qulac_rows, "Qulac rows")} for this topic`)
              : null,
          );
        });
  return h(
    "div",
    {},
    counts([
      ...totals,
      ["question bank", d.questionBank, "dataset-bank"],
      ["Qulac rows", d.qulac.rows, "dataset-qulac"],
    ]),
    h("div", { class: "cols" }, left, right),
  );
}

function fileSwitch(
  view: "conversations" | "evaldicts" | "passages",
  files: string[],
  file: string,
): HTMLElement {
  if (files.length <= 1) return h("div", { class: "ids" }, files[0] ?? "");
  return h(
    "nav",
    { class: "files", "aria-label": "files" },
    files.map((f, i) =>
      h("a", { href: viewHash(view, { file: String(i) }), class: String(i) === file ? "active" : "" }, f),
    ),
  );
}

export { fileSwitch };

/** The topics of the set's splits it has no records of, said under its list (not silently left out). */
function absentNote(absent: Meta["synthetic"][number]["absent"]): HTMLElement | null {
  if (absent.length === 0) return null;
  const byWhy = new Map<string, string[]>();
  for (const t of absent) byWhy.set(t.why, [...(byWhy.get(t.why) ?? []), `${t.split} topic ${t.topic_id}`]);
  return h(
    "p",
    { class: "ids", "data-test": "absent-topics" },
    [...byWhy].map(([why, ts]) => h("div", {}, `Not here: ${ts.join(", ")}: ${why}.`)),
  );
}

export async function conversationsView(
  p: ViewParams,
  meta: Meta,
  go: (p: ViewParams) => void,
): Promise<HTMLElement> {
  if (!meta.views.conversations) return h("p", {}, "No synthetic set was given (--synthetic FILE.jsonl).");
  const file = p.file ?? "0";
  const s = meta.synthetic[Number(file)];
  const head = h(
    "div",
    {},
    fileSwitch(
      "conversations",
      meta.synthetic.map((x) => x.file),
      file,
    ),
    s
      ? counts([
          ["records", s.records, "synthetic-records"],
          ["contexts", s.contexts, "synthetic-contexts"],
          ["topics", s.topics],
          ["level-0 contexts", s.contextsByLevel[0] ?? 0],
          ["level-1 contexts", s.contextsByLevel[1] ?? 0],
          ["level-2 contexts", s.contextsByLevel[2] ?? 0],
        ])
      : null,
  );
  const r = plan("conversations", p);
  // The file and the list's filters: every link of the view keeps them.
  const file0 = { ...(p.file ? { file: p.file } : {}) };
  const sort0 = { ...(p.sort ? { sort: p.sort } : {}) };
  const base = { ...file0, ...(p.q ? { q: p.q } : {}), ...(p.level ? { level: p.level } : {}), ...sort0 };
  const left = await safely(async () => {
    const topics = await get(r.list);
    return h(
      "div",
      {},
      searchField(p.q ?? "", "topic, request, facet, a question or answer asked", (q) =>
        go({ ...file0, ...(p.level ? { level: p.level } : {}), ...sort0, q }),
      ),
      h(
        "div",
        { class: "filters" },
        filterSelect(
          "level",
          [
            ["", "all"],
            ["0", "0 (nothing asked)"],
            ["1", "1"],
            ["2", "2"],
          ],
          p.level ?? "",
          (level) => go({ ...file0, ...(p.q ? { q: p.q } : {}), ...sort0, level }),
          "level",
        ),
      ),
      sortHeaders(
        [
          ["id", "id"],
          ["request", "request"],
          ["facets", "facets"],
          ["contexts", "contexts"],
          ["records", "records"],
        ],
        p.sort ?? "id",
        (sort) => go({ ...base, ...(p.topic ? { topic: p.topic } : {}), sort }),
        "topics",
      ),
      h("div", { class: "ids", "data-test": "conv-topic-hits" }, `${fmt(topics.total)} topics`),
      conversationSummaries(get(r.summary)),
      pager(
        topics.total,
        topics.offset,
        topics.items.length || 1,
        (o) => viewHash("conversations", { ...base, offset: String(o) }),
        "topics",
      ),
      listPane(topics.items, {
        label: (t) => [
          h("b", {}, t.topic_id),
          t.initial_request ? ` ${t.initial_request}` : "",
          h(
            "div",
            { class: "ids" },
            `${plural(t.facets, "facets")} · ${plural(t.contexts, "contexts")} · ${plural(t.records, "records")}`,
          ),
        ],
        href: (t) =>
          viewHash("conversations", {
            ...base,
            ...(p.offset ? { offset: p.offset } : {}),
            topic: String(t.topic_id),
          }),
        held: (t) => holds(plan("conversations", { ...base, topic: String(t.topic_id) }).topic),
        selected: (t) => String(t.topic_id) === p.topic,
        test: "conv-topics",
      }),
      absentNote(s?.absent ?? []),
    );
  });
  const right = h("div", {});
  const keep = { ...base, ...(p.offset ? { offset: p.offset } : {}), ...(p.topic ? { topic: p.topic } : {}) };
  const absent = s?.absent.find((t) => String(t.topic_id) === p.topic);
  if (s && absent)
    right.append(
      h(
        "p",
        { class: "error", "data-test": "absent-topic", role: "alert" },
        `${absent.split} topic ${absent.topic_id} has no records in ${s.file}: ${absent.why}.`,
      ),
    );
  else if (r.topic !== undefined) {
    const topicReq = r.topic;
    right.append(
      await safely(async () => {
        const facets = await get(topicReq);
        const node = (c: ContextNode): HTMLElement =>
          h(
            "li",
            { class: String(c.context_id) === p.ctx ? "sel" : "", "data-ctx": c.context_id },
            h(
              "a",
              { href: viewHash("conversations", { ...keep, ctx: String(c.context_id) }) },
              `context ${c.context_id} · level ${c.level} · ${plural(c.records, "records")}`,
            ),
            c.history.length
              ? h(
                  "ol",
                  { class: "node-history", "data-test": "node-history" },
                  c.history.map((t) =>
                    h(
                      "li",
                      { "data-test": "node-turn", "data-question-id": t.question_id },
                      t.question_id ? h("b", {}, questionLink(t.question_id)) : null,
                      ` ${t.question}`,
                      h("span", { class: "ids" }, ` → ${t.answer}`),
                    ),
                  ),
                )
              : null,
            c.children?.length ? h("ul", {}, c.children.map(node)) : null,
          );
        const holdsCtx = (id: string) => JSON.stringify(facets).includes(`"context_id":${id},`);
        return h(
          "div",
          { class: "tree", "data-test": "context-tree" },
          facets.map((f) =>
            h(
              "details",
              {
                open:
                  facets.length <= 3 ||
                  (p.ctx !== undefined &&
                    holdsCtx(p.ctx) &&
                    JSON.stringify(f.tree).includes(`"context_id":${p.ctx},`)),
              },
              h(
                "summary",
                {},
                `${f.facet_id}${f.facet_desc ? `: ${f.facet_desc}` : ""} · ${plural(f.contexts, "contexts")}`,
              ),
              h("ul", {}, f.tree.map(node)),
            ),
          ),
        );
      }),
    );
  }
  const ctxReq = r.ctx;
  if (ctxReq) right.append(await safely(() => contextPane(ctxReq, keep, meta)));
  return h("div", {}, head, h("div", { class: "cols" }, left, right));
}

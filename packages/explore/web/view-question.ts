// The page of one clarifying question (#/question?id=Q…): its text, answers per facet, contexts, eval values, runs' ranks.
import type { QuestionContext, QuestionView } from "../src/shared/api.js";
import { at } from "../src/shared/checked.js";
import { viewHash } from "../src/shared/views.js";
import { get } from "./client.js";
import { counts, fmt, h, pager, table } from "./dom.js";

/** Contexts per page of the question page. */
const CONTEXTS_PAGE = 100;

/** The URL of a question's page (every question id shown in the explorer links here). */
const questionHash = (id: string, offset = 0): string =>
  `#/question?${new URLSearchParams({ id, ...(offset > 0 ? { offset: String(offset) } : {}) })}`;

/** A question id as a link to its page (a normal link: Tab, Enter, middle-click work). */
export const questionLink = (id: string): HTMLElement =>
  h("a", { href: questionHash(id), class: "qid", "data-test": "question-link", "data-question-id": id }, id);

/** The parameters of a question page's hash, or undefined for any other view. */
export function questionParams(hash: string): { id: string; offset: string } | undefined {
  const m = /^#?\/?question(?:\?(.*))?$/.exec(hash);
  if (!m) return undefined;
  const q = new URLSearchParams(m[1] ?? "");
  return { id: q.get("id") ?? "", offset: q.get("offset") ?? "" };
}

/** A value to 4 decimals on screen, in full in its title, data-value and the CSV. */
const num = (v: number | undefined) =>
  v === undefined
    ? { cell: h("span", { class: "ids", "data-value": "" }, "not listed"), text: "" }
    : { cell: h("span", { title: String(v), "data-value": String(v) }, fmt(v)), text: String(v) };

/** Marks each cell with its column's name: at phone width the rows stack as label–value lines. */
function stacked(el: HTMLElement, kind?: "pairs"): HTMLElement {
  el.classList.add("stack");
  if (kind) el.classList.add(kind);
  const head = [...el.querySelectorAll("thead th")].map((th) => th.textContent ?? "");
  for (const tr of el.querySelectorAll("tbody tr"))
    for (const [k, td] of [...tr.children].entries()) td.setAttribute("data-label", head[k] ?? "");
  return el;
}

function contextLink(c: QuestionContext): HTMLElement {
  if (c.conversation)
    return h(
      "a",
      {
        href: viewHash("conversations", {
          ...(c.conversation.file ? { file: String(c.conversation.file) } : {}),
          ...(c.topic_id !== undefined ? { topic: String(c.topic_id) } : {}),
          ctx: String(c.conversation.context_id),
        }),
        "data-test": "context-link",
      },
      `context ${c.context}`,
    );
  const e = c.evals[0];
  return h(
    "a",
    {
      href: viewHash("evaldicts", { ...(e?.file ? { file: String(e.file) } : {}), ctx: c.context }),
      "data-test": "context-link",
    },
    c.context,
  );
}

function evalBlock(c: QuestionContext, id: string): HTMLElement[] {
  return c.evals.map((e) =>
    h(
      "section",
      { "data-test": "question-eval", "data-context": c.context, "data-dict": e.dict, "data-key": e.key },
      h(
        "h4",
        {},
        `${c.conversation ? `context ${c.context} · ` : ""}${c.facet_id ?? ""} · level ${c.level} — `,
        h(
          "a",
          { href: viewHash("evaldicts", { ...(e.file ? { file: String(e.file) } : {}), ctx: e.key }) },
          `${e.dict} entry ${e.key}`,
        ),
        e.in_dict ? null : h("span", { class: "badge" }, `${id} not among its candidates`),
      ),
      // Not listed: no values of its own (the entry's MAX and MIN are on the entry's page).
      !e.in_dict
        ? null
        : stacked(
            table(
              [
                "metric",
                "no_answer",
                "with_answer",
                "MAX no_answer",
                "MAX with_answer",
                "MIN no_answer",
                "MIN with_answer",
              ],
              e.metrics.map((m) => [
                m.metric,
                num(m.no_answer),
                num(m.with_answer),
                num(m.max.no_answer),
                num(m.max.with_answer),
                num(m.min.no_answer),
                num(m.min.with_answer),
              ]),
              { name: `${id}-${e.key}`, test: "question-eval-table", num: [1, 2, 3, 4, 5, 6] },
            ),
            "pairs",
          ),
    ),
  );
}

export async function questionView(q: { id: string; offset: string }): Promise<HTMLElement> {
  const v: QuestionView = await get({
    path: "question",
    // The offset as written: the server checks it and names it when it is not a number.
    params: { id: q.id, offset: (q.offset === "" ? 0 : q.offset) as number, limit: CONTEXTS_PAGE },
  });
  const id = v.question_id;
  const single = v.runs.single_turn;
  const withEvals = v.contexts.items.filter((c) => c.evals.length > 0);
  const multi = v.runs.multi_turn.length > 0;
  return h(
    "div",
    { class: "question-page", "data-test": "question-page", "data-question-id": id },
    h(
      "h2",
      {},
      h("span", { "data-test": "question-id" }, id),
      " ",
      h("span", { "data-test": "question-text" }, v.question === "" ? "" : v.question),
    ),
    v.in_bank
      ? v.question === ""
        ? h("p", { class: "ids" }, "The bank's empty question (“ask nothing”).")
        : null
      : h("p", { class: "ids" }, "Not in question_bank.tsv (only in ClariQ's rows)."),
    counts([
      ["facets with an answer", v.answers.length, "question-answers-count"],
      ["contexts", v.contexts.total, "question-contexts-count"],
      ["topics ranked by runs", v.rankings.length, "question-rankings-count"],
    ]),
    h("h3", {}, "Answer per facet"),
    v.answers.length === 0
      ? h("p", { class: "ids" }, "No ClariQ row has this question.")
      : stacked(
          table(
            ["topic", "split", "facet", "facet description", "answer"],
            v.answers.map((a) => [
              {
                cell: h(
                  "a",
                  { href: viewHash("dataset", { topic: String(a.topic_id) }) },
                  String(a.topic_id),
                ),
                text: String(a.topic_id),
              },
              a.split,
              a.facet_id,
              a.facet_desc,
              a.answer,
            ]),
            { name: `${id}-answers`, test: "question-answers" },
          ),
        ),
    h("h3", {}, "Runs' ranks of it"),
    single.length === 0
      ? h("p", { class: "ids" }, "No single-turn runs loaded (--run).")
      : v.rankings.length === 0
        ? h("p", { class: "ids" }, "No run ranks for a topic of this question.")
        : stacked(
            table(
              ["topic", "its facets there", ...single],
              v.rankings.map((r) => [
                {
                  cell: h(
                    "a",
                    { href: viewHash("runs", { topic: r.topic }), "data-test": "ranking-topic" },
                    r.topic,
                  ),
                  text: r.topic,
                },
                r.facets.join(" "),
                ...r.runs.map((x) =>
                  x.ranks.length === 0
                    ? `not ranked (${x.of} listed)`
                    : `${x.ranks.join(", ")} of ${x.of}${x.ranks.length > 1 ? ` (listed ${x.ranks.length} times)` : ""}`,
                ),
              ]),
              {
                name: `${id}-ranks`,
                test: "question-ranks",
                rowAttrs: (i) => ({ "data-topic": at(v.rankings, i).topic }),
              },
            ),
          ),
    withEvals.length > 0 ? h("h3", {}, "Eval-dict values in these contexts, beside MAX and MIN") : null,
    withEvals.flatMap((c) => evalBlock(c, id)),
    h("h3", {}, "Contexts where it was asked or is a candidate"),
    pager(v.contexts.total, v.contexts.offset, CONTEXTS_PAGE, (o) => questionHash(id, o), "contexts"),
    v.contexts.total === 0
      ? null
      : stacked(
          table(
            [
              "context",
              "topic",
              "facet",
              "level",
              "role",
              "eval dicts",
              ...(multi ? ["multi-turn picks"] : []),
            ],
            v.contexts.items.map((c) => [
              { cell: contextLink(c), text: c.context },
              c.topic_id === undefined ? "" : String(c.topic_id),
              c.facet_id ?? "",
              String(c.level),
              c.role === "asked" ? `asked (turn ${c.turn})` : "candidate",
              c.evals.map((e) => `${e.dict}${e.in_dict ? "" : " (not listed)"}`).join(", "),
              ...(multi
                ? [
                    {
                      cell: h(
                        "span",
                        {},
                        c.picks.flatMap((k, n) => [
                          n > 0 ? "; " : "",
                          `${k.run}: `,
                          k.is_this ? "picks it" : k.question ? questionLink(k.question) : "no pick",
                        ]),
                      ),
                      text: c.picks
                        .map((k) => `${k.run}: ${k.is_this ? "picks it" : (k.question ?? "no pick")}`)
                        .join("; "),
                    },
                  ]
                : []),
            ]),
            {
              name: `${id}-contexts`,
              test: "question-contexts",
              rowAttrs: (i) => ({ "data-context": at(v.contexts.items, i).context }),
            },
          ),
        ),
  );
}

// One synthetic context: its topic and facet, history, records (paged), and links to its eval-dict entries and the runs.
import type { Meta } from "../src/shared/api.js";
import { type Req, type ViewParams, viewHash } from "../src/shared/views.js";
import { get } from "./client.js";
import { h, pager, plural, table } from "./dom.js";
import { questionLink } from "./view-question.js";

export async function contextPane(
  r: Req<"conversations/context">,
  keep: ViewParams,
  meta: Meta,
): Promise<HTMLElement> {
  const c = await get(r);
  // A URL pairing a topic with another topic's context is refused, with a link to the right pair.
  if (keep.topic !== undefined && keep.topic !== String(c.topic_id))
    return h(
      "p",
      { class: "error", "data-test": "error", role: "alert" },
      `Context ${c.context_id} is of topic ${c.topic_id}, not of topic ${keep.topic} (the URL's topic). `,
      h(
        "a",
        {
          href: viewHash("conversations", { ...keep, topic: String(c.topic_id), ctx: String(c.context_id) }),
        },
        `open it under topic ${c.topic_id}`,
      ),
    );
  const here = { ...keep, ctx: String(c.context_id) };
  return h(
    "section",
    { "data-test": "context" },
    h("h2", {}, `Context ${c.context_id}`),
    h(
      "div",
      { class: "ids" },
      `topic ${c.topic_id}${c.initial_request ? ` (${c.initial_request})` : ""} · facet ${c.facet_id} · level ${c.level} · ClariQ id: ${c.id_kind}`,
    ),
    c.clariq_context
      ? h(
          "div",
          { class: "ids", "data-test": "context-decoded" },
          `context ${c.context_id} decodes to topic ${c.clariq_context.topic_id}, ${c.clariq_context.facet_id}, after ${c.clariq_context.history.join(", ") || "nothing"}`,
        )
      : null,
    c.facet_desc ? h("p", {}, h("b", {}, "Facet: "), c.facet_desc) : null,
    h(
      "p",
      { class: "links", "data-test": "context-links" },
      c.eval_dicts.map((d) =>
        h(
          "a",
          { href: viewHash("evaldicts", { file: String(d.file), ctx: d.key }), "data-test": "to-evaldict" },
          `eval dict ${meta.evalDicts[d.file]?.file ?? d.file}: ${d.key}`,
        ),
      ),
      meta.views.runs
        ? h("a", { href: viewHash("runs", { topic: String(c.topic_id) }) }, `the runs on topic ${c.topic_id}`)
        : null,
      meta.views.dataset
        ? h(
            "a",
            { href: viewHash("dataset", { topic: String(c.topic_id) }) },
            `topic ${c.topic_id} in the dataset`,
          )
        : null,
    ),
    c.picks.length
      ? h(
          "div",
          { "data-test": "context-picks" },
          h("h3", {}, "The runs' picks in this context"),
          table(
            ["run", "its pick", "scored in"],
            c.picks.map((k) => [
              k.run,
              {
                cell: h(
                  "span",
                  {},
                  h("b", {}, k.question ? questionLink(k.question) : "(not in the bank)"),
                  k.question_text ? ` ${k.question_text}` : "",
                ),
                id: k.question ?? "",
                text: k.question_text ?? "",
              },
              {
                cell: h(
                  "a",
                  {
                    href: viewHash("evaldicts", { file: String(k.dict.file), ctx: k.dict.key }),
                    "data-test": "pick-to-evaldict",
                  },
                  `${meta.evalDicts[k.dict.file]?.file ?? k.dict.file}: ${k.dict.key}`,
                ),
                text: `${meta.evalDicts[k.dict.file]?.file ?? k.dict.file}: ${k.dict.key}`,
              },
            ]),
            { name: `context-${c.context_id}-picks`, test: "context-pick-rows", stack: true },
          ),
        )
      : null,
    h("h3", {}, "History"),
    c.history.length === 0
      ? h("p", { class: "ids" }, "(none: the first question of the conversation)")
      : null,
    c.history.map((t, i) =>
      h(
        "div",
        { class: "turn", "data-test": "history-turn" },
        h(
          "div",
          {},
          h("b", {}, `Q${i + 1}: `),
          t.question_id
            ? [h("b", { "data-test": "history-question-id" }, questionLink(t.question_id)), " "]
            : null,
          t.question,
        ),
        h("div", {}, h("b", {}, "A: "), t.answer),
        t.qulac_id ? h("div", { class: "ids", "data-test": "history-qulac" }, `Qulac ${t.qulac_id}`) : null,
      ),
    ),
    h("h3", {}, `Current questions and the facet's answers (${plural(c.records.total, "records")})`),
    pager(
      c.records.total,
      c.records.offset,
      50,
      (o) => viewHash("conversations", { ...here, roffset: String(o) }),
      "records",
    ),
    table(
      ["record", "question", "answer", "ClariQ id decoded", "Qulac id"],
      c.records.items.map((x) => {
        const decoded = x.clariq
          ? `${x.clariq.agrees ? "✓" : "✗"} ${x.clariq.facet_id} · ${[...x.clariq.history, x.clariq.question].join(" → ")}`
          : "";
        const q = [x.qulac_id ?? "", x.qulac_record ? `record ${x.qulac_record}` : ""]
          .filter(Boolean)
          .join(" · ");
        return [
          String(x.record_id ?? ""),
          {
            cell: h(
              "span",
              {},
              x.question_id ? [h("b", {}, questionLink(x.question_id)), " "] : null,
              x.question,
            ),
            text: x.question_id ? `${x.question_id} ${x.question}` : x.question,
          },
          { cell: h("span", { "data-test": "answer" }, x.answer), text: x.answer },
          {
            // The same text, its question ids as links to their pages.
            cell: h(
              "span",
              { class: "ids", "data-test": "decoded" },
              x.clariq
                ? [
                    `${x.clariq.agrees ? "✓" : "✗"} ${x.clariq.facet_id} · `,
                    [...x.clariq.history, x.clariq.question].flatMap((id, i) => [
                      i > 0 ? " → " : "",
                      id && /^Q\d+$/.test(id) ? questionLink(id) : (id ?? ""),
                    ]),
                  ]
                : "",
            ),
            text: decoded,
          },
          { cell: h("span", { class: "ids", "data-test": "record-qulac" }, q), text: q },
        ];
      }),
      { name: `context-${c.context_id}`, test: "records", stack: true },
    ),
  );
}

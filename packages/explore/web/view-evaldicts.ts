// The Eval-dicts view: a dict's entries (paged, searchable), one entry's candidates and values, the runs' picks.
import type { Meta } from "../src/shared/api.js";
import { at } from "../src/shared/checked.js";
import { PAGE, plan, type ViewParams, viewHash } from "../src/shared/views.js";
import { distribution } from "./charts.js";
import { get, holds } from "./client.js";
import { counts, fmt, h, listPane, pager, plural, safely, searchField, table } from "./dom.js";
import { bars, filterSelect, laterSummaries, sortHeaders } from "./list-tools.js";
import { fileSwitch } from "./view-dataset.js";
import { questionLink } from "./view-question.js";

export async function evalDictsView(
  p: ViewParams,
  meta: Meta,
  go: (p: ViewParams) => void,
): Promise<HTMLElement> {
  if (!meta.views.evalDicts) return h("p", {}, "No eval dict was given (--eval-dict FILE).");
  const file = p.file ?? "0";
  const d = meta.evalDicts[Number(file)];
  const r = plan("evaldicts", p);
  const base = { ...(p.file ? { file: p.file } : {}) };
  const left = await safely(async () => {
    const list = await get(r.list);
    // The filters every link of the list keeps (the metric: the filter's and the entry's).
    const filters = {
      ...(p.far ? { far: p.far } : {}),
      ...(p.metric ? { metric: p.metric } : {}),
      ...(p.sort ? { sort: p.sort } : {}),
    };
    const keep = { ...base, ...filters, ...(p.q ? { q: p.q } : {}) };
    return h(
      "div",
      {},
      searchField(p.q ?? "", "entry id, question id or question text", (q) => go({ ...base, ...filters, q })),
      h(
        "div",
        { class: "filters" },
        filterSelect(
          "a pick below MAX by",
          [
            ["", "any"],
            ["10", "≥ 0.1"],
            ["25", "≥ 0.25"],
            ["50", "≥ 0.5"],
          ],
          p.far ?? "",
          (far) =>
            go({
              ...base,
              ...(p.q ? { q: p.q } : {}),
              ...(p.metric ? { metric: p.metric } : {}),
              ...(p.sort ? { sort: p.sort } : {}),
              far,
            }),
          "far",
        ),
        p.far ? h("span", { class: "ids" }, `in ${p.metric || (d?.metrics[0] ?? "")}`) : null,
      ),
      sortHeaders(
        [
          ["id", "id"],
          ["candidates", "candidate questions"],
        ],
        p.sort ?? "id",
        (sort) => go({ ...keep, ...(p.ctx ? { ctx: p.ctx } : {}), sort }),
        "entries",
      ),
      h("div", { class: "ids", "data-test": "entry-hits" }, `${fmt(list.total)} entries`),
      laterSummaries(
        get(r.summary),
        (s) => plural(s.entries, "entries"),
        (s) => [bars("candidate questions per entry", s.candidates, "summary-candidates")],
      ),
      pager(
        list.total,
        list.offset,
        PAGE.contexts,
        (o) => viewHash("evaldicts", { ...keep, offset: String(o) }),
        "entries",
      ),
      listPane(list.items, {
        label: (c) => [
          h("b", {}, c.id),
          c.label ? h("div", { class: "ids" }, c.label) : null,
          c.candidates === undefined ? null : h("div", { class: "ids" }, plural(c.candidates, "candidates")),
        ],
        href: (c) => viewHash("evaldicts", { ...keep, ...(p.offset ? { offset: p.offset } : {}), ctx: c.id }),
        held: (c) => holds(plan("evaldicts", { ...p, ctx: c.id }).ctx),
        selected: (c) => c.id === p.ctx,
        test: "eval-contexts",
      }),
    );
  });
  const ctxReq = r.ctx;
  const right = !ctxReq
    ? h("p", { class: "ids" }, "Pick an entry (j/k, Enter).")
    : await safely(async () => {
        const c = await get(ctxReq);
        const m = p.metric === undefined ? c.metrics[0] : c.metrics.find((x) => x.metric === p.metric);
        // A metric the entry lacks is said, with the ones it has (not silently another one).
        if (!m && p.metric !== undefined)
          return h(
            "p",
            { class: "error", "data-test": "error", role: "alert" },
            `${c.context} has no metric ${JSON.stringify(p.metric)}; its metrics: `,
            c.metrics.map((x, i) => [
              i ? ", " : "",
              h("a", { href: viewHash("evaldicts", { ...p, metric: x.metric }) }, x.metric),
            ]),
          );
        if (!m) return h("p", {}, "This entry has no metrics.");
        const a = c.about;
        const byValue = [...m.questions].sort((x, y) => y.with_answer - x.with_answer);
        // A multi-turn dict's entry is one conversation context: where its picks were made.
        const conv = a?.conversation
          ? viewHash("conversations", {
              file: String(a.conversation.file),
              topic: String(a.topic_id),
              ctx: String(a.conversation.context_id),
            })
          : undefined;
        return h(
          "div",
          { "data-test": "eval-entry" },
          // The shown metric's own candidates (metrics of one entry may hold different questions).
          h(
            "h2",
            { "data-test": "eval-title" },
            `${c.context} · ${plural(m.questions.length, "candidate questions")}`,
          ),
          a
            ? h(
                "p",
                { "data-test": "eval-about" },
                h("a", { href: viewHash("dataset", { topic: String(a.topic_id) }) }, `topic ${a.topic_id}`),
                a.initial_request ? ` ${a.initial_request}` : "",
                a.facet_id ? h("div", { class: "ids" }, `${a.facet_id}: ${a.facet_desc ?? ""}`) : null,
                conv
                  ? h("a", { href: conv, "data-test": "to-conversation" }, "the conversation of this context")
                  : null,
              )
            : null,
          h(
            "label",
            {},
            "metric: ",
            h(
              "select",
              {
                "data-test": "metric",
                onchange: (e: Event) => go({ ...p, metric: (e.target as HTMLSelectElement).value }),
              },
              c.metrics.map((x) => h("option", { selected: x.metric === m.metric }, x.metric)),
            ),
          ),
          counts([
            ["MAX with_answer", fmt(m.max), "eval-max"],
            ["MAX no_answer", fmt(m.max_no_answer), "eval-max-no"],
            ["MIN with_answer", fmt(m.min), "eval-min"],
            ["MIN no_answer", fmt(m.min_no_answer), "eval-min-no"],
            ["best question", m.best ? questionLink(m.best) : "–", "eval-best"],
          ]),
          distribution(
            m.questions.map((q) => q.with_answer),
            m.picks.flatMap((k) => (k.value === undefined ? [] : [{ x: k.value, label: k.run }])),
            { x: `${m.metric} with the answer, per candidate question` },
          ),
          m.picks.length
            ? table(
                ["run", "its pick", "in the dict", "value scored", "rank among candidates"],
                m.picks.map((k) => [
                  {
                    // Only single-turn runs (by topic) are scored in the Runs view.
                    cell:
                      meta.views.runs && !conv
                        ? h(
                            "a",
                            { href: viewHash("runs", { topic: a?.facet_id ?? String(a?.topic_id ?? "") }) },
                            k.run,
                          )
                        : h("span", {}, k.run),
                    text: k.run,
                  },
                  {
                    cell: h(
                      "span",
                      {},
                      h("b", {}, k.question ? questionLink(k.question) : "(not in the bank)"),
                      k.question_text ? ` ${k.question_text}` : "",
                      conv && a?.conversation
                        ? h(
                            "div",
                            {},
                            h(
                              "a",
                              { href: conv, "data-test": "pick-conversation" },
                              `made in context ${a.conversation.context_id}: its conversation`,
                            ),
                          )
                        : null,
                    ),
                    id: k.question ?? "",
                    text: k.question_text ?? "",
                  },
                  k.in_dict ? "yes" : "no: MIN counts",
                  k.value ?? "–",
                  k.rank ?? "–",
                ]),
                { name: `${c.context}-${m.metric}-picks`, test: "picks", num: [3, 4], stack: true },
              )
            : null,
          table(
            ["question", "no_answer", "with_answer"],
            byValue.map((q) => [
              {
                cell: h("span", {}, h("b", {}, questionLink(q.question)), q.text ? ` ${q.text}` : ""),
                id: q.question,
                text: q.text ?? "",
              },
              q.no_answer,
              q.with_answer,
            ]),
            {
              stack: true,
              name: `${c.context}-${m.metric}`,
              test: "eval-questions",
              num: [1, 2],
              rowAttrs: (i) => (at(byValue, i).question === m.best ? { class: "sig" } : {}),
            },
          ),
        );
      });
  return h(
    "div",
    {},
    fileSwitch(
      "evaldicts",
      meta.evalDicts.map((x) => x.file),
      file,
    ),
    d ? h("div", { class: "ids" }, `metrics ${d.metrics.join(", ")}`) : null,
    d
      ? counts([
          ["entries", d.contexts, "eval-contexts-count"],
          ["metrics", d.metrics.length],
        ])
      : null,
    h("div", { class: "cols" }, left, right),
  );
}

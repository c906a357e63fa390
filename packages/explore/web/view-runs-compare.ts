// The Runs view's right pane, diffir-style: one facet's (or topic's) values in both runs, the two
// rankings side by side to a chosen depth with each item's answer and eval value, what moved, duplicates.
import type { Answers } from "../src/shared/api.js";
import { at } from "../src/shared/checked.js";
import { RUN_DEPTH, type ViewParams, viewHash } from "../src/shared/views.js";
import { h, table } from "./dom.js";
import { questionLink } from "./view-question.js";

type Topic = Answers["runs/topic"];
type Entry = Topic["runs"][number]["entries"][number];

/**
 * Labels every cell with its column's name, so that the table stacks (one block per row, each
 * value under its name) on a narrow screen instead of scrolling sideways out of sight.
 */
export function stacking(wrap: HTMLElement, head: string[]): HTMLElement {
  wrap.classList.add("runs-stack");
  for (const tr of wrap.querySelectorAll("tbody tr"))
    tr.querySelectorAll("td").forEach((td, k) => {
      td.dataset.label = head[k] ?? "";
    });
  return wrap;
}

/** A question id as a link to its page; other items (TREC documents) as text. */
const itemLink = (id: string): HTMLElement => (/^Q\d+$/.test(id) ? questionLink(id) : h("span", {}, id));

/** What moved, as a word: against the baseline (compared runs) or into the compared run (the baseline). */
function moved(e: Entry, baseline: boolean, depth: number): string {
  const o = e.other_rank ?? null;
  if (baseline) return o === null ? "dropped" : o > depth ? `out → ${o}` : o === e.rank ? "=" : `→ ${o}`;
  if (o === null) return "new";
  const d = o - e.rank;
  const arrow = d > 0 ? `▲${d}` : d < 0 ? `▼${-d}` : "=";
  return o > depth ? `in ${arrow} (from ${o})` : arrow;
}

/** The depth control: a number field whose Enter (or the button) puts `depth=` into the URL. */
function depthControl(p: ViewParams, depth: number): HTMLElement {
  const input = h("input", {
    type: "number",
    min: 1,
    max: 1000,
    value: depth,
    "aria-label": "ranking depth",
    "data-test": "depth",
  }) as HTMLInputElement;
  return h(
    "form",
    {
      class: "depth",
      onsubmit: ((ev: Event) => {
        ev.preventDefault();
        const n = Number(input.value);
        if (!Number.isInteger(n) || n < 1 || n > 1000) {
          input.setCustomValidity("a depth from 1 to 1000");
          input.reportValidity();
          return;
        }
        location.hash = viewHash("runs", { ...p, depth: n === RUN_DEPTH ? "" : String(n) });
      }) as EventListener,
    },
    h("label", {}, "depth ", input),
    " ",
    h("button", { type: "submit" }, "show"),
  );
}

/** Both runs' values of every measure for the id shown, the selected measure's row marked. */
function valuesTable(t: Topic, names: string[], b: number, measure: string): HTMLElement {
  const head = ["measure", ...names, `Δ ${names[b]} − ${names[0]}`];
  const rows = t.values.map((v) => {
    const a = v.values[0];
    const c = v.values[b];
    return [
      v.measure,
      // Numbers: drawn to 4 places, in the CSV in full.
      ...v.values.map((x) => x ?? "–"),
      a === null || a === undefined || c === null || c === undefined ? "–" : c - a,
    ];
  });
  return stacking(
    table(head, rows, {
      name: `values-${t.id}`,
      test: "facet-values",
      num: names.map((_, i) => i + 1).concat(names.length + 1),
      rowAttrs: (i) => {
        const row = at(t.values, i);
        return { "data-measure": row.measure, ...(row.measure === measure ? { class: "sel-row" } : {}) };
      },
    }),
    head,
  );
}

/** One run's ranking to the depth: rank, item (linked), answer, eval value, score, what moved, duplicates. */
function rankingTable(t: Topic, r: number, depth: number): HTMLElement {
  const run = at(t.runs, r);
  const baseline = run.role === "baseline";
  const head = [
    "rank",
    "item",
    "answer",
    t.eval_dict ? `eval ${t.eval_dict.metric}` : "eval",
    "score",
    "moved",
  ];
  const wrap = table(
    head,
    run.entries.map((e) => [
      e.rank,
      {
        cell: h(
          "span",
          {},
          itemLink(e.doc),
          e.same_item_at
            ? h(
                "span",
                { class: "dup", "data-test": "dup", title: "this run ranks this item more than once" },
                ` duplicate (also ${e.same_item_at.join(", ")})`,
              )
            : null,
          e.text && e.text !== e.doc ? h("div", { class: "ids" }, e.text) : null,
        ),
        // The CSV's item id and text in columns of their own.
        id: e.doc,
        text: e.text && e.text !== e.doc ? e.text : "",
      },
      e.answer ?? "",
      e.eval ?? "–",
      e.score,
      moved(e, baseline, depth),
    ]),
    {
      name: `${run.name}-${t.id}-top${depth}`,
      num: [0, 3, 4],
      rowAttrs: (i) => {
        const e = at(run.entries, i);
        return {
          class: `${e.rel === null ? "rel-none" : e.rel > 0 ? "rel-pos" : "rel-zero"}${e.only_here ? " only" : ""}${e.same_item_at ? " dup-row" : ""}`,
          "data-item": e.doc,
          "data-rank": e.rank,
        };
      },
    },
  );
  return h(
    "div",
    { "data-test": "ranking", "data-run": run.name },
    h("h4", {}, `${run.role}: ${run.name}`),
    h(
      "p",
      { class: "ids" },
      `${Math.min(depth, run.length)} of ${run.length} ranked${run.entries.some((e) => e.same_item_at) ? " · has duplicates" : ""}`,
    ),
    run.entries.length === 0 ? h("p", { class: "ids" }, "(no ranking for this topic)") : null,
    stacking(wrap, head),
  );
}

/** The pane for `t`: the header, the values, the depth control and the rankings side by side. */
export function comparePane(
  t: Topic,
  p: ViewParams,
  names: string[],
  b: number,
  measure: string,
): HTMLElement {
  const depth = t.depth;
  // The baseline beside the run it is compared with (other runs of a set of three or more aside).
  const shown = [0, b].filter((r) => t.runs[r] !== undefined);
  return h(
    "div",
    { "data-test": "topic-rankings" },
    h(
      "h3",
      {},
      t.context
        ? `Context ${t.topic} · each run's pick`
        : `${t.facet ? `${t.facet.facet_id} of topic ${t.topic}` : `Topic ${t.topic}`} · ${t.judged} judged`,
    ),
    t.context
      ? h(
          "p",
          { class: "ids" },
          h("a", { href: viewHash("evaldicts", { ctx: t.topic }) }, "this context in the eval dict"),
          " · ",
          h("a", { href: viewHash("conversations", { ctx: t.topic }) }, "its conversation"),
        )
      : null,
    t.initial_request ? h("p", {}, t.initial_request) : null,
    t.facet?.facet_desc ? h("p", { class: "ids" }, `facet: ${t.facet.facet_desc}`) : null,
    valuesTable(t, names, b, measure),
    depthControl(p, depth),
    h(
      "div",
      { class: "side-by-side", "data-test": "rankings" },
      shown.map((r) => rankingTable(t, r, depth)),
    ),
    h(
      "p",
      { class: "ids" },
      `green: judged relevant · red: judged not relevant · grey: unjudged · dashed: not in the other run's top ${depth} · ▲▼ rank move against the baseline (whole ranking) · in/out: entered or left the top ${depth} · eval: ${t.eval_dict ? `${t.eval_dict.name}'s ${t.eval_dict.metric} with an answer` : "no single-turn eval dict has this facet"}`,
    ),
  );
}

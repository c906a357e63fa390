// The Runs view: convkit-compare's table, per-topic differences (chart and list), rankings side by side.
import type { Meta } from "../src/api.js";
import { plan, type ViewParams, viewHash } from "../src/views.js";
import { deltaChart } from "./charts.js";
import { get, holds } from "./client.js";
import { fmt, h, listPane, pfmt, safely, table } from "./dom.js";
import { questionLink } from "./view-question.js";

export async function runsView(p: ViewParams, meta: Meta): Promise<HTMLElement> {
  if (!meta.views.runs || !meta.runs)
    return h("p", {}, "Give two or more runs (--run) with --qrels, or ClariQ runs with --data.");
  const names = meta.runs.names;
  const clariq = meta.runs.scoring.startsWith("clariq");
  const r = plan("runs", p);
  const top = await safely(async () => {
    const { comparison: c, scoring } = await get(r.summary);
    const baseline = c.baseline ?? names[0]!;
    // convkit-compare's pair is (a, b) with Δ = mean a − mean b; shown as compared against baseline.
    const rows = c.pairs.map((x) => {
      const flip = x.a === baseline;
      return {
        ...x,
        compared: flip ? x.b : x.a,
        mean_base: flip ? x.mean_a : x.mean_b,
        mean_cmp: flip ? x.mean_b : x.mean_a,
        diff: flip ? -x.mean_diff : x.mean_diff,
        wtl: flip ? `${x.losses}/${x.ties}/${x.wins}` : `${x.wins}/${x.ties}/${x.losses}`,
      };
    });
    const head = [
      "measure",
      "compared",
      "baseline",
      "n",
      "mean compared",
      "mean baseline",
      "Δ",
      "p",
      "p adj.",
      "",
      "W/T/L",
    ];
    return h(
      "div",
      {},
      h(
        "p",
        { class: "ids" },
        `${scoring} · ${c.test} test, ${c.correction} correction, α = ${c.alpha}, topics a run lacks: ${c.missing} · baseline: ${baseline} · Δ and W/T/L: compared against baseline`,
      ),
      table(
        head,
        rows.map((x) => [
          {
            cell: h(
              "a",
              { href: viewHash("runs", { measure: x.measure, b: String(names.indexOf(x.compared)) }) },
              x.measure,
            ),
            text: x.measure,
          },
          x.compared,
          baseline,
          x.n,
          fmt(x.mean_cmp),
          fmt(x.mean_base),
          fmt(x.diff),
          { cell: h("span", { "data-test": "p" }, pfmt(x.p)), text: pfmt(x.p) },
          pfmt(x.p_adjusted),
          x.reject ? "*" : "",
          x.wtl,
        ]),
        {
          name: "significance",
          test: "significance",
          num: [3, 4, 5, 6, 7, 8],
          rowAttrs: (i) => ({ "data-measure": rows[i]!.measure, "data-b": rows[i]!.compared }),
        },
      ),
    );
  });
  const keep = { ...(p.measure ? { measure: p.measure } : {}), ...(p.b ? { b: p.b } : {}) };
  let list: HTMLElement;
  let chart: HTMLElement;
  try {
    const d = await get(r.list);
    const href = (topic: string) => viewHash("runs", { ...keep, topic });
    chart = h(
      "div",
      {},
      h(
        "h3",
        { "data-test": "delta-title" },
        `Per-topic differences in ${d.measure}: ${d.b} (compared) − ${d.a} (baseline)`,
      ),
      h(
        "p",
        { class: "ids" },
        "Each bar is a topic (hover: its values; click: its rankings). Sorted by difference, largest first.",
      ),
      deltaChart(d.rows, {
        y: `Δ ${d.measure}`,
        a: d.a,
        b: d.b,
        href,
        ...(p.topic ? { selected: p.topic } : {}),
      }),
    );
    list = listPane(d.rows, {
      label: (x) => [
        h("b", {}, x.topic),
        " ",
        h(
          "span",
          { class: x.delta > 0 ? "up" : x.delta < 0 ? "down" : "" },
          `${x.delta > 0 ? "+" : ""}${fmt(x.delta)}`,
        ),
        x.label ? h("div", { class: "ids" }, x.label) : null,
      ],
      href: (x) => href(x.topic),
      held: (x) => holds(plan("runs", { ...p, topic: x.topic }).topic!),
      selected: (x) => x.topic === p.topic,
      test: "delta-topics",
    });
  } catch (e) {
    chart = await safely(() => Promise.reject(e));
    list = h("div", {});
  }
  const right = !r.topic
    ? h("p", { class: "ids" }, "Pick a topic in the chart or the list.")
    : await safely(async () => {
        const t = await get(r.topic!);
        return h(
          "div",
          { "data-test": "topic-rankings" },
          h(
            "h3",
            {},
            `${t.facet ? `${t.facet.facet_id} of topic ${t.topic}` : `Topic ${t.topic}`} · ${t.judged} judged`,
          ),
          t.initial_request ? h("p", {}, t.initial_request) : null,
          t.facet?.facet_desc ? h("p", { class: "ids" }, `facet: ${t.facet.facet_desc}`) : null,
          h(
            "div",
            { class: "side-by-side", "data-test": "rankings" },
            t.runs.map((run) =>
              h(
                "div",
                { "data-test": "ranking" },
                h("h4", {}, `${run.role}: ${run.name}`),
                run.entries.length === 0 ? h("p", { class: "ids" }, "(no ranking for this topic)") : null,
                table(
                  ["rank", "item", "score", "move"],
                  run.entries.map((e) => [
                    e.rank,
                    {
                      cell: h(
                        "span",
                        {},
                        // ClariQ runs rank bank questions: their ids open the question's page.
                        clariq && /^Q\d+$/.test(e.doc) ? questionLink(e.doc) : e.doc,
                        e.text && e.text !== e.doc ? h("div", { class: "ids" }, e.text) : null,
                      ),
                      text: e.text ? `${e.doc} ${e.text}` : e.doc,
                    },
                    fmt(e.score, 3),
                    e.move === null
                      ? e.only_here
                        ? "only here"
                        : ""
                      : e.move > 0
                        ? `▲${e.move}`
                        : e.move < 0
                          ? `▼${-e.move}`
                          : "=",
                  ]),
                  {
                    name: `${run.name}-${t.topic}`,
                    num: [0, 2],
                    rowAttrs: (i) => {
                      const e = run.entries[i]!;
                      return {
                        class: `${e.rel === null ? "rel-none" : e.rel > 0 ? "rel-pos" : "rel-zero"}${e.only_here ? " only" : ""}`,
                      };
                    },
                  },
                ),
              ),
            ),
          ),
          h(
            "p",
            { class: "ids" },
            "green: judged relevant · red: judged not relevant · grey: unjudged · dashed: only in this run · ▲▼ rank move against the baseline",
          ),
        );
      });
  return h("div", {}, top, chart, h("div", { class: "cols" }, list, right));
}

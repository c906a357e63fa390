// The Runs view: convkit-compare's table, per-topic differences (chart and list), rankings side by side.
import type { Meta } from "../src/shared/api.js";
import { at } from "../src/shared/checked.js";
import { PAGE, plan, type ViewParams, viewHash } from "../src/shared/views.js";
import { deltaChart } from "./charts.js";
import { get, holds } from "./client.js";
import { fmt, h, listPane, pager, pfmt, safely, table } from "./dom.js";
import { comparePane, stacking } from "./view-runs-compare.js";

/** The list's orders: by |Δ| (how much the runs differ, the default), by Δ, by id. */
const SORTS = [
  ["abs", "|Δ|, largest first"],
  ["delta", "Δ, largest first"],
  ["id", "id"],
] as const;

/**
 * Runs `then` once `el` is in the page: a shared URL's item is brought into view only then
 * (scrolling a list not in the page yet does nothing). Given up when the URL changes first.
 */
function whenInPage(el: HTMLElement, then: () => void): void {
  const seen = new MutationObserver(() => {
    if (!el.isConnected) return;
    stop();
    then();
  });
  const stop = () => {
    seen.disconnect();
    window.removeEventListener("hashchange", stop);
  };
  seen.observe(document.body, { childList: true, subtree: true });
  window.addEventListener("hashchange", stop);
}

export async function runsView(p: ViewParams, meta: Meta): Promise<HTMLElement> {
  if (!meta.views.runs || !meta.runs)
    return h("p", {}, "Give two or more runs (--run) with --qrels, or ClariQ runs with --data.");
  const names = meta.runs.names;
  const r = plan("runs", p);
  const top = await safely(async () => {
    const { comparison: c, scoring } = await get(r.summary);
    const baseline = c.baseline ?? at(names, 0);
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
      `significant (α ${c.alpha})`,
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
      stacking(
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
            rowAttrs: (i) => {
              const row = at(rows, i);
              return { "data-measure": row.measure, "data-b": row.compared };
            },
          },
        ),
        head,
      ),
    );
  });
  const keep = {
    ...(p.measure ? { measure: p.measure } : {}),
    ...(p.b ? { b: p.b } : {}),
    ...(p.sort ? { sort: p.sort } : {}),
    ...(p.depth ? { depth: p.depth } : {}),
  };
  const pagerLine = (total: number, offset: number) =>
    pager(total, offset, PAGE.contexts, (o) => viewHash("runs", { ...keep, offset: String(o) }), "items");
  const sort = p.sort ?? "abs";
  let list: HTMLElement;
  let chart: HTMLElement;
  try {
    const d = await get(r.list);
    // An item's link keeps the page it is on, so a click never moves the list.
    const here: ViewParams = d.offset > 0 ? { offset: String(d.offset) } : {};
    const href = (topic: string) => viewHash("runs", { ...keep, ...here, topic });
    // The server pages the list in its order (the whole list sorted there); the chart draws this
    // page's bars by Δ, as it drew the whole list when it fit in one page.
    const paged = d.total > d.rows.length;
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
        `Each bar is a topic${paged ? " of this page of the list" : ""} (hover: its values; click: its rankings). Sorted by difference, largest first.`,
      ),
      deltaChart(
        paged
          ? [...d.rows].sort(
              (x, y) => y.delta - x.delta || (x.topic < y.topic ? -1 : x.topic > y.topic ? 1 : 0),
            )
          : d.rows,
        {
          y: `Δ ${d.measure}`,
          a: d.a,
          b: d.b,
          href,
          ...(p.topic ? { selected: p.topic } : {}),
        },
      ),
    );
    const pane = listPane(d.rows, {
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
      held: (x) => holds(plan("runs", { ...p, topic: x.topic }).topic),
      selected: (x) => x.topic === p.topic,
      test: "delta-topics",
    });
    list = h(
      "div",
      {},
      h(
        "label",
        { class: "ids" },
        "order ",
        h(
          "select",
          {
            "data-test": "delta-sort",
            "aria-label": "order of the list",
            onchange: (e: Event) => {
              location.hash = viewHash("runs", {
                ...keep,
                ...(p.topic ? { topic: p.topic } : {}),
                sort: (e.target as HTMLSelectElement).value,
              });
            },
          },
          SORTS.map(([v, label]) =>
            h("option", { value: v, ...(v === sort ? { selected: true } : {}) }, label),
          ),
        ),
      ),
      pagerLine(d.total, d.offset),
      pane,
    );
  } catch (e) {
    chart = await safely(() => Promise.reject(e));
    list = h("div", {});
  }
  const b = Number(p.b ?? "1") || 1;
  // The URL's own parameters checked with a clear word (never silently mended to a default).
  const bad =
    p.depth !== undefined && !(/^\d{1,4}$/.test(p.depth) && Number(p.depth) >= 1 && Number(p.depth) <= 1000)
      ? `depth must be a whole number from 1 to 1000, not ${JSON.stringify(p.depth)}`
      : !SORTS.some(([v]) => v === sort)
        ? `sort must be one of ${SORTS.map(([v]) => v).join(", ")}, not ${JSON.stringify(sort)}`
        : undefined;
  const topicReq = r.topic;
  const right = bad
    ? h("p", { class: "error", "data-test": "error", role: "alert" }, bad)
    : !topicReq
      ? h("p", { class: "ids" }, "Pick a topic in the chart or the list.")
      : await safely(async () => comparePane(await get(topicReq), p, names, b, p.measure ?? ""));
  if (p.topic) whenInPage(list, () => list.querySelector(".item.sel")?.scrollIntoView({ block: "nearest" }));
  return h("div", {}, top, chart, h("div", { class: "cols" }, list, right));
}

// Filters, sortable column headers and column summaries of the lists (issue #42): all their state lives in the URL.
import type { LengthSummary } from "../src/shared/list-summary.js";
import { fmt, h } from "./dom.js";

/** A choice filter (`split`, `level`): changing it puts the value into the URL (empty: all). */
export function filterSelect(
  label: string,
  values: readonly (readonly [string, string])[],
  current: string,
  go: (v: string) => void,
  test: string,
): HTMLElement {
  return h(
    "label",
    { class: "filter" },
    `${label} `,
    h(
      "select",
      { "data-test": test, onchange: (e: Event) => go((e.target as HTMLSelectElement).value) },
      values.map(([v, text]) => h("option", { value: v, selected: v === current }, text)),
    ),
  );
}

/**
 * Column headers that sort a list (the server sorts the whole list): a button each, so a click,
 * Enter or Space sorts by it, again reverses; `aria-sort` says which and how.
 */
export function sortHeaders(
  columns: readonly (readonly [string, string])[],
  sort: string,
  go: (sort: string) => void,
  what: string,
): HTMLElement {
  const desc = sort.startsWith("-");
  const key = desc ? sort.slice(1) : sort;
  return h(
    "div",
    { class: "sort-headers", role: "row", "aria-label": `sort ${what} by`, "data-test": "sort" },
    columns.map(([k, label]) => {
      const state = k === key ? (desc ? "descending" : "ascending") : "none";
      return h(
        "span",
        { role: "columnheader", "aria-sort": state, "data-sort": k },
        h(
          "button",
          { type: "button", onclick: () => go(state === "ascending" ? `-${k}` : k) },
          label,
          state === "none" ? "" : state === "ascending" ? " ▲" : " ▼",
        ),
      );
    }),
  );
}

/** A histogram as small bars with counts (e.g. ClariQ's clarification need 1–4). */
export function bars(title: string, counts: Record<string, number>, test: string): HTMLElement {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  const most = Math.max(1, ...Object.values(counts));
  return h(
    "div",
    { class: "summary", "data-test": test },
    h("div", { class: "ids" }, title),
    Object.entries(counts).map(([k, n]) =>
      h(
        "div",
        { class: "bar-row", "data-key": k, "data-count": n },
        h("span", { class: "bar-key" }, k),
        h("span", { class: "bar", style: `width:${(100 * n) / most}%` }),
        h("span", { class: "ids" }, `${fmt(n)} (${total ? ((100 * n) / total).toFixed(1) : "0"}%)`),
      ),
    ),
  );
}

/** A text column's lengths: min, median, max characters. */
export function lengthLine(title: string, s: LengthSummary, test: string): HTMLElement {
  return h(
    "div",
    {
      class: "summary ids",
      "data-test": test,
      "data-min": s.min,
      "data-median": s.median,
      "data-max": s.max,
    },
    `${title}: ${fmt(s.min)} / ${fmt(s.median, 1)} / ${fmt(s.max)} characters (min / median / max of ${fmt(s.count)})`,
  );
}

/**
 * A list's column summaries over its whole filtered list, asked apart from the list and filled in
 * when they come (the list is drawn without waiting for them); an error is said in their place.
 */
export function laterSummaries<S>(
  summary: Promise<S>,
  title: (s: S) => string,
  draw: (s: S) => HTMLElement[],
): HTMLElement {
  const head = h("summary", {}, "column summaries (counting…)");
  const el = h("details", { class: "summaries", "data-test": "summaries" }, head);
  summary.then(
    (s) => {
      head.textContent = `column summaries (${title(s)})`;
      el.append(...draw(s));
    },
    (e: unknown) => {
      head.textContent = `column summaries: ${e instanceof Error ? e.message : String(e)}`;
    },
  );
  return el;
}

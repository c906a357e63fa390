// convkit explore's single-page app: six views over the typed /api routes, a URL per state, errors kept to their pane.
import type { Meta } from "../src/shared/api.js";
import { at } from "../src/shared/checked.js";
import { parseHash, urlProblem, type View, type ViewParams, viewHash } from "../src/shared/views.js";
import { get, isStatic } from "./client.js";
import { activeList, clearActiveList, elementById, errorBox, h } from "./dom.js";
import { conversationsView, datasetView } from "./view-dataset.js";
import { evalDictsView } from "./view-evaldicts.js";
import { passagesView } from "./view-passages.js";
import { questionParams, questionView } from "./view-question.js";
import { responsesView } from "./view-responses.js";
import { runsView } from "./view-runs.js";

const VIEWS: [View, string, keyof Meta["views"]][] = [
  ["dataset", "Dataset", "dataset"],
  ["conversations", "Conversations", "conversations"],
  ["evaldicts", "Eval dicts", "evalDicts"],
  ["runs", "Runs", "runs"],
  ["passages", "Passages", "passages"],
  ["responses", "Responses", "responses"],
];

let meta: Meta;

function go(view: View, params: ViewParams = {}): void {
  const next = viewHash(view, params);
  if (location.hash === next) void render();
  else location.hash = next;
}

const RENDER: Record<View, (p: ViewParams) => Promise<HTMLElement>> = {
  dataset: (p) => datasetView(p, meta, (q) => go("dataset", q)),
  conversations: (p) => conversationsView(p, meta, (q) => go("conversations", q)),
  evaldicts: (p) => evalDictsView(p, meta, (q) => go("evaldicts", q)),
  runs: (p) => runsView(p, meta),
  passages: (p) => passagesView(p, meta, (q) => go("passages", q)),
  responses: (p) => responsesView(p, meta, (q) => go("responses", q)),
};

let rendering = 0;
async function render(): Promise<void> {
  const mine = ++rendering;
  const { view, params } = parseHash(location.hash);
  // A question's page (#/question?id=…) is reached by its links, not the tabs: no tab is current.
  const question = questionParams(location.hash);
  window.__CONVKIT_READY__ = undefined;
  // The search field keeps the focus across the redraw its own Enter causes (until Escape).
  const searching =
    document.activeElement instanceof HTMLInputElement && document.activeElement.dataset.test === "search";
  elementById("nav").replaceChildren(
    ...VIEWS.map(([k, label, has], i) =>
      h(
        "a",
        {
          href: `#/${k}`,
          class: `${k === view && !question ? "active" : ""}${meta.views[has] ? "" : " off"}`,
          title: `key ${i + 1}`,
          ...(k === view && !question ? { "aria-current": "page" } : {}),
        },
        label,
      ),
    ),
  );
  const main = elementById("main");
  clearActiveList();
  let el: HTMLElement;
  // A bad value in the URL is said as the API says it (not read as a default or as -1).
  const bad = urlProblem(view, params);
  try {
    el = question
      ? await questionView(question)
      : bad
        ? h(
            "p",
            { class: "error", "data-test": "error", role: "alert" },
            `${bad.error} (URL parameter ${bad.parameter}) `,
            h("a", { href: viewHash(view, { ...params, [bad.parameter]: "" }) }, "open without it"),
          )
        : await RENDER[view](params);
  } catch (e) {
    el = errorBox(e);
  }
  if (mine !== rendering) return;
  const kept = listScrolls(main);
  main.replaceChildren(el);
  keepListScrolls(main, kept);
  // The selected context in the Conversations tree, scrolled into its (scrolling) box.
  main.querySelector(".tree li.sel > a")?.scrollIntoView({ block: "nearest" });
  if (searching) {
    const s = main.querySelector<HTMLInputElement>("[data-test=search]");
    s?.focus();
    s?.setSelectionRange(s.value.length, s.value.length);
  }
  window.__CONVKIT_READY__ = location.hash || "#/dataset";
}

/** A list's identity across a redraw: the same items (a click inside it) keep its scroll. */
const listKey = (l: HTMLElement) =>
  `${l.dataset.test}\u0000${l.childElementCount}\u0000${l.firstElementChild?.getAttribute("href") ?? ""}\u0000${l.lastElementChild?.getAttribute("href") ?? ""}`;

function listScrolls(main: HTMLElement): Map<string, number> {
  return new Map([...main.querySelectorAll<HTMLElement>(".list")].map((l) => [listKey(l), l.scrollTop]));
}

/**
 * Lists that were drawn before keep their scroll (a click deep in a list left it at the top), and
 * each list's marked item is brought into view (a shared URL's item, on whatever page it is).
 */
function keepListScrolls(main: HTMLElement, kept: Map<string, number>): void {
  for (const l of main.querySelectorAll<HTMLElement>(".list")) {
    const top = kept.get(listKey(l));
    if (top !== undefined) l.scrollTop = top;
    const sel = l.querySelector<HTMLElement>("a.sel");
    if (!sel) continue;
    const a = sel.getBoundingClientRect();
    const b = l.getBoundingClientRect();
    // Within the list's own box only (the page itself does not jump).
    if (a.top < b.top || a.bottom > b.bottom) l.scrollTop += a.top - b.top - (b.height - a.height) / 2;
  }
}

document.addEventListener("keydown", (e) => {
  const t = e.target as HTMLElement;
  if (
    t.tagName === "INPUT" ||
    t.tagName === "SELECT" ||
    t.tagName === "TEXTAREA" ||
    e.ctrlKey ||
    e.metaKey ||
    e.altKey
  )
    return;
  const n = Number(e.key);
  if (n >= 1 && n <= VIEWS.length) {
    go(at(VIEWS, n - 1)[0]);
    return;
  }
  if (e.key === "/") {
    e.preventDefault();
    document.querySelector<HTMLInputElement>("[data-test=search]")?.focus();
    return;
  }
  const l = activeList;
  if (!l || l.links.length === 0) return;
  const step = e.key === "j" || e.key === "ArrowDown" ? 1 : e.key === "k" || e.key === "ArrowUp" ? -1 : 0;
  if (step !== 0) {
    e.preventDefault();
    const i = Math.max(0, Math.min(l.links.length - 1, l.selected + step));
    l.selected = i;
    for (const [k, a] of l.links.entries()) {
      a.classList.toggle("sel", k === i);
      a.tabIndex = k === i ? 0 : -1;
    }
    // The focus, when in the list, goes along: Enter then opens what is marked.
    if (l.links.includes(t as HTMLAnchorElement)) l.links[i]?.focus();
    l.links[i]?.scrollIntoView({ block: "nearest" });
  } else if (e.key === "Enter" && l.selected >= 0 && !["A", "SUMMARY", "BUTTON"].includes(t.tagName)) {
    e.preventDefault();
    at(l.links, l.selected).click();
  }
});

window.addEventListener("hashchange", () => void render());
(async () => {
  try {
    meta = await get({ path: "meta", params: {} });
  } catch (e) {
    elementById("main").replaceChildren(errorBox(e));
    window.__CONVKIT_READY__ = "error";
    return;
  }
  if (isStatic()) document.body.classList.add("static");
  await render();
})();

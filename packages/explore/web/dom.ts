// Small DOM helpers of the page: elements, numbers, counts, lists, pagers, search, CSV, error boxes.
import { ApiFailure, NeedsServer } from "./client.js";

type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** The page's element of this id (index.html has it: a missing one is a broken page, said as such). */
export function elementById(id: string): HTMLElement {
  const x = document.getElementById(id);
  if (!x) throw new Error(`the page has no #${id}`);
  return x;
}

export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  const add = (c: Child) => {
    if (c === undefined || c === null || c === false) return;
    if (Array.isArray(c)) c.forEach(add);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  };
  children.forEach(add);
  return el;
}

export const fmt = (n: number | null | undefined, digits = 4): string =>
  n === null || n === undefined || Number.isNaN(n)
    ? "–"
    : Number.isInteger(n)
      ? n.toLocaleString("en-US")
      : n.toFixed(digits);
/**
 * `n things` in the number's form: `plural(1, "candidate questions")` is "1 candidate question"
 * (the last word's singular drops a final `s`, or `ies` → `y`: every noun the page counts).
 */
export function plural(n: number, things: string): string {
  if (n !== 1) return `${fmt(n)} ${things}`;
  const one = things.endsWith("ies") ? `${things.slice(0, -3)}y` : things.replace(/s$/, "");
  return `${fmt(n)} ${one}`;
}

/** A number in a CSV: every digit JavaScript needs to read it back (shortest round-trip), never rounded. */
const csvNumber = (n: number): string => (Number.isFinite(n) ? String(n) : "");

/** A p-value; none (NaN, which JSON carries as null: a test on one topic) is a dash. */
export const pfmt = (p: number | null): string =>
  p === null || Number.isNaN(p) ? "–" : p < 1e-4 ? p.toExponential(2) : p.toFixed(4);

/** Headline counts; a value may be an element (a link). */
export function counts(pairs: [string, string | number | HTMLElement, string?][]): HTMLElement {
  return h(
    "div",
    { class: "counts" },
    pairs.map(([k, v, test]) =>
      h("div", { class: "count", "data-test": test }, h("b", {}, typeof v === "number" ? fmt(v) : v), k),
    ),
  );
}

/** An error as one readable line in its pane (never a raw exception, never the whole view). */
export function errorBox(e: unknown): HTMLElement {
  if (e instanceof NeedsServer) return h("p", { class: "live-only", "data-test": "needs-server" }, e.message);
  const msg =
    e instanceof ApiFailure
      ? `${e.message}${e.status >= 400 ? ` (${e.status}${e.parameter ? `, parameter ${e.parameter}` : ""})` : ""}`
      : `Something went wrong drawing this part: ${e instanceof Error ? e.message : String(e)}`;
  return h("p", { class: "error", "data-test": "error", role: "alert" }, msg);
}

/** Draws `build`'s element, or the error box in its place. */
export async function safely(build: () => Promise<HTMLElement> | HTMLElement): Promise<HTMLElement> {
  try {
    return await build();
  } catch (e) {
    return errorBox(e);
  }
}

/** The list the keyboard moves in (j/k, Enter): its links and the selected index. */
export let activeList: { links: HTMLAnchorElement[]; selected: number } | undefined;
export const clearActiveList = (): void => {
  activeList = undefined;
};

/** A list of links (each opens its item by URL: keyboard, middle-click and static pages work). */
export function listPane<T>(
  items: T[],
  o: {
    label: (t: T) => Child;
    href: (t: T) => string;
    selected: (t: T) => boolean;
    /** False: the item needs the live server (a static page does not hold it). */
    held?: (t: T) => boolean;
    test: string;
  },
): HTMLElement {
  const el = h("div", { class: "list", "data-test": o.test, role: "list" });
  const links: HTMLAnchorElement[] = [];
  let selected = -1;
  items.forEach((t, i) => {
    const sel = o.selected(t);
    if (sel) selected = i;
    const held = o.held?.(t) ?? true;
    const a = h(
      "a",
      {
        class: `item${sel ? " sel" : ""}${held ? "" : " live-only"}`,
        href: o.href(t),
        role: "listitem",
        ...(sel ? { "aria-current": "true" } : {}),
        ...(held ? {} : { title: "needs the live server (not in this static page)" }),
      },
      o.label(t),
      held ? null : h("span", { class: "badge" }, "live server"),
    ) as HTMLAnchorElement;
    el.append(a);
    links.push(a);
  });
  // One Tab stop for the whole list (the selected item, else the first): Tab goes on to the item's
  // page instead of through every item; j/k move in the list (and move this stop with them).
  links.forEach((a, i) => {
    a.tabIndex = i === Math.max(0, selected) ? 0 : -1;
  });
  activeList = { links, selected };
  if (selected >= 0) queueMicrotask(() => links[selected]?.scrollIntoView({ block: "nearest" }));
  return el;
}

/** «Previous / next» over a paged answer; the offset goes into the view's URL. */
export function pager(
  total: number,
  offset: number,
  size: number,
  href: (offset: number) => string,
  what: string,
): HTMLElement {
  const last = Math.min(total, offset + size);
  // The API answers an offset past the end with an empty page at the end: said, not drawn as "299–298".
  if (total > 0 && offset >= total)
    return h(
      "nav",
      { class: "pager", "aria-label": `${what} pages`, "data-test": "pager" },
      h(
        "span",
        { class: "error", "data-test": "past-end", role: "alert" },
        `The URL's offset is past the end: there ${total === 1 ? "is" : "are"} ${plural(total, what)}.`,
      ),
      h("a", { href: href(0) }, "first page"),
      h("a", { href: href(Math.floor((total - 1) / size) * size) }, "last page"),
    );
  return h(
    "nav",
    { class: "pager", "aria-label": `${what} pages`, "data-test": "pager" },
    offset > 0 ? h("a", { href: href(Math.max(0, offset - size)) }, "← previous") : null,
    h("span", {}, total === 0 ? `no ${what}` : `${fmt(offset + 1)}–${fmt(last)} of ${plural(total, what)}`),
    last < total ? h("a", { href: href(last), "data-test": "next-page" }, "next →") : null,
  );
}

/**
 * A search field: Enter (or leaving it) puts its value into the URL as `q`; the page keeps the
 * focus in it across the redraw, until Escape.
 */
export function searchField(value: string, placeholder: string, go: (q: string) => void): HTMLElement {
  const input = h("input", {
    type: "search",
    placeholder,
    value,
    "aria-label": placeholder,
    "data-test": "search",
  }) as HTMLInputElement;
  input.addEventListener("change", () => go(input.value));
  input.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    // A search field's own Escape empties it, and leaving it then would drop the search from the URL.
    e.preventDefault();
    input.blur();
  });
  return input;
}

/**
 * A cell drawn as `cell`; in the CSV, `text`, or with `id` its id and text in two columns (the
 * column's header then names both: `question id`, `question`).
 */
export type Cell = { cell: HTMLElement; text: string; id?: string };

/**
 * A table with a «CSV» link that downloads exactly the rows it shows, numbers at full precision
 * (the page shows 4 decimals), ids and texts in columns of their own, a header over each.
 */
export function table(
  head: string[],
  rows: (string | number | null | undefined | Cell)[][],
  o: {
    test?: string;
    name: string;
    num?: number[];
    rowAttrs?: (i: number) => Attrs;
    /** On a narrow screen, each row a block of `header: value` lines (style.css, .stack). */
    stack?: boolean;
  },
): HTMLElement {
  const num = new Set(o.num ?? []);
  const cell = (v: (typeof rows)[0][0], k: number, tag: string) =>
    h(
      tag,
      {
        ...(num.has(k) ? { class: "num" } : {}),
        ...(tag === "td" && o.stack ? { "data-label": head[k] } : {}),
      },
      v !== null && typeof v === "object" ? v.cell : typeof v === "number" ? fmt(v) : (v ?? ""),
    );
  const split = head.map((_, k) => rows.some((r) => typeof r[k] === "object" && r[k]?.id !== undefined));
  const csvCells = (v: (typeof rows)[0][0], k: number): string[] => {
    if (v !== null && typeof v === "object") return split[k] ? [v.id ?? "", v.text] : [v.text];
    const text = typeof v === "number" ? csvNumber(v) : (v ?? "");
    return split[k] ? ["", text] : [text];
  };
  const csv = [
    head.flatMap((x, k) => (split[k] ? [`${x} id`, x] : [x])),
    ...rows.map((r) => r.flatMap(csvCells)),
  ]
    .map((r) =>
      r.map((v) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v))).join(","),
    )
    .join("\n");
  const link = h(
    "a",
    {
      class: "csv",
      download: `${o.name}.csv`,
      href: `data:text/csv;charset=utf-8,${encodeURIComponent(`${csv}\n`)}`,
      "data-test": "csv",
    },
    "CSV",
  );
  return h(
    "div",
    { class: "table-wrap" },
    link,
    h(
      "table",
      { "data-test": o.test, class: o.stack ? "stack" : undefined },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          head.map((x, k) => cell(x, k, "th")),
        ),
      ),
      h(
        "tbody",
        {},
        rows.map((r, i) =>
          h(
            "tr",
            o.rowAttrs?.(i) ?? {},
            r.map((v, k) => cell(v, k, "td")),
          ),
        ),
      ),
    ),
  );
}

// The Passages view: a document under two splitters, its iKAT windows, and the official passages against them.
import type { DocView, Meta } from "../src/shared/api.js";
import { at } from "../src/shared/checked.js";
import { PAGE, plan, type ViewParams, viewHash } from "../src/shared/views.js";
import { get, holds } from "./client.js";
import { fmt, h, listPane, pager, plural, safely, searchField } from "./dom.js";
import { fileSwitch } from "./view-dataset.js";

function sides(d: DocView): HTMLElement {
  return h(
    "div",
    { class: "side-by-side" },
    d.sides.map((s, k) => {
      const only = new Set(d.only[k]);
      return h(
        "div",
        { "data-test": `side-${k}` },
        h(
          "h3",
          {},
          `${s.splitter}: ${plural(s.sentences.length, "sentences")}, ${plural(s.passages.length, "passages")}`,
        ),
        h(
          "details",
          {},
          h("summary", {}, "sentences"),
          h(
            "p",
            {},
            s.sentences.map((t, i) =>
              h(
                "span",
                {
                  class: `sent${only.has(at(s.starts, i)) ? " cut-only" : ""}`,
                  title: `sentence ${i + 1}${only.has(at(s.starts, i)) ? ": only this splitter cuts here" : ""}`,
                },
                t,
                " ",
              ),
            ),
          ),
        ),
        s.passages.map((w, wi) =>
          h(
            "div",
            { class: "passage", "data-test": "window" },
            h(
              "div",
              { class: "ids" },
              // What is hashed is said: the window's sentences (each stripped) joined by one space.
              `${w.id} · md5 ${w.md5} (of its stripped sentences joined by spaces) · sentences ${w.first + 1}–${w.first + w.sentences}`,
            ),
            s.sentences.slice(w.first, w.first + w.sentences).map((t, i) =>
              h(
                "span",
                {
                  class: `sent${wi > 0 && i < d.window - d.stride ? " overlap" : ""}${only.has(at(s.starts, w.first + i)) ? " cut-only" : ""}`,
                },
                t,
                " ",
              ),
            ),
          ),
        ),
      );
    }),
  );
}

function official(d: DocView): HTMLElement | null {
  if (!d.official) return null;
  const last = d.firstPassage + (d.sides[0]?.passages.length ?? 1) - 1;
  return h(
    "section",
    { "data-test": "official" },
    h("h3", {}, plural(d.official.length, "official passages")),
    h(
      "p",
      { class: "ids" },
      `The document's text in the two columns above is put back together from official passages ${d.firstPassage}–${last} (each adds what follows its five-sentence overlap); greyed passages are outside that run.`,
    ),
    d.official.map((o) =>
      h(
        "div",
        { class: `passage${o.used ? "" : " unused"}`, "data-test": "official-passage" },
        h(
          "div",
          { class: "ids" },
          `${o.id} · md5 ${o.md5} (of its text without the file's wrapping newlines) · `,
          o.vs.map((v) =>
            h(
              "span",
              { class: v.same ? "up" : v.same === false ? "down" : "" },
              `${v.same === null ? "not in the text" : v.same ? "=" : "≠"} ${v.splitter}'s `,
            ),
          ),
        ),
        o.text,
        o.vs.flatMap(({ splitter, diff }) =>
          diff
            ? [
                h(
                  "div",
                  { class: "diff", "data-test": "passage-diff" },
                  h("b", {}, `${splitter}: `),
                  `${diff.note} (first difference at character ${fmt(diff.at)})`,
                  h("div", {}, h("span", { class: "ids" }, "official: "), h("code", {}, diff.official)),
                  h("div", {}, h("span", { class: "ids" }, `${splitter}: `), h("code", {}, diff.ours)),
                ),
              ]
            : [],
        ),
      ),
    ),
  );
}

/** `text` with each hit of `q` (any case) in a <mark>, the text itself as written. */
function marked(text: string, q: string): (string | HTMLElement)[] {
  const needle = q.trim().toLowerCase();
  if (needle === "") return [text];
  const lower = text.toLowerCase();
  // Lower-casing may change lengths (a few letters): then no marks rather than misplaced ones.
  if (lower.length !== text.length) return [text];
  const out: (string | HTMLElement)[] = [];
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
    out.push(text.slice(from, at), h("mark", {}, text.slice(at, at + needle.length)));
    from = at + needle.length;
  }
  out.push(text.slice(from));
  return out;
}

export async function passagesView(
  p: ViewParams,
  meta: Meta,
  go: (p: ViewParams) => void,
): Promise<HTMLElement> {
  if (!meta.views.passages) return h("p", {}, "No documents or passages were given (--passages FILE).");
  const file = p.file ?? "0";
  const f = meta.passages[Number(file)];
  const r = plan("passages", p);
  const base = { ...(p.file ? { file: p.file } : {}) };
  const left = await safely(async () => {
    const list = await get(r.list);
    const keep = { ...base, ...(p.q ? { q: p.q } : {}) };
    return h(
      "div",
      {},
      searchField(p.q ?? "", "search ids and passage text", (q) => go({ ...base, q })),
      h("div", { class: "ids" }, `${plural(list.total, "documents")}${f ? ` (${f.kind})` : ""}`),
      pager(
        list.total,
        list.offset,
        PAGE.docs,
        (o) => viewHash("passages", { ...keep, offset: String(o) }),
        "documents",
      ),
      listPane(list.items, {
        label: (d) => [
          d.id,
          d.snippet
            ? h("div", { class: "ids snippet", "data-test": "snippet" }, marked(d.snippet, p.q ?? ""))
            : null,
        ],
        href: (d) => viewHash("passages", { ...keep, ...(p.offset ? { offset: p.offset } : {}), doc: d.id }),
        held: (d) => holds(plan("passages", { ...p, doc: d.id }).doc),
        selected: (d) => d.id === p.doc,
        test: "docs",
      }),
    );
  });
  const docReq = r.doc;
  const right = !docReq
    ? h("p", { class: "ids" }, "Pick a document.")
    : await safely(async () => {
        const d = await get(docReq);
        return h(
          "div",
          {},
          h("h2", {}, d.id),
          d.modelNote ? h("p", { class: "note", "data-test": "model-note" }, d.modelNote) : null,
          h(
            "p",
            { class: "ids" },
            `${d.text.length.toLocaleString("en-US")} characters · windows of ${d.window} sentences every ${d.stride}: yellow sentences repeat the previous window's · red edge: a cut only this splitter makes`,
          ),
          sides(d),
          official(d),
        );
      });
  return h(
    "div",
    {},
    fileSwitch(
      "passages",
      meta.passages.map((x) => x.file),
      file,
    ),
    h("div", { class: "cols" }, left, right),
  );
}

// convkit explore's single-page app: five views over the server's paged /api endpoints, a URL per state.
import uPlot from "uplot";

// The API's answers are JSON the server types; here they are read as they come.
// biome-ignore lint/suspicious/noExplicitAny: untyped JSON from the server
type Json = any;
type Params = Record<string, string>;

declare global {
  interface Window {
    /** A static export's answers, by request URL (see --static). */
    __CONVKIT_DATA__?: Record<string, Json>;
    /** Set once a view has rendered (tests and screenshots wait for it). */
    __CONVKIT_READY__?: string;
  }
}

const VIEWS = [
  ["dataset", "Dataset"],
  ["conversations", "Conversations"],
  ["evaldicts", "Eval dicts"],
  ["runs", "Runs"],
  ["passages", "Passages"],
] as const;
type View = (typeof VIEWS)[number][0];

// ---------------------------------------------------------------- plumbing

function h(tag: string, attrs: Record<string, unknown> = {}, ...children: unknown[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v as EventListener);
    else if (k === "class") el.className = String(v);
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const fmt = (n: number | null | undefined, digits = 4) =>
  n === null || n === undefined || Number.isNaN(n)
    ? "–"
    : Number.isInteger(n)
      ? n.toLocaleString("en-US")
      : n.toFixed(digits);
const pfmt = (p: number) => (p < 1e-4 ? p.toExponential(2) : p.toFixed(4));

function apiUrl(path: string, params: Params = {}): string {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== ""));
  const s = q.toString();
  return `api/${path}${s ? `?${s}` : ""}`;
}

async function api(path: string, params: Params = {}): Promise<Json> {
  const url = apiUrl(path, params);
  const inline = window.__CONVKIT_DATA__;
  if (inline) {
    if (url in inline) return inline[url];
    throw new Error(`not in this static page: ${url}`);
  }
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) throw new Error(body?.error ?? `${r.status}`);
  return body;
}

function route(): { view: View; params: Params } {
  const hash = location.hash.replace(/^#\/?/, "");
  const [v, q] = hash.split("?");
  const view = (VIEWS.find(([k]) => k === v)?.[0] ?? "dataset") as View;
  return { view, params: Object.fromEntries(new URLSearchParams(q ?? "")) };
}

function go(view: View, params: Params = {}): void {
  const q = new URLSearchParams(
    Object.entries(params).filter(([, v]) => v !== undefined && v !== ""),
  ).toString();
  const next = `#/${view}${q ? `?${q}` : ""}`;
  if (location.hash === next) render();
  else location.hash = next;
}

/** The list the keyboard moves in: its items' open actions and the selected index. */
let activeList: { open: (() => void)[]; selected: number; el: HTMLElement } | undefined;

function listPane<T>(
  items: T[],
  label: (t: T) => unknown,
  isSelected: (t: T) => boolean,
  open: (t: T) => void,
  test: string,
) {
  const el = h("div", { class: "list", "data-test": test, role: "listbox", tabindex: 0 });
  const opens: (() => void)[] = [];
  let selected = -1;
  items.forEach((t, i) => {
    const sel = isSelected(t);
    if (sel) selected = i;
    const row = h(
      "div",
      { class: `item${sel ? " sel" : ""}`, role: "option", onclick: () => open(t) },
      label(t),
    );
    el.append(row);
    opens.push(() => open(t));
  });
  activeList = { open: opens, selected, el };
  if (selected >= 0) queueMicrotask(() => el.children[selected]?.scrollIntoView({ block: "nearest" }));
  return el;
}

/** A search field whose value goes into the view's URL as `q` (Enter or leaving the field). */
function searchField(view: View, params: Params, placeholder: string): HTMLElement {
  return h("input", {
    type: "search",
    placeholder,
    value: params.q ?? "",
    "data-test": "search",
    onchange: (e: Event) => go(view, { ...params, q: (e.target as HTMLInputElement).value }),
  });
}

function counts(pairs: [string, unknown, string?][]): HTMLElement {
  return h(
    "div",
    { class: "counts" },
    pairs.map(([k, v, test]) =>
      h("div", { class: "count", "data-test": test }, h("b", {}, typeof v === "number" ? fmt(v) : v), k),
    ),
  );
}

/** A bar chart (uPlot) with labelled axes; `marks` draws vertical lines at x values. */
function barChart(
  xs: number[],
  ys: number[],
  o: {
    x: string;
    y: string;
    width?: number;
    marks?: { x: number; label: string }[];
    xValues?: (v: number) => string;
    /** Counts: whole-number ticks from 0. */
    counts?: boolean;
  },
): HTMLElement {
  const el = h("div", { class: "chart" });
  const marks = o.marks ?? [];
  const opts: uPlot.Options = {
    width: o.width ?? 720,
    height: 260,
    scales: {
      x: { time: false },
      ...(o.counts
        ? { y: { range: (_u: uPlot, _lo: number, hi: number): uPlot.Range.MinMax => [0, Math.max(1, hi)] } }
        : {}),
    },
    legend: { show: false },
    axes: [
      { label: o.x, ...(o.xValues ? { values: (_u: uPlot, vs: number[]) => vs.map(o.xValues!) } : {}) },
      { label: o.y, ...(o.counts ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] } : {}) },
    ],
    series: [
      {},
      {
        label: o.y,
        fill: "rgba(31,111,235,0.55)",
        stroke: "#1f6feb",
        paths: uPlot.paths.bars!({ size: [0.9, 60] }),
        points: { show: false },
      },
    ],
    hooks: {
      draw: [
        (u: uPlot) => {
          const ctx = u.ctx;
          ctx.save();
          ctx.strokeStyle = "#cf222e";
          ctx.fillStyle = "#cf222e";
          ctx.lineWidth = 2;
          ctx.font = `${12 * devicePixelRatio}px sans-serif`;
          for (const [i, m] of marks.entries()) {
            const x = u.valToPos(m.x, "x", true);
            ctx.beginPath();
            ctx.moveTo(x, u.bbox.top);
            ctx.lineTo(x, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.fillText(m.label, x + 4, u.bbox.top + 14 * (i + 1) * devicePixelRatio);
          }
          ctx.restore();
        },
      ],
    },
  };
  queueMicrotask(() => new uPlot(opts, [xs, ys], el));
  return el;
}

// ---------------------------------------------------------------- views

let meta: Json;

async function datasetView(p: Params): Promise<HTMLElement> {
  if (!meta.views.dataset)
    return h("p", {}, "No ClariQ data folder or qulac.json was given (--data, --qulac).");
  const d = meta.dataset;
  const totals = Object.entries(d.splits as Record<string, Json>).flatMap(([s, c]) => [
    [`${s} topics`, c.topics, `dataset-${s}-topics`],
    [`${s} facets`, c.facets],
    [`${s} question–answer rows`, c.questions],
  ]) as [string, unknown, string?][];
  const topics = await api("dataset/topics", {
    q: p.q ?? "",
    split: p.split ?? "",
    offset: "0",
    limit: "500",
  });
  const search = searchField("dataset", p, "search topics, facets, questions, answers");
  const left = h(
    "div",
    {},
    search,
    h("div", { class: "ids", "data-test": "topic-hits" }, `${fmt(topics.total)} topics`),
    listPane(
      topics.items,
      (t: Json) => [
        h("b", {}, t.topic_id),
        " ",
        t.initial_request,
        h("div", { class: "ids" }, `${t.split} · ${t.facets} facets · ${t.questions} rows`),
      ],
      (t: Json) => String(t.topic_id) === p.topic,
      (t: Json) => go("dataset", { ...p, topic: String(t.topic_id) }),
      "topics",
    ),
  );
  let right: HTMLElement = h("p", { class: "ids" }, "Pick a topic (j/k, Enter).");
  if (p.topic) {
    const t = await api("dataset/topic", { id: p.topic });
    right = h(
      "div",
      { "data-test": "topic" },
      h("h2", {}, `${t.topic_id}: ${t.initial_request}`),
      h(
        "p",
        {},
        t.topic_desc,
        h("span", { class: "ids" }, ` · ${t.split} · clarification need ${t.clarification_need}`),
      ),
      t.facets.map((f: Json) =>
        h(
          "section",
          {},
          h("h3", {}, `${f.facet_id}: ${f.facet_desc}`),
          h(
            "table",
            {},
            h(
              "tr",
              {},
              h("th", {}, "question id"),
              h("th", {}, "question"),
              h("th", {}, "answer"),
              h("th", {}, "Qulac id"),
            ),
            f.qa.map((x: Json) =>
              h(
                "tr",
                {},
                h("td", {}, x.question_id),
                h("td", {}, x.question),
                h("td", {}, x.answer),
                h("td", { class: "ids" }, x.qulac_id ?? ""),
              ),
            ),
          ),
        ),
      ),
      t.qulac.length > 0 ? h("p", { class: "ids" }, `${t.qulac.length} Qulac rows for this topic`) : null,
    );
  }
  return h(
    "div",
    {},
    counts([
      ...totals,
      ["question bank", d.questionBank, "dataset-bank"],
      ["Qulac rows", d.qulac.rows, "dataset-qulac"],
    ]),
    h("div", { class: "cols" }, left, right),
  );
}

async function conversationsView(p: Params): Promise<HTMLElement> {
  if (!meta.views.conversations) return h("p", {}, "No synthetic set was given (--synthetic FILE.jsonl).");
  const file = p.file ?? "0";
  const s = meta.synthetic[Number(file)];
  const head = h(
    "div",
    {},
    meta.synthetic.length > 1
      ? h(
          "select",
          { onchange: (e: Event) => go("conversations", { file: (e.target as HTMLSelectElement).value }) },
          meta.synthetic.map((x: Json, i: number) =>
            h("option", { value: i, selected: String(i) === file }, x.file),
          ),
        )
      : h("div", { class: "ids" }, s.file),
    counts([
      ["records", s.records, "synthetic-records"],
      ["contexts", s.contexts, "synthetic-contexts"],
      ["topics", s.topics],
      ["level-0 contexts", s.contextsByLevel[0]],
      ["level-1 contexts", s.contextsByLevel[1]],
      ["level-2 contexts", s.contextsByLevel[2]],
    ]),
  );
  const topics = await api("conversations/topics", { file });
  const left = listPane(
    topics,
    (t: Json) => [
      h("b", {}, t.topic_id),
      h("span", { class: "ids" }, ` ${t.facets} facets · ${t.contexts} contexts · ${t.records} records`),
    ],
    (t: Json) => String(t.topic_id) === p.topic,
    (t: Json) => go("conversations", { file, topic: String(t.topic_id) }),
    "conv-topics",
  );
  const right = h("div", {});
  if (p.topic) {
    const facets = await api("conversations/topic", { file, id: p.topic });
    const node = (c: Json): HTMLElement =>
      h(
        "li",
        { class: String(c.context_id) === p.ctx ? "sel" : "", "data-ctx": c.context_id },
        h(
          "span",
          {
            onclick: (e: Event) => {
              e.stopPropagation();
              go("conversations", { file, topic: p.topic!, ctx: String(c.context_id) });
            },
          },
          `context ${c.context_id} · level ${c.level} · ${c.records} records`,
          c.history.length ? h("span", { class: "ids" }, ` · after: ${c.history.join(" → ")}`) : null,
        ),
        c.children?.length ? h("ul", {}, c.children.map(node)) : null,
      );
    right.append(
      h(
        "div",
        { class: "tree", "data-test": "context-tree" },
        facets.map((f: Json) =>
          h(
            "details",
            {
              open:
                facets.length <= 3 ||
                f.tree.some((n: Json) => JSON.stringify(n).includes(`"context_id":${p.ctx},`)),
            },
            h("summary", {}, `${f.facet_id} · ${f.contexts} contexts`),
            h("ul", {}, f.tree.map(node)),
          ),
        ),
      ),
    );
  }
  if (p.ctx) {
    const c = await api("conversations/context", { file, id: p.ctx, offset: p.offset ?? "0", limit: "50" });
    right.append(
      h(
        "section",
        { "data-test": "context" },
        h("h2", {}, `Context ${c.context_id}`),
        h(
          "div",
          { class: "ids" },
          `topic ${c.topic_id} · facet ${c.facet_id} · level ${c.level} · ClariQ id: ${c.id_kind}`,
        ),
        c.clariq_context
          ? h(
              "div",
              { class: "ids", "data-test": "context-decoded" },
              `context ${c.context_id} decodes to topic ${c.clariq_context.topic_id}, ${c.clariq_context.facet_id}, after ${c.clariq_context.history.join(", ") || "nothing"}`,
            )
          : null,
        c.facet_desc ? h("p", {}, h("b", {}, "Facet: "), c.facet_desc) : null,
        h("h3", {}, "History"),
        c.history.length === 0
          ? h("p", { class: "ids" }, "(none: the first question of the conversation)")
          : null,
        c.history.map((t: Json, i: number) =>
          h(
            "div",
            { class: "turn", "data-test": "history-turn" },
            h("div", {}, h("b", {}, `Q${i + 1}: `), t.question),
            h("div", {}, h("b", {}, "A: "), t.answer),
            t.qulac_id ? h("div", { class: "ids" }, `Qulac ${t.qulac_id}`) : null,
          ),
        ),
        h("h3", {}, `Current questions and the facet's answers (${fmt(c.records.total)} records)`),
        h(
          "table",
          { "data-test": "records" },
          h(
            "tr",
            {},
            h("th", {}, "record"),
            h("th", {}, "question"),
            h("th", {}, "answer"),
            h("th", {}, "ClariQ id decoded"),
            h("th", {}, "Qulac id"),
          ),
          c.records.items.map((r: Json) =>
            h(
              "tr",
              {},
              h("td", {}, r.record_id),
              h("td", {}, r.question),
              h("td", { "data-test": "answer" }, r.answer),
              h(
                "td",
                { class: "ids", "data-test": "decoded" },
                r.clariq
                  ? `${r.clariq.agrees ? "✓" : "✗"} ${r.clariq.facet_id} · ${[...r.clariq.history, r.clariq.question].join(" → ")}`
                  : "",
              ),
              h(
                "td",
                { class: "ids" },
                r.qulac_id ?? "",
                r.qulac_record ? h("div", {}, `record ${r.qulac_record}`) : null,
              ),
            ),
          ),
        ),
        c.records.total > c.records.offset + c.records.items.length
          ? h(
              "button",
              { onclick: () => go("conversations", { ...p, offset: String(c.records.offset + 50) }) },
              "next 50",
            )
          : null,
      ),
    );
  }
  return h("div", {}, head, h("div", { class: "cols" }, left, right));
}

function histogram(values: number[], bins = 20): { xs: number[]; ys: number[]; width: number } {
  const lo = Math.min(0, ...values);
  const hi = Math.max(lo + 1e-9, ...values);
  const width = (hi - lo) / bins;
  const xs = Array.from({ length: bins }, (_, i) => lo + (i + 0.5) * width);
  const ys = new Array(bins).fill(0);
  for (const v of values) ys[Math.min(bins - 1, Math.floor((v - lo) / width))]++;
  return { xs, ys, width };
}

async function evalDictsView(p: Params): Promise<HTMLElement> {
  if (!meta.views.evalDicts) return h("p", {}, "No eval dict was given (--eval-dict FILE).");
  const file = p.file ?? "0";
  const d = meta.evalDicts[Number(file)];
  const list = await api("evaldict/contexts", { file, q: p.q ?? "", offset: p.offset ?? "0", limit: "200" });
  const left = h(
    "div",
    {},
    searchField("evaldicts", { file }, "context id starts with…"),
    h("div", { class: "ids" }, `${fmt(list.total)} contexts`),
    listPane(
      list.items,
      (c: string) => c,
      (c: string) => c === p.ctx,
      (c: string) => go("evaldicts", { ...p, ctx: c }),
      "eval-contexts",
    ),
  );
  const right = h("div", {});
  if (p.ctx) {
    const c = await api("evaldict/context", { file, id: p.ctx });
    const metric = p.metric ?? c.metrics[0]?.metric;
    const m = c.metrics.find((x: Json) => x.metric === metric) ?? c.metrics[0];
    const hist = histogram(m.questions.map((q: Json) => q.with_answer));
    right.append(
      h(
        "div",
        {},
        h("h2", {}, `Context ${c.context} · ${c.candidates} candidate questions`),
        h(
          "div",
          {},
          "metric: ",
          h(
            "select",
            {
              "data-test": "metric",
              onchange: (e: Event) =>
                go("evaldicts", { ...p, metric: (e.target as HTMLSelectElement).value }),
            },
            c.metrics.map((x: Json) => h("option", { selected: x.metric === m.metric }, x.metric)),
          ),
        ),
        counts([
          ["MAX", fmt(m.max), "eval-max"],
          ["MIN", fmt(m.min), "eval-min"],
          ["best question", m.best ?? "–", "eval-best"],
        ]),
        barChart(hist.xs, hist.ys, {
          x: `${m.metric} with the answer (per candidate question)`,
          y: "questions (count)",
          counts: true,
          marks: m.picks
            .filter((k: Json) => k.value !== undefined && k.value !== null)
            .map((k: Json) => ({ x: k.value, label: k.run })),
        }),
        m.picks.length
          ? h(
              "table",
              { "data-test": "picks" },
              h(
                "tr",
                {},
                h("th", {}, "run"),
                h("th", {}, "its pick"),
                h("th", {}, "in the dict"),
                h("th", { class: "num" }, "value scored"),
                h("th", { class: "num" }, "rank among candidates"),
              ),
              m.picks.map((k: Json) =>
                h(
                  "tr",
                  {},
                  h("td", {}, k.run),
                  h("td", {}, k.question ?? "(not in the bank)"),
                  h("td", {}, k.in_dict ? "yes" : "no: MIN counts"),
                  h("td", { class: "num" }, fmt(k.value)),
                  h("td", { class: "num" }, k.rank ?? "–"),
                ),
              ),
            )
          : null,
        h(
          "table",
          { "data-test": "eval-questions" },
          h(
            "tr",
            {},
            h("th", {}, "question"),
            h("th", { class: "num" }, "no_answer"),
            h("th", { class: "num" }, "with_answer"),
          ),
          [...m.questions]
            .sort((a: Json, b: Json) => b.with_answer - a.with_answer)
            .map((q: Json) =>
              h(
                "tr",
                { class: q.question === m.best ? "sig" : "" },
                h("td", {}, q.question),
                h("td", { class: "num" }, fmt(q.no_answer)),
                h("td", { class: "num" }, fmt(q.with_answer)),
              ),
            ),
        ),
      ),
    );
  }
  return h(
    "div",
    {},
    h("div", { class: "ids" }, `${d.file} · metrics ${d.metrics.join(", ")}`),
    counts([
      ["contexts", d.contexts, "eval-contexts-count"],
      ["metrics", d.metrics.length],
    ]),
    h("div", { class: "cols" }, left, right),
  );
}

async function runsView(p: Params): Promise<HTMLElement> {
  if (!meta.views.runs)
    return h("p", {}, "Give two or more runs (--run) with --qrels, or ClariQ runs with --data.");
  const { comparison: c, scoring } = await api("runs/summary");
  const measure = p.measure ?? c.measures[0].name;
  const b = p.b ?? "1";
  const sigTable = h(
    "table",
    { "data-test": "significance" },
    h(
      "tr",
      {},
      ["measure", "a", "b", "n", "mean a", "mean b", "Δ", "p", "p adj.", "", "W/T/L"].map((x) =>
        h("th", {}, x),
      ),
    ),
    c.pairs.map((r: Json) =>
      h(
        "tr",
        { "data-measure": r.measure, "data-b": r.b },
        h(
          "td",
          {},
          h(
            "a",
            {
              href: `#/runs?measure=${encodeURIComponent(r.measure)}&b=${c.runs.indexOf(r.a === c.runs[0] ? r.b : r.a)}`,
            },
            r.measure,
          ),
        ),
        h("td", {}, r.a),
        h("td", {}, r.b),
        h("td", { class: "num" }, r.n),
        h("td", { class: "num" }, fmt(r.mean_a)),
        h("td", { class: "num" }, fmt(r.mean_b)),
        h("td", { class: "num" }, fmt(r.mean_diff)),
        h("td", { class: "num", "data-test": "p" }, pfmt(r.p)),
        h("td", { class: "num" }, pfmt(r.p_adjusted)),
        h("td", { class: "sig" }, r.reject ? "*" : ""),
        h("td", {}, `${r.wins}/${r.ties}/${r.losses}`),
      ),
    ),
  );
  const deltas = await api("runs/deltas", { measure, b });
  const chart = barChart(
    deltas.rows.map((_: Json, i: number) => i + 1),
    deltas.rows.map((r: Json) => r.delta),
    { x: "topics, by difference (largest first)", y: `Δ ${measure}`, width: 900 },
  );
  const topics = deltas.rows as Json[];
  const left = listPane(
    topics,
    (r: Json) => [
      h("b", {}, r.topic),
      " ",
      h(
        "span",
        { class: r.delta > 0 ? "up" : r.delta < 0 ? "down" : "" },
        `${r.delta > 0 ? "+" : ""}${fmt(r.delta)}`,
      ),
    ],
    (r: Json) => r.topic === p.topic,
    (r: Json) => go("runs", { measure, b, topic: r.topic }),
    "delta-topics",
  );
  const right = h("div", {});
  if (p.topic) {
    const t = await api("runs/topic", { id: p.topic, depth: "20" });
    right.append(
      h("h3", {}, `Topic ${t.topic} · ${t.judged} judged`),
      h(
        "div",
        { class: "side-by-side", "data-test": "rankings" },
        t.runs.map((r: Json) =>
          h(
            "div",
            {},
            h("h4", {}, r.name),
            h(
              "table",
              {},
              r.entries.map((e: Json) =>
                h(
                  "tr",
                  {
                    class: `${e.rel === null ? "rel-none" : e.rel > 0 ? "rel-pos" : "rel-zero"}${e.only_here ? " only" : ""}`,
                    title: e.text ?? "",
                  },
                  h("td", { class: "num" }, e.rank),
                  h("td", {}, e.doc, e.text && e.text !== e.doc ? h("div", { class: "ids" }, e.text) : null),
                  h("td", { class: "num" }, fmt(e.score, 3)),
                  h(
                    "td",
                    { class: e.move > 0 ? "up" : e.move < 0 ? "down" : "" },
                    e.move === null
                      ? e.only_here
                        ? "only here"
                        : ""
                      : e.move > 0
                        ? `▲${e.move}`
                        : e.move < 0
                          ? `▼${-e.move}`
                          : "=",
                  ),
                ),
              ),
            ),
          ),
        ),
      ),
      h(
        "p",
        { class: "ids" },
        "green: judged relevant · red: judged not relevant · grey: unjudged · dashed: only in this run · ▲▼ rank move against the first run",
      ),
    );
  }
  return h(
    "div",
    {},
    h(
      "p",
      { class: "ids" },
      `${scoring} · ${c.test} test, ${c.correction} correction, α = ${c.alpha}, topics a run lacks: ${c.missing}`,
    ),
    sigTable,
    h("h3", {}, `Per-topic differences: ${measure}, ${deltas.b} − ${deltas.a}`),
    chart,
    h("div", { class: "cols" }, left, right),
  );
}

async function passagesView(p: Params): Promise<HTMLElement> {
  if (!meta.views.passages) return h("p", {}, "No documents or passages were given (--passages FILE).");
  const file = p.file ?? "0";
  const f = meta.passages[Number(file)];
  const list = await api("passages/docs", { file, q: p.q ?? "", offset: "0", limit: "500" });
  const left = h(
    "div",
    {},
    searchField("passages", { file }, "document id contains…"),
    h("div", { class: "ids" }, `${fmt(list.total)} documents (${f.kind})`),
    listPane(
      list.items,
      (d: Json) => d.id,
      (d: Json) => d.id === p.doc,
      (d: Json) => go("passages", { ...p, doc: d.id }),
      "docs",
    ),
  );
  const right = h("div", {});
  if (p.doc) {
    const d = await api("passages/doc", { file, id: p.doc });
    const sides = d.sides.map((s: Json, k: number) => {
      const only = new Set(d.only[k]);
      return h(
        "div",
        { "data-test": `side-${k}` },
        h("h3", {}, `${s.splitter}: ${s.sentences.length} sentences, ${s.passages.length} passages`),
        h(
          "details",
          {},
          h("summary", {}, "sentences"),
          h(
            "p",
            {},
            s.sentences.map((t: string, i: number) =>
              h(
                "span",
                {
                  class: `sent${only.has(s.starts[i]) ? " cut-only" : ""}`,
                  title: `sentence ${i + 1}${only.has(s.starts[i]) ? ": only this splitter cuts here" : ""}`,
                },
                t,
                " ",
              ),
            ),
          ),
        ),
        s.passages.map((w: Json, wi: number) =>
          h(
            "div",
            { class: "passage", "data-test": "window" },
            h(
              "div",
              { class: "ids" },
              `${w.id} · md5 ${w.md5} · sentences ${w.first + 1}–${w.first + w.sentences}`,
            ),
            s.sentences.slice(w.first, w.first + w.sentences).map((t: string, i: number) =>
              h(
                "span",
                {
                  class: `sent${wi > 0 && i < d.window - d.stride ? " overlap" : ""}${only.has(s.starts[w.first + i]) ? " cut-only" : ""}`,
                },
                t,
                " ",
              ),
            ),
          ),
        ),
      );
    });
    right.append(
      h(
        "div",
        {},
        h("h2", {}, d.id),
        h(
          "p",
          { class: "ids" },
          `${d.text.length.toLocaleString("en-US")} characters · windows of ${d.window} sentences every ${d.stride}: yellow sentences repeat the previous window's · red edge: a cut only this splitter makes`,
        ),
        d.official
          ? h(
              "details",
              { "data-test": "official", open: true },
              h(
                "summary",
                {},
                `${d.official.length} official passages; the text above is put back together from passages ${d.firstPassage}–${d.firstPassage + d.sides[0].passages.length - 1} (each adds what follows its five-sentence overlap)`,
              ),
              d.official.map((o: Json) => {
                const ours = d.sides.map((s: Json) => s.passages.find((w: Json) => w.id === o.id));
                const marks = d.sides.map((s: Json, k: number) =>
                  ours[k] ? `${ours[k].md5 === o.md5 ? "=" : "≠"} ${s.splitter}'s` : "not in the text",
                );
                return h(
                  "div",
                  { class: `passage${o.used ? "" : " unused"}`, "data-test": "official-passage" },
                  h("div", { class: "ids" }, `${o.id} · md5 ${o.md5} · ${[...new Set(marks)].join(" · ")}`),
                  o.text,
                );
              }),
            )
          : null,
        h("div", { class: "side-by-side" }, sides),
      ),
    );
  }
  return h("div", {}, h("div", { class: "ids" }, f.file), h("div", { class: "cols" }, left, right));
}

const RENDER: Record<View, (p: Params) => Promise<HTMLElement>> = {
  dataset: datasetView,
  conversations: conversationsView,
  evaldicts: evalDictsView,
  runs: runsView,
  passages: passagesView,
};

let rendering = 0;
async function render(): Promise<void> {
  const mine = ++rendering;
  const { view, params } = route();
  window.__CONVKIT_READY__ = undefined;
  const nav = document.getElementById("nav")!;
  nav.replaceChildren(
    ...VIEWS.map(([k, label], i) => {
      const has = meta.views[k === "evaldicts" ? "evalDicts" : k];
      return h(
        "a",
        { href: `#/${k}`, class: `${k === view ? "active" : ""}${has ? "" : " off"}`, title: `${i + 1}` },
        label,
      );
    }),
  );
  const main = document.getElementById("main")!;
  activeList = undefined;
  try {
    const el = await RENDER[view](params);
    if (mine !== rendering) return;
    main.replaceChildren(el);
  } catch (e) {
    if (mine !== rendering) return;
    main.replaceChildren(h("p", { class: "error", "data-test": "error" }, String((e as Error).message ?? e)));
  }
  window.__CONVKIT_READY__ = location.hash || "#/dataset";
}

document.addEventListener("keydown", (e) => {
  const t = e.target as HTMLElement;
  if (t.tagName === "INPUT" || t.tagName === "SELECT" || e.ctrlKey || e.metaKey || e.altKey) return;
  const n = Number(e.key);
  if (n >= 1 && n <= VIEWS.length) {
    go(VIEWS[n - 1]![0]);
    return;
  }
  if (e.key === "/") {
    e.preventDefault();
    (document.querySelector("input[type=search]") as HTMLInputElement | null)?.focus();
    return;
  }
  const l = activeList;
  if (!l || l.open.length === 0) return;
  const step = e.key === "j" || e.key === "ArrowDown" ? 1 : e.key === "k" || e.key === "ArrowUp" ? -1 : 0;
  if (step !== 0) {
    e.preventDefault();
    const i = Math.max(0, Math.min(l.open.length - 1, l.selected + step));
    l.selected = i;
    for (const [k, c] of [...l.el.children].entries()) c.classList.toggle("sel", k === i);
    l.el.children[i]?.scrollIntoView({ block: "nearest" });
  } else if (e.key === "Enter" && l.selected >= 0) l.open[l.selected]!();
});

window.addEventListener("hashchange", () => void render());
(async () => {
  try {
    meta = await api("meta");
  } catch (e) {
    document.getElementById("main")!.replaceChildren(h("p", { class: "error" }, String(e)));
    return;
  }
  await render();
})();

// The Responses view: per iKAT 2025 turn, the utterances, the topics' gold response and each run's responses side by side.
import type { CitationView, Meta, ResponseView, RunTurnView, TurnView } from "../src/shared/api.js";
import { PAGE, plan, type ViewParams, viewHash } from "../src/shared/views.js";
import { get, holds } from "./client.js";
import { fmt, h, listPane, pager, plural, safely, searchField } from "./dom.js";

/** A grade as a badge: relevant (≥ 1), judged not relevant (0), unjudged. */
function grade(c: CitationView, judged: boolean): HTMLElement | null {
  if (!judged) return null;
  return h(
    "span",
    {
      class: `grade ${c.grade === null ? "rel-none" : c.grade > 0 ? "rel-pos" : "rel-zero"}`,
      "data-test": "grade",
    },
    c.grade === null ? "unjudged" : `grade ${c.grade}`,
  );
}

/**
 * The citations of a response: each a disclosure (Tab reaches it, Enter opens it) whose summary
 * names the passage, its grade and score, and whose body is the passage's text.
 */
function citations(list: CitationView[], t: TurnView): HTMLElement | null {
  if (list.length === 0) return h("p", { class: "ids" }, "no citations");
  return h(
    "ol",
    { class: "citations", "data-test": "citations" },
    list.map((c) => {
      const head = [
        h("code", {}, c.id),
        " ",
        grade(c, t.qrels),
        c.score !== undefined ? h("span", { class: "ids" }, ` score ${fmt(c.score, 3)}`) : null,
      ];
      return h(
        "li",
        { "data-test": "citation", "data-id": c.id },
        c.text === null
          ? h(
              "div",
              { class: "cite-missing" },
              head,
              h(
                "span",
                { class: "ids" },
                t.passages ? " · not in the passage files given" : " · give --passages to see its text",
              ),
            )
          : h(
              "details",
              {},
              h("summary", {}, head),
              h("blockquote", { class: "passage-text", "data-test": "passage-text" }, c.text),
            ),
      );
    }),
  );
}

function response(r: ResponseView, i: number, t: TurnView): HTMLElement {
  return h(
    "div",
    { class: "response", "data-test": "response" },
    h("div", { class: "ids" }, `response ${i + 1}`),
    h("p", { class: "response-text", "data-test": "response-text" }, r.text),
    r.ptkb.length > 0
      ? h(
          "ul",
          { class: "ptkb ids", "data-test": "ptkb" },
          r.ptkb.map((p) => h("li", {}, `PTKB ${p.id}${p.text !== null ? `: ${p.text}` : ""}`)),
        )
      : null,
    citations(r.citations, t),
  );
}

function runColumn(run: RunTurnView, t: TurnView): HTMLElement {
  return h(
    "section",
    { class: "run-col", "data-test": "run", "data-run": run.name, "aria-label": `run ${run.name}` },
    h("h3", {}, run.name),
    h(
      "div",
      { class: "ids" },
      `${run.team_id} · ${run.run_id} · ${run.run_type} · ${plural(run.references, "references")}`,
    ),
    run.top.length > 0
      ? h(
          "details",
          { class: "top-refs", "data-test": "top-references" },
          h(
            "summary",
            {},
            run.top.length === run.references
              ? `its ${plural(run.references, "references")}, ranked`
              : `its first ${run.top.length} of ${fmt(run.references)} references`,
          ),
          h(
            "ol",
            { class: "ids" },
            run.top.map((x) =>
              h(
                "li",
                { "data-id": x.id },
                h("code", {}, x.id),
                " ",
                grade({ id: x.id, text: null, grade: x.grade }, t.qrels),
                ` ${fmt(x.score, 3)}`,
              ),
            ),
          ),
        )
      : null,
    run.responses === null
      ? h("p", { class: "ids", "data-test": "no-turn" }, "(no line for this turn)")
      : run.responses.length === 0
        ? h("p", { class: "ids" }, "(no responses)")
        : run.responses.map((r, i) => response(r, i, t)),
  );
}

function turnPane(t: TurnView, keep: ViewParams): HTMLElement {
  const to = (id: string) => viewHash("responses", { ...keep, turn: id });
  const rankings = plan("runs", { topic: t.id }).topic;
  if (rankings === undefined) throw new Error(`no runs request for topic ${t.id}`);
  return h(
    "article",
    { "data-test": "turn" },
    h(
      "nav",
      { class: "pager", "aria-label": "turns" },
      t.prev ? h("a", { href: to(t.prev), "data-test": "prev-turn" }, `← ${t.prev}`) : null,
      t.next ? h("a", { href: to(t.next), "data-test": "next-turn" }, `${t.next} →`) : null,
    ),
    h("h2", {}, `Turn ${t.id}${t.title ? ` · ${t.title}` : ""}`),
    t.utterance === null
      ? h("p", { class: "ids" }, "(this turn is not in the topics given)")
      : h(
          "dl",
          { class: "utterances" },
          h("dt", {}, "utterance"),
          h("dd", { "data-test": "utterance" }, t.utterance),
          h("dt", {}, "resolved"),
          h("dd", { "data-test": "resolved" }, t.resolved_utterance ?? ""),
        ),
    !t.ranking
      ? h("p", { class: "ids" }, "(--qrels and two runs or more rank the runs' references in the Runs view)")
      : h(
          "p",
          {},
          h(
            "a",
            {
              href: viewHash("runs", { topic: t.id }),
              "data-test": "to-ranking",
              ...(holds(rankings) ? {} : { class: "live-only", title: "needs the live server" }),
            },
            "the runs' references ranked, with their grades →",
          ),
        ),
    t.gold
      ? h(
          "section",
          { class: "gold", "data-test": "gold", "aria-label": "gold response" },
          h("h3", {}, "Gold response (topics)"),
          h("p", { class: "response-text", "data-test": "gold-response" }, t.gold.response),
          t.gold.ptkb.length > 0
            ? h(
                "ul",
                { class: "ptkb ids" },
                t.gold.ptkb.map((p) => h("li", {}, `PTKB${p.id !== null ? ` ${p.id}` : ""}: ${p.text}`)),
              )
            : null,
          citations(t.gold.citations, t),
        )
      : null,
    h(
      "div",
      { class: "runs-side", "data-test": "runs" },
      t.runs.map((r) => runColumn(r, t)),
    ),
    t.qrels
      ? h(
          "p",
          { class: "ids" },
          "grade: the passage's judgment for this turn (green ≥ 1, red 0, grey unjudged)",
        )
      : null,
  );
}

export async function responsesView(
  p: ViewParams,
  meta: Meta,
  go: (p: ViewParams) => void,
): Promise<HTMLElement> {
  if (!meta.views.responses || !meta.responses)
    return h("p", {}, "Give iKAT 2025 runs (--run RUN.jsonl) and their topics (--topics).");
  const r = plan("responses", p);
  const keep = { ...(p.q ? { q: p.q } : {}), ...(p.offset ? { offset: p.offset } : {}) };
  const runs = meta.responses.runs;
  const left = await safely(async () => {
    const list = await get(r.list);
    return h(
      "div",
      {},
      searchField(p.q ?? "", "search turn ids and utterances", (q) => go({ q })),
      h(
        "div",
        { class: "ids" },
        `${plural(list.total, "turns")} · ${plural(runs.length, "runs")}: ${runs.join(", ")}`,
      ),
      pager(
        list.total,
        list.offset,
        PAGE.turns,
        (o) => viewHash("responses", { ...(p.q ? { q: p.q } : {}), offset: String(o) }),
        "turns",
      ),
      listPane(list.items, {
        label: (t) => [
          h("b", {}, t.id),
          " ",
          h(
            "span",
            { class: "ids", title: "responses per run (–: no line for this turn)" },
            t.responses.map((n) => (n === null ? "–" : String(n))).join(" / "),
          ),
          t.relevant.some((n) => n !== null)
            ? h(
                "span",
                { class: "ids", title: "citations judged relevant (grade ≥ 1), per run" },
                ` · relevant ${t.relevant.map((n) => (n === null ? "–" : String(n))).join(" / ")}`,
              )
            : null,
          t.utterance ? h("div", { class: "ids" }, t.utterance) : null,
        ],
        href: (t) => viewHash("responses", { ...keep, turn: t.id }),
        held: (t) => holds(plan("responses", { ...p, turn: t.id }).turn),
        selected: (t) => t.id === p.turn,
        test: "turns",
      }),
    );
  });
  const turnReq = r.turn;
  const right = !turnReq
    ? h("p", { class: "ids" }, "Pick a turn (j/k and Enter, or click).")
    : await safely(async () => turnPane(await get(turnReq), keep));
  return h("div", { class: "cols" }, left, right);
}

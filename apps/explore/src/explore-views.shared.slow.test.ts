import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, requires, runCli, SHARED, shared } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import {
  clariqDataArgs,
  clariqRunArgs,
  devSynthetic,
  ExplorerSession,
  json,
  open,
  passageArgs,
  raw,
  ready,
  SHOTS,
  shown,
  startExplorer,
  stopExplorer,
} from "./harness.js";

const app = new ExplorerSession();

let tmp: string;

requires("shared", "chromium").describe("convkit-explore views (issue #29) on ../shared in Chromium", () => {
  app.use(async () => {
    tmp = await devSynthetic("jsonl");
    return [
      ...clariqDataArgs(),
      "--synthetic",
      join(tmp, "dev_synthetic.jsonl"),
      "--eval-dict",
      shared("golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz"),
      ...clariqRunArgs(),
      ...passageArgs(),
    ];
  });

  /** What the page's functions read of the browser's globals (this file is typed without the DOM). */
  interface G {
    location: { hash: string };
    document: {
      documentElement: { scrollWidth: number };
      querySelector(s: string): { getBoundingClientRect(): { height: number } } | null;
    };
  }

  interface QulacRow {
    topic_id: number;
    facet_desc: string;
    question: string;
    answer: string;
  }
  /** qulac.json's rows by `topic-facet-question` id. */
  function qulacById(): Map<string, QulacRow> {
    const cols = JSON.parse(readFileSync(shared("data", "qulac", "qulac.json"), "utf8")) as Record<
      string,
      Record<string, unknown>
    >;
    const m = new Map<string, QulacRow>();
    for (const k of Object.keys(cols.topic_id!))
      m.set(String(cols.topic_facet_question_id![k]), {
        topic_id: Number(cols.topic_id![k]),
        facet_desc: String(cols.facet_desc![k]),
        question: String(cols.question![k]),
        answer: String(cols.answer![k]),
      });
    return m;
  }
  /** Qulac escapes quotes in its facet descriptions (`Obama\'s`); ClariQ does not. */
  const norm = (s: string) => s.replace(/\\/g, "").replace(/\s+/g, " ").trim().toLowerCase();

  /**
   * Why a shown Qulac id is wrong for a row of a ClariQ facet, or undefined when it is right: the id
   * must exist, be of the row's topic and of a Qulac facet with the same description (an independent
   * check of the facet join), and hold the row's question, unless ClariQ edited that question's text
   * later (then no row of that Qulac facet has ClariQ's text).
   */
  function wrong(
    q: Map<string, QulacRow>,
    id: string,
    topic: number,
    facetDesc: string,
    question: string,
  ): string | undefined {
    const r = q.get(id);
    if (!r) return `${id}: not in qulac.json`;
    if (r.topic_id !== topic) return `${id}: topic ${r.topic_id}, not ${topic}`;
    if (norm(r.facet_desc) !== norm(facetDesc)) return `${id}: another facet (${r.facet_desc})`;
    if (r.question !== question) {
      const facet = id.split("-").slice(0, 2).join("-");
      const same = [...q].some(([k, x]) => k.startsWith(`${facet}-`) && x.question === question);
      if (same) return `${id}: holds ${JSON.stringify(r.question)}, not ${JSON.stringify(question)}`;
    }
    return undefined;
  }

  /** Runs `f` over `xs`, `n` at a time. */
  async function pool<T>(xs: T[], n: number, f: (x: T) => Promise<void>): Promise<void> {
    let i = 0;
    await Promise.all(
      Array.from({ length: n }, async () => {
        while (i < xs.length) await f(xs[i++]!);
      }),
    );
  }

  describe("convkit-explore, issue #29 (../shared, chromium)", () => {
    it("every Qulac id the Dataset and Conversations views show is the row's own (../shared)", async () => {
      const q = qulacById();
      const bad: string[] = [];
      let rows = 0;
      const topics = await json<{ items: { topic_id: number }[] }>(app.base, "/api/dataset/topics?limit=500");
      expect(topics.items.length).toBeGreaterThan(250);
      const facetDesc = new Map<string, string>();
      await pool(topics.items, 4, async ({ topic_id }) => {
        const t = await json<{
          facets: {
            facet_id: string;
            facet_desc: string;
            qulac_facet?: number;
            qa: { question_id: string; question: string; qulac_id?: string }[];
          }[];
        }>(app.base, `/api/dataset/topic?id=${topic_id}`);
        for (const f of t.facets) {
          facetDesc.set(f.facet_id, f.facet_desc);
          const seen = new Set<string>();
          for (const x of f.qa) {
            if (x.qulac_id === undefined) continue;
            rows++;
            const why =
              x.question_id === "Q00001"
                ? x.qulac_id === `${topic_id}-${f.qulac_facet}-X`
                  ? undefined
                  : `${x.qulac_id}: not this facet's X`
                : wrong(q, x.qulac_id, topic_id, f.facet_desc, x.question);
            if (why) bad.push(`dataset ${f.facet_id} ${x.question_id}: ${why}`);
            if (
              x.question_id !== "Q00001" &&
              seen.has(x.qulac_id) &&
              !f.qa.some((y) => y !== x && y.qulac_id === x.qulac_id && y.question === x.question)
            )
              bad.push(`dataset ${f.facet_id}: ${x.qulac_id} twice`);
            seen.add(x.qulac_id);
          }
        }
      });
      expect(bad.slice(0, 10)).toEqual([]);
      // Every ClariQ row of topics <= 200 has its id (Qulac covers them all).
      expect(rows).toBeGreaterThan(10_900);
      // Conversations: every record and history turn of every context of the dev set.
      const conv = await json<{ items: { topic_id: number }[] }>(
        app.base,
        "/api/conversations/topics?limit=500",
      );
      const contexts: number[] = [];
      const collect = (n: { context_id: number; children?: unknown[] }) => {
        contexts.push(n.context_id);
        for (const c of (n.children ?? []) as { context_id: number }[]) collect(c);
      };
      for (const t of conv.items)
        for (const f of await json<{ tree: { context_id: number }[] }[]>(
          app.base,
          `/api/conversations/topic?id=${t.topic_id}`,
        ))
          f.tree.forEach(collect);
      expect(contexts.length).toBe(15_345);
      let shownIds = 0;
      await pool(contexts, 6, async (id) => {
        const c = await json<{
          topic_id: number;
          facet_id: string;
          history: { question: string; qulac_id?: string }[];
          records: { items: { question: string; qulac_id?: string }[] };
        }>(app.base, `/api/conversations/context?id=${id}&limit=500`);
        const desc = facetDesc.get(c.facet_id) ?? "";
        for (const x of [...c.history, ...c.records.items]) {
          if (x.qulac_id === undefined) continue;
          shownIds++;
          const why = wrong(q, x.qulac_id, c.topic_id, desc, x.question);
          if (why) bad.push(`context ${id}: ${why}`);
        }
      });
      expect(bad.slice(0, 10)).toEqual([]);
      expect(shownIds).toBeGreaterThan(100_000);
      // The case of the issue, as the page shows it: topic 8's F0985 row Q03340 is 8-1-10 there.
      await open(app.page, app.base, "#/dataset?topic=8", "dataset-topic-8");
      const f0985 = app.page.locator("[data-test=facet][data-facet=F0985]");
      const row = f0985.locator("tr", { hasText: "Q03340" });
      expect(await shown(row.locator("td").nth(3))).toMatch(/^8-\d+-\d+$/);
      const id = await shown(row.locator("td").nth(3));
      expect(wrong(q, id, 8, facetDesc.get("F0985")!, await shown(row.locator("td").nth(1)))).toBeUndefined();
    }, 300_000);

    it("Runs: a facet of the list and a bar of the chart open non-empty rankings of its topic (../shared)", async () => {
      await open(app.page, app.base, "#/runs", "runs-1400");
      await app.page.locator("[data-test=delta-topics] a").first().click();
      await app.page.waitForFunction(() => (globalThis as unknown as G).location.hash.includes("topic="));
      await ready(app.page, await app.page.evaluate(() => (globalThis as unknown as G).location.hash));
      const first = app.page.locator("[data-test=ranking]");
      expect(await first.count()).toBe(2);
      for (let i = 0; i < 2; i++) expect(await first.nth(i).locator("tbody tr").count()).toBeGreaterThan(0);
      expect(await shown(app.page.locator("[data-test=topic-rankings] h3"))).toMatch(
        /^F\d+ of topic \d+ · \d+ judged$/,
      );
      expect(await shown(first.nth(0).locator("h4"))).toBe("baseline: dev_no_q");
      expect(await shown(first.nth(1).locator("h4"))).toBe("compared: dev_bm25");
      expect(await shown(app.page.locator("[data-test=delta-title]"))).toContain(
        "dev_bm25 (compared) − dev_no_q (baseline)",
      );
      // The chart: the 10th bar, by click, opens its own facet.
      await open(app.page, app.base, "#/runs?measure=NDCG3", "runs-chart");
      const bar = app.page.locator("[data-test=delta-chart] a.bar-link").nth(9);
      const topic = await bar.getAttribute("data-topic");
      expect(await bar.locator("title").textContent()).toMatch(
        /dev_bm25: [\d.]+ · dev_no_q: [\d.]+ · Δ -?[\d.]+/,
      );
      await bar.click();
      await app.page.waitForFunction(
        (t) => (globalThis as unknown as G).location.hash.endsWith(`topic=${t}`),
        topic,
      );
      await ready(app.page, `#/runs?measure=NDCG3&topic=${topic}`);
      expect(await app.page.locator("[data-test=ranking] tbody tr").count()).toBeGreaterThan(0);
      await app.page.screenshot({ path: join(SHOTS, "runs-topic-1400.png") });
    }, 180_000);

    it("Conversations: a context tree node's history shows each question's id, text and answer, as the data has them (../shared)", async () => {
      const bank = new Map(
        readFileSync(shared("data", "clariq", "question_bank.tsv"), "utf8")
          .split("\n")
          .slice(1)
          .map((l) => l.split("\t") as [string, string]),
      );
      // A level-2 context, as the JSONL records it.
      const line = readFileSync(join(tmp, "dev_synthetic.jsonl"), "utf8")
        .split("\n")
        .find((l) => (l.match(/"question":/g) ?? []).length === 3)!;
      const r = JSON.parse(line) as {
        topic_id: number;
        context_id: number;
        conversation_context: { question: string; answer: string }[];
      };
      await open(
        app.page,
        app.base,
        `#/conversations?topic=${r.topic_id}&ctx=${r.context_id}`,
        "conversations-tree-1400",
      );
      const turns = app.page.locator(`[data-test=context-tree] li[data-ctx="${r.context_id}"] > ol > li`);
      expect(await turns.count()).toBe(2);
      for (let i = 0; i < 2; i++) {
        const t = r.conversation_context[i]!;
        const text = await shown(turns.nth(i));
        const id = (await turns.nth(i).getAttribute("data-question-id"))!;
        expect(id).toMatch(/^Q\d{5}$/);
        // The id shown is the bank's id of the text shown beside it.
        expect(bank.get(id)).toBe(t.question);
        expect(text).toBe(`${id} ${t.question} → ${t.answer}`);
      }
      // The context pane's history names the same ids.
      expect(await app.page.locator("[data-test=history-question-id]").allInnerTexts()).toEqual(
        await Promise.all([0, 1].map(async (i) => (await turns.nth(i).getAttribute("data-question-id"))!)),
      );
    }, 180_000);

    it("Eval dicts ↔ Conversations: a multi-turn run's pick links to the context it was made in, and back (../shared)", async () => {
      const mt = await startExplorer([
        ...clariqDataArgs(),
        "--synthetic",
        join(tmp, "dev_synthetic.jsonl"),
        "--eval-dict",
        shared("golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz"),
        "--run",
        shared("data", "clariq", "sample_runs", "dev_bm25_multi_turn"),
      ]);
      try {
        // A multi-turn context (one asked already: ClariQ numbers those from 2000 on) the run picked in.
        const ctx = readFileSync(shared("data", "clariq", "sample_runs", "dev_bm25_multi_turn"), "utf8")
          .split("\n")
          .map((l) => l.split(" ")[0]!)
          .find((id) => Number(id) >= 4000)!;
        const entry = await json<{ metrics: { picks: { run: string; question: string | null }[] }[] }>(
          mt.base,
          `/api/evaldict/context?id=${ctx}`,
        );
        const conv = await json<{ history: unknown[] }>(
          mt.base,
          `/api/conversations/context?id=${ctx}&limit=1`,
        );
        expect(conv.history.length).toBeGreaterThan(0);
        const pick = entry.metrics[0]!.picks[0]!;
        expect(pick.run).toBe("dev_bm25_multi_turn");
        await open(app.page, mt.base, `#/evaldicts?ctx=${ctx}`, "evaldicts-multi-turn-pick-1400");
        const link = app.page.locator("[data-test=picks] [data-test=pick-conversation]").first();
        await link.click();
        await app.page.waitForFunction(() =>
          (globalThis as unknown as G).location.hash.startsWith("#/conversations"),
        );
        const hash = await app.page.evaluate(() => (globalThis as unknown as G).location.hash);
        expect(hash).toMatch(new RegExp(`[?&]ctx=${ctx}(&|$)`));
        await ready(app.page, hash);
        // That context, selected in its tree, with its history and records: not an empty pane.
        expect(await shown(app.page.locator("[data-test=context] h2"))).toBe(`Context ${ctx}`);
        expect(await app.page.locator("[data-test=context-tree] li.sel").getAttribute("data-ctx")).toBe(ctx);
        expect(await app.page.locator("[data-test=history-turn]").count()).toBe(conv.history.length);
        expect(await app.page.locator("[data-test=records] tbody tr").count()).toBeGreaterThan(0);
        // And back: the run's pick in this context, linked to the eval-dict entry that scores it.
        const picks = await shown(app.page.locator("[data-test=context-picks]"));
        expect(picks).toContain("dev_bm25_multi_turn");
        if (pick.question) expect(picks).toContain(pick.question);
        await app.page.screenshot({ path: join(SHOTS, "conversations-pick-context-1400.png") });
        await app.page.locator("[data-test=pick-to-evaldict]").first().click();
        await ready(app.page, `#/evaldicts?file=0&ctx=${ctx}`);
        expect(await shown(app.page.locator("[data-test=eval-entry] h2"))).toContain(ctx);
      } finally {
        await stopExplorer(mt.server);
      }
    }, 120_000);

    it("Runs: the difference chart's topic labels never overlap nor leave the chart, first and last named, at 400 and 1400 px (../shared)", async () => {
      for (const width of [400, 1400]) {
        await app.page.setViewportSize({ width, height: 900 });
        // A fresh load: the chart is drawn for the width it opens at.
        await app.page.goto("about:blank");
        await open(app.page, app.base, "#/runs?measure=NDCG3");
        await app.page
          .locator("[data-test=delta-chart]")
          .screenshot({ path: join(SHOTS, `runs-chart-labels-${width}.png`) });
        const got = await app.page.evaluate(() => {
          type Box = { left: number; right: number; top: number; bottom: number };
          const d = (
            globalThis as unknown as {
              document: {
                querySelector(s: string): { getBoundingClientRect(): Box } | null;
                querySelectorAll(s: string): {
                  getBoundingClientRect(): Box;
                  textContent: string | null;
                  getAttribute(a: string): string | null;
                }[];
              };
            }
          ).document;
          const box = (b: Box) => ({ left: b.left, right: b.right, top: b.top, bottom: b.bottom });
          return {
            svg: box(d.querySelector("[data-test=delta-chart] svg")!.getBoundingClientRect()),
            labels: [...d.querySelectorAll("[data-test=delta-chart] text.xlab")].map((t) => ({
              text: t.textContent ?? "",
              ...box(t.getBoundingClientRect()),
            })),
            bars: [...d.querySelectorAll("[data-test=delta-chart] a.bar-link")].map((a) =>
              a.getAttribute("data-topic"),
            ),
          };
        });
        const { svg, labels, bars } = got;
        expect(bars.length).toBeGreaterThan(100);
        expect(labels.length).toBeGreaterThan(2);
        expect(labels[0]!.text).toBe(bars[0]);
        expect(labels.at(-1)!.text).toBe(bars.at(-1));
        const overlaps: string[] = [];
        for (let i = 0; i < labels.length; i++) {
          const a = labels[i]!;
          if (a.left < svg.left || a.right > svg.right || a.top < svg.top || a.bottom > svg.bottom)
            overlaps.push(`${width} px: ${a.text} outside the chart`);
          for (let j = i + 1; j < labels.length; j++) {
            const b = labels[j]!;
            if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
              overlaps.push(`${width} px: ${a.text} and ${b.text} overlap`);
          }
        }
        expect(overlaps).toEqual([]);
      }
      await app.page.setViewportSize({ width: 1400, height: 900 });
    }, 180_000);

    it("a 400 in JSON naming the parameter for each kind of bad parameter; the page shows it in its pane (../shared)", async () => {
      const cases: [string, string][] = [
        ["/api/dataset/topics?split=bogus", "split"],
        ["/api/conversations/topics?file=-1", "file"],
        ["/api/runs/deltas?b=0", "b"],
        ["/api/runs/deltas?b=7", "b"],
        ["/api/runs/deltas?measure=nDCG", "measure"],
        ["/api/dataset/topics?offset=abc", "offset"],
        ["/api/dataset/topic?id=8.5", "id"],
        ["/api/passages/docs?limit=99999", "limit"],
        ["/api/passages/docs?colour=red", "colour"],
      ];
      for (const [path, parameter] of cases) {
        const r = await raw(app.base, path);
        expect([path, r.status]).toEqual([path, 400]);
        expect(JSON.parse(r.body)).toMatchObject({ parameter });
      }
      for (const path of [
        "/api/dataset/topic?id=99999",
        "/api/conversations/topics?file=5",
        "/api/runs/topic?id=nope",
        "/api/evaldict/context?id=nope",
      ])
        expect([path, (await raw(app.base, path)).status]).toEqual([path, 404]);
      const long = await raw(app.base, `/api/passages/docs?q=${"x".repeat(70_000)}`);
      expect(long.status).toBe(414);
      expect(JSON.parse(long.body).error).toContain("at most");
      // The page: a readable line where the part failed, the rest of the view still there.
      await open(app.page, app.base, "#/conversations?file=5", "error-conversations-file5");
      expect(await shown(app.page.locator("main"))).not.toMatch(/Cannot read|undefined|TypeError/);
      expect(await shown(app.page.locator("[data-test=error]").first())).toContain("no synthetic set 5");
      await open(app.page, app.base, "#/runs?b=7", "error-runs-b7");
      expect(await app.page.locator("[data-test=significance] tbody tr").count()).toBeGreaterThan(0);
      expect(await shown(app.page.locator("[data-test=error]").first())).toMatch(/b must be 1 .*parameter b/);
      await open(app.page, app.base, `#/passages?q=${"x".repeat(9000)}`, "error-passages-long");
      expect(await shown(app.page.locator("[data-test=error]").first())).toContain("at most");
    }, 180_000);

    it("keyboard: Enter in the search keeps the focus there (digits are typed), Escape leaves it (../shared)", async () => {
      await open(app.page, app.base, "#/dataset", undefined);
      await app.page.keyboard.press("/");
      await app.page.keyboard.type("dinosaur");
      await app.page.keyboard.press("Enter");
      await ready(app.page, "#/dataset?q=dinosaur");
      await app.page.keyboard.type("2");
      expect(app.page.url()).toMatch(/#\/dataset\?q=dinosaur$/);
      expect(await app.page.locator("[data-test=search]").inputValue()).toBe("dinosaur2");
      await app.page.keyboard.press("Escape");
      await app.page.keyboard.press("4");
      await ready(app.page, "#/runs");
    });

    it("at 400 and 1400 px every view fits its width; screenshots of each (../shared)", async () => {
      const views = [
        "#/dataset?topic=8",
        "#/conversations?topic=8",
        "#/evaldicts?ctx=2005",
        "#/runs?topic=F0800",
        "#/passages?q=the",
      ];
      const ev = await json<{ items: { id: string }[] }>(
        app.base,
        "/api/evaldict/contexts?limit=1&offset=100",
      );
      views[2] = `#/evaldicts?ctx=${ev.items[0]!.id}`;
      for (const width of [1400, 400]) {
        await app.page.setViewportSize({ width, height: 900 });
        for (const v of views) {
          await open(app.page, app.base, v);
          const name = `${v.slice(2).split("?")[0]}-${width}`;
          await app.page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: width === 400 });
          expect([
            v,
            await app.page.evaluate(() => (globalThis as unknown as G).document.documentElement.scrollWidth),
          ]).toEqual([v, expect.any(Number)]);
          expect(
            await app.page.evaluate(() => (globalThis as unknown as G).document.documentElement.scrollWidth),
          ).toBeLessThanOrEqual(width);
          if (width === 400)
            expect(
              await app.page.evaluate(
                () =>
                  (globalThis as unknown as G).document.querySelector("header")!.getBoundingClientRect()
                    .height,
              ),
            ).toBeLessThan(90);
        }
      }
      await app.page.setViewportSize({ width: 1400, height: 900 });
    }, 120_000);

    it("Passages: a recomputed passage that differs says where, and the loaded model is named against 3.4.1 (../shared)", async () => {
      const docs = await json<{ items: { id: string }[] }>(app.base, "/api/passages/docs?limit=500");
      let found: string | undefined;
      for (const d of docs.items) {
        const v = await json<{
          official: { vs: { same: boolean | null; diff?: { note: string } }[] }[] | null;
        }>(app.base, `/api/passages/doc?id=${encodeURIComponent(d.id)}`);
        if (v.official?.some((o) => o.vs.some((x) => x.same === false && x.diff))) {
          found = d.id;
          break;
        }
      }
      expect(found).toBeDefined();
      await open(app.page, app.base, `#/passages?doc=${encodeURIComponent(found!)}`, "passages-diff-1400");
      expect(await shown(app.page.locator("[data-test=model-note]"))).toContain(
        "en_core_web_sm 3.4.1; this page loaded en_core_web_sm 3.8.0",
      );
      expect(await shown(app.page.locator("[data-test=passage-diff]").first())).toMatch(/boundary|sentence/);
    }, 120_000);

    it("--static: no path of this machine inside, its items open, the rest marked as needing the server (../shared)", async () => {
      const out = join(tmp, "runs.html");
      const r = runCli("explore", [
        "--data",
        shared("data", "clariq"),
        ...clariqRunArgs(),
        "--static",
        out,
        "--view",
        "#/runs?measure=P1&b=1",
      ]);
      expect(r.code, r.stderr).toBe(0);
      const html = readFileSync(out, "utf8");
      for (const p of [REPO, SHARED, tmpdir(), tmp, "/work/", "/home/", "/tmp/"])
        expect([p, html.includes(p)]).toEqual([p, false]);
      const p = await app.browser.newPage({ viewport: { width: 1400, height: 900 } });
      await p.goto(`file://${out}`);
      await ready(p, "#/runs?measure=P1&b=1");
      expect(await shown(p.locator("[data-test=static-hint]"))).toContain("#/runs?measure=P1&b=1");
      await p.locator("[data-test=delta-topics] a").first().click();
      await p.waitForFunction(() => (globalThis as unknown as G).location.hash.includes("topic="));
      await ready(p, await p.evaluate(() => (globalThis as unknown as G).location.hash));
      expect(await p.locator("[data-test=ranking] tbody tr").count()).toBeGreaterThan(0);
      await p.screenshot({ path: join(SHOTS, "static-runs-topic-1400.png") });
      // Another view is not in it: said in its place, the page (header, nav) stays.
      await p.goto(`file://${out}#/dataset`);
      await ready(p, "#/dataset");
      expect(await shown(p.locator("[data-test=needs-server]").first())).toContain("live server");
      expect(await p.locator("header nav a").count()).toBe(6);
      await p.close();
    }, 120_000);
  });
});

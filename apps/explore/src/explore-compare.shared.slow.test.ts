// Issue #42, runs compared diffir-style, in Chromium on ../shared: every value shown checked against the
// raw run files, the upstream evaluator's .eval files, dev.tsv and the eval dict read by Python's pickle.

import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requires, shared, tempDir } from "@convkit/test-helpers";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import {
  clariqRunArgs,
  csvOf,
  ExplorerSession,
  open,
  ready,
  SHOTS,
  shown,
  startExplorer,
  stopExplorer,
} from "./harness.js";

const app = new ExplorerSession();

const runFile = (name: string) => shared("data", "clariq", "sample_runs", name);

/** A ClariQ run's ranking per topic, as the tool ranks it: by score, highest first, ties in file order. */
function ranking(name: string): Map<string, string[]> {
  const by = new Map<string, { q: string; score: number }[]>();
  for (const line of readFileSync(runFile(name), "utf8").split("\n")) {
    if (!line.trim()) continue;
    const [topic, , q, , score] = line.split(" ");
    const l = by.get(topic!) ?? [];
    l.push({ q: q!, score: Number(score) });
    by.set(topic!, l);
  }
  return new Map([...by].map(([t, l]) => [t, l.sort((a, b) => b.score - a.score).map((x) => x.q)]));
}

/** The upstream evaluator's per-facet values of a run (its .eval file): measure → facet → value. */
const evalFile = (name: string) =>
  JSON.parse(readFileSync(runFile(`${name}.eval`), "utf8")) as Record<string, Record<string, number>>;

/** dev.tsv's answer of each question for one facet (its first row). */
function answers(facet: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const l of readFileSync(shared("data", "clariq", "dev.tsv"), "utf8")
    .split("\n")
    .slice(1)) {
    const c = l.split("\t");
    if (c[4] === facet && !m.has(c[6]!)) m.set(c[6]!, c[8]!);
  }
  return m;
}

/** One facet's with_answer values in one metric of the single-turn dict, read by Python's own pickle. */
function dictValues(facet: string, metric: string): Map<string, number> {
  const py = spawnSync("python3", [
    "-c",
    "import pickle,json,sys; d=pickle.load(open(sys.argv[1],'rb')); print(json.dumps({q:v['with_answer'] for q,v in d[sys.argv[3]][sys.argv[2]].items() if q not in ('MAX','MIN')}))",
    shared("golden", "clariq-eval", "eval_dicts", "single_turn_train_eval.pkl"),
    facet,
    metric,
  ]);
  expect(py.status, py.stderr.toString()).toBe(0);
  return new Map(Object.entries(JSON.parse(py.stdout.toString()) as Record<string, number>));
}

/** Each context's pick (a run has one line per context), as a bank id ("" when not in the bank). */
function pickOf(ls: string[]): Map<string, string> {
  const bank = new Map(
    readFileSync(shared("data", "clariq", "question_bank.tsv"), "utf8")
      .split("\n")
      .slice(1)
      .map((l) => l.split("\t").reverse() as [string, string]),
  );
  return new Map(ls.map((l) => [l.split(" ")[0]!, bank.get(/"(.*)"/.exec(l)![1]!) ?? ""]));
}

/**
 * The multi-turn dict's NDCG1 value of both runs' picks in each context either run picked in (MIN
 * when the dict lacks the pick, 0 when a run has no line for the context: the tool's rules), read
 * by Python's pickle from the archive; contexts the dict lacks are left out.
 */
function multiTurnValues(pa: Map<string, string>, pb: Map<string, string>): Record<string, [number, number]> {
  const picks = Object.fromEntries(
    [...new Set([...pa.keys(), ...pb.keys()])].map((c) => [c, [pa.get(c) ?? null, pb.get(c) ?? null]]),
  );
  const py = spawnSync(
    "python3",
    [
      "-c",
      `import tarfile,pickle,json,sys
t=tarfile.open(sys.argv[1]); m=[x for x in t.getmembers() if x.isfile()][0]; d=pickle.load(t.extractfile(m))
picks=json.loads(sys.stdin.read())
v=lambda ctx,q: 0 if q is None else (d['NDCG1'][ctx][q] if q in d['NDCG1'][ctx] else d['NDCG1'][ctx]['MIN'])['with_answer']
print(json.dumps({c:[v(int(c),p[0]),v(int(c),p[1])] for c,p in picks.items() if int(c) in d['NDCG1']}))`,
      shared("golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz"),
    ],
    { input: JSON.stringify(picks), maxBuffer: 64 << 20 },
  );
  expect(py.status, py.stderr.toString()).toBe(0);
  return JSON.parse(py.stdout.toString()) as Record<string, [number, number]>;
}

const f4 = (x: number) => x.toFixed(4).replace(/\.?0+$/, (m) => (m.startsWith(".") ? "" : m));
/** A value as the page prints it (fmt: integers plain, others to 4 places). */
const shownNum = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(4));

requires("shared", "chromium", "python3").describe(
  "convkit-explore runs compared (issue #42) on ../shared in Chromium",
  () => {
    app.use(
      async () => {
        return ["--data", shared("data", "clariq"), ...clariqRunArgs()];
      },
      { timeout: 120_000 },
    );

    /** What the page's functions read of the browser's globals (this file is typed without the DOM). */
    interface El {
      textContent: string | null;
      innerText: string;
      getAttribute(a: string): string | null;
      querySelector(s: string): El | null;
      querySelectorAll(s: string): El[];
      getBoundingClientRect(): { top: number; bottom: number };
    }
    interface G {
      innerHeight: number;
      document: { querySelector(s: string): El | null; documentElement: { scrollWidth: number } };
    }
    /** Waits until the list's selected item is inside the list's box and the window (a shared URL's item). */
    const selectedInView = (p: Page) =>
      p.waitForFunction(
        () => {
          const doc = (globalThis as unknown as G).document;
          const item = doc.querySelector("[data-test=delta-topics] .item.sel")!.getBoundingClientRect();
          const box = doc.querySelector("[data-test=delta-topics]")!.getBoundingClientRect();
          const vh = (globalThis as unknown as G).innerHeight;
          return item.top >= box.top && item.bottom <= box.bottom && item.top >= 0 && item.bottom <= vh;
        },
        undefined,
        { timeout: 5000 },
      );

    /** The rows of one run's ranking table, read in one go: [rank, item id, answer, eval, moved, duplicate?]. */
    function rows(run: string) {
      return app.page.locator(`[data-test=ranking][data-run="${run}"] tbody`).evaluate((tb) =>
        [...(tb as unknown as El).querySelectorAll("tr")].map((tr) => {
          const td = [...tr.querySelectorAll("td")].map((c) => (c.textContent ?? "").trim());
          return {
            rank: Number(td[0]),
            item: tr.getAttribute("data-item")!,
            answer: td[2]!,
            eval: td[3]!,
            moved: td[5]!,
            dup: tr.querySelector("[data-test=dup]") !== null,
          };
        }),
      );
    }

    it("a facet: both runs' values, both rankings to a changed depth with answers, eval values, moves and duplicates (../shared)", async () => {
      const facet = "F0985";
      const topic = "8";
      await open(app.page, app.base, `#/runs?measure=MRR100&topic=${facet}`);
      // Every measure's value of the facet in both runs, as the upstream evaluator wrote them.
      const ev = [evalFile("dev_no_q"), evalFile("dev_bm25")];
      const vrows = app.page.locator("[data-test=facet-values] tbody tr");
      expect(await vrows.count()).toBe(Object.keys(ev[0]!).length);
      for (let i = 0; i < (await vrows.count()); i++) {
        const m = (await vrows.nth(i).getAttribute("data-measure"))!;
        const td = vrows.nth(i).locator("td");
        expect([m, await shown(td.nth(1)), await shown(td.nth(2))]).toEqual([
          m,
          shownNum(ev[0]![m]![facet]!),
          shownNum(ev[1]![m]![facet]!),
        ]);
      }
      const bm25 = ranking("dev_bm25").get(topic)!;
      const noq = ranking("dev_no_q").get(topic)!;
      expect(bm25.length).toBeGreaterThan(20);
      // Depth 20 by default, then 30 through the control (Enter), which goes into the URL.
      expect((await rows("dev_bm25")).map((r) => r.item)).toEqual(bm25.slice(0, 20));
      await app.page.locator("[data-test=depth]").fill("30");
      await app.page.locator("[data-test=depth]").press("Enter");
      await ready(app.page, `#/runs?measure=MRR100&topic=${facet}&depth=30`);
      const got = await rows("dev_bm25");
      expect(got.map((r) => [r.rank, r.item])).toEqual(bm25.slice(0, 30).map((q, i) => [i + 1, q]));
      expect((await rows("dev_no_q")).map((r) => r.item)).toEqual(noq.slice(0, 30));
      // Answers (dev.tsv) and eval-dict values (the pickle, MRR100 with an answer) beside each item.
      const ans = answers(facet);
      const dict = dictValues(facet, "MRR100");
      for (const r of got) {
        expect([r.item, r.answer]).toEqual([r.item, ans.get(r.item) ?? ""]);
        expect([r.item, r.eval]).toEqual([r.item, dict.has(r.item) ? shownNum(dict.get(r.item)!) : "–"]);
      }
      // The duplicates: exactly the items dev_bm25 ranks twice (Q01417 and Q02284 at ranks 12–15).
      const twice = new Set(bm25.slice(0, 30).filter((q, i, l) => l.indexOf(q) !== i));
      expect([...twice].sort()).toEqual(["Q01417", "Q02284"]);
      expect(got.filter((r) => r.dup).map((r) => r.rank)).toEqual(
        got.filter((r) => twice.has(r.item)).map((r) => r.rank),
      );
      expect(got.filter((r) => r.dup).map((r) => r.rank)).toEqual([12, 13, 14, 15]);
      // The ranking's CSV: the rows shown, the item's id and text apart, eval values in full.
      const csv = await csvOf(
        app.page.locator("[data-test=ranking][data-run=dev_bm25] [data-test=csv]").first(),
      );
      expect(csv[0]).toBe("rank,item id,item,answer,eval MRR100,score,moved");
      expect(csv.slice(1).map((l) => l.split(",")[1])).toEqual(bm25.slice(0, 30));
      const withValue = csv.slice(1).filter((l) => dict.has(l.split(",")[1]!));
      expect(withValue.length).toBeGreaterThan(0);
      for (const l of withValue) {
        const id = l.split(",")[1]!;
        expect([id, l.split(",").at(-3)]).toEqual([id, String(dict.get(id))]);
      }
      // What moved, against the baseline's whole ranking.
      for (const r of got) {
        const o = noq.indexOf(r.item) + 1;
        const d = o - r.rank;
        const arrow = d > 0 ? `▲${d}` : d < 0 ? `▼${-d}` : "=";
        expect([r.item, r.moved]).toEqual([
          r.item,
          o === 0 ? "new" : o > 30 ? `in ${arrow} (from ${o})` : arrow,
        ]);
      }
      for (const r of await rows("dev_no_q")) {
        const o = bm25.indexOf(r.item) + 1;
        expect([r.item, r.moved]).toEqual([r.item, o === 0 ? "dropped" : o > 30 ? `out → ${o}` : `→ ${o}`]);
      }
      // A depth the URL cannot mean is said, not mended to 20.
      await open(app.page, app.base, `#/runs?topic=${facet}&depth=abc`);
      expect(await shown(app.page.locator("[data-test=error]"))).toBe(
        'depth must be a whole number from 1 to 1000, not "abc"',
      );
      await open(app.page, app.base, `#/runs?measure=MRR100&topic=${facet}&depth=30`);
      // Question ids link to their page.
      expect(
        await app.page
          .locator("[data-test=ranking][data-run=dev_bm25] [data-test=question-link]")
          .first()
          .getAttribute("href"),
      ).toBe(`#/question?id=${bm25[0]}`);
      await app.page.screenshot({ path: join(SHOTS, "runs-compare-1400.png"), fullPage: true });
    }, 120_000);

    it("the facets ordered by how much the runs differ in the selected measure, |Δ| or Δ (../shared)", async () => {
      const [a, b] = [evalFile("dev_no_q").NDCG3!, evalFile("dev_bm25").NDCG3!];
      const facets = Object.keys(a).filter((f) => f in b);
      const byId = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
      const d = (f: string) => b[f]! - a[f]!;
      await open(app.page, app.base, "#/runs?measure=NDCG3");
      const ids = async () =>
        (await app.page.locator("[data-test=delta-topics] .item b").allInnerTexts()).map((s) => s.trim());
      expect(await ids()).toEqual([...facets].sort((x, y) => Math.abs(d(y)) - Math.abs(d(x)) || byId(x, y)));
      await app.page.locator("[data-test=delta-sort]").selectOption("delta");
      await ready(app.page, "#/runs?measure=NDCG3&sort=delta");
      expect(await ids()).toEqual([...facets].sort((x, y) => d(y) - d(x) || byId(x, y)));
      // Each item shows its signed Δ.
      const first = (await ids())[0]!;
      expect(await shown(app.page.locator("[data-test=delta-topics] .item").first())).toContain(f4(d(first)));
    }, 60_000);

    it("defects: a shared URL's facet in view and marked, a header on every CSV column, no hidden sideways scroll at 400 px (../shared)", async () => {
      // #/runs?topic=F0836 (the issue's): its item is selected and inside the list's visible box.
      await open(app.page, app.base, "#/runs?topic=F0836");
      const sel = app.page.locator("[data-test=delta-topics] .item.sel");
      expect(await shown(sel.locator("b"))).toBe("F0836");
      await selectedInView(app.page);
      // The significance CSV: a header for every column.
      const [head = ""] = await csvOf(
        app.page.locator("[data-test=significance]").locator("xpath=..").locator("[data-test=csv]"),
      );
      const header = head.split(",");
      expect(header.length).toBe(11);
      expect(header.filter((x) => x.trim() === "")).toEqual([]);
      await app.page.screenshot({ path: join(SHOTS, "runs-shared-url-1400.png") });
      // At 400 px the significance table shows mean, Δ, p and W/T/L without an inner sideways scroll.
      await app.page.setViewportSize({ width: 400, height: 900 });
      await open(app.page, app.base, "#/runs?topic=F0985&depth=16");
      const sig = app.page.locator("[data-test=significance]");
      const wrap = sig.locator("xpath=..");
      const [sw, cw] = await wrap.evaluate((e) => [e.scrollWidth, e.clientWidth]);
      expect(sw).toBeLessThanOrEqual(cw);
      const firstRow = sig.locator("tbody tr").first();
      for (const k of [4, 5, 6, 7, 10]) {
        const box = (await firstRow.locator("td").nth(k).boundingBox())!;
        expect([k, box.x >= 0 && box.x + box.width <= 400]).toEqual([k, true]);
      }
      for (const t of ["[data-test=facet-values]", "[data-test=ranking] table"]) {
        const w = app.page.locator(t).first().locator("xpath=..");
        const [s, c] = await w.evaluate((e) => [e.scrollWidth, e.clientWidth]);
        expect([t, s <= c]).toEqual([t, true]);
      }
      expect(
        await app.page.evaluate(() => (globalThis as unknown as G).document.documentElement.scrollWidth),
      ).toBeLessThanOrEqual(400);
      await app.page.screenshot({ path: join(SHOTS, "runs-compare-400.png"), fullPage: true });
      await app.page.setViewportSize({ width: 1400, height: 900 });
    }, 60_000);

    it("a multi-turn pair: each run's pick per context side by side, with the dict's values; contexts ordered by |Δ| (../shared)", async () => {
      // Two multi-turn runs as the sample ones are made (a pick per context), on their first 150 contexts.
      const tmp = tempDir("explore-compare-");
      // Lines picking the empty question are left out: how pandas reads "" is the tool's own corner.
      const lines = (name: string) =>
        readFileSync(runFile(name), "utf8")
          .split("\n")
          .filter((l) => l.trim() && !l.includes('""'));
      const bm25 = lines("dev_bm25_multi_turn").slice(0, 150);
      const ctxs = new Set(bm25.map((l) => l.split(" ")[0]!));
      const best = lines("dev_best_question_multi_turn").filter((l) => ctxs.has(l.split(" ")[0]!));
      const a = join(tmp, "mt_bm25");
      const b = join(tmp, "mt_best");
      writeFileSync(a, `${bm25.join("\n")}\n`);
      writeFileSync(b, `${best.join("\n")}\n`);
      const [pa, pb] = [pickOf(bm25), pickOf(best)];
      const vals = multiTurnValues(pa, pb);
      const mt = await startExplorer([
        "--data",
        shared("data", "clariq"),
        "--eval-dict",
        shared("golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz"),
        "--run",
        a,
        "--run",
        b,
      ]);
      try {
        // Contexts ordered by |Δ NDCG1|, largest first (ties by id), as the dict's values give them.
        await open(app.page, mt.base, "#/runs?measure=NDCG1");
        const byId = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
        const d = (c: string) => vals[c]![1] - vals[c]![0];
        const order = Object.keys(vals).sort((x, y) => Math.abs(d(y)) - Math.abs(d(x)) || byId(x, y));
        expect(
          (await app.page.locator("[data-test=delta-topics] .item b").allInnerTexts()).map((x) => x.trim()),
        ).toEqual(order);
        // The context that differs most, whose picks differ: both picks side by side with their values.
        const ctx = order.find((c) => pa.get(c) && pb.get(c) && pa.get(c) !== pb.get(c))!;
        await open(app.page, mt.base, `#/runs?measure=NDCG1&topic=${ctx}`);
        expect(await shown(app.page.locator("[data-test=topic-rankings] h3"))).toBe(
          `Context ${ctx} · each run's pick`,
        );
        const [ra, rb] = [await rows("mt_bm25"), await rows("mt_best")];
        expect([ra.map((r) => r.item), rb.map((r) => r.item)]).toEqual([[pa.get(ctx)], [pb.get(ctx)]]);
        expect([ra[0]!.eval, rb[0]!.eval]).toEqual(vals[ctx]!.map(shownNum));
        const row = app.page.locator("[data-test=facet-values] tr[data-measure=NDCG1] td");
        expect([await shown(row.nth(1)), await shown(row.nth(2))]).toEqual(vals[ctx]!.map(shownNum));
        await app.page.screenshot({ path: join(SHOTS, "runs-compare-multi-turn-1400.png") });
      } finally {
        await stopExplorer(mt.server);
      }
    }, 180_000);

    it("the full multi-turn pair (~15,000 contexts): the list paged in the whole list's order, a shared context's page opened (../shared)", async () => {
      const tmp = tempDir("explore-compare-");
      const lines = (name: string) =>
        readFileSync(runFile(name), "utf8")
          .split("\n")
          .filter((l) => l.trim() && !l.includes('""'));
      const [la, lb] = [lines("dev_bm25_multi_turn"), lines("dev_best_question_multi_turn")];
      const [a, b] = [join(tmp, "mt_bm25"), join(tmp, "mt_best")];
      writeFileSync(a, `${la.join("\n")}\n`);
      writeFileSync(b, `${lb.join("\n")}\n`);
      const vals = multiTurnValues(pickOf(la), pickOf(lb));
      const byId = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
      const d = (c: string) => vals[c]![1] - vals[c]![0];
      const order = Object.keys(vals).sort((x, y) => Math.abs(d(y)) - Math.abs(d(x)) || byId(x, y));
      expect(order.length).toBeGreaterThan(10_000);
      /** The Runs list's page (PAGE.contexts of src/views.ts). */
      const size = 200;
      const mt = await startExplorer([
        "--data",
        shared("data", "clariq"),
        "--eval-dict",
        shared("golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz"),
        "--run",
        a,
        "--run",
        b,
      ]);
      const ids = async () =>
        (await app.page.locator("[data-test=delta-topics] .item b").allInnerTexts()).map((x) => x.trim());
      const pager = app.page
        .locator("[data-test=delta-topics]")
        .locator("xpath=..")
        .locator("[data-test=pager]");
      try {
        // The first page: one page of rows (not all ~15,000), the whole list's first in its order.
        const t0 = Date.now();
        await app.page.goto(`${mt.base}#/runs?measure=NDCG1`);
        await ready(app.page, "#/runs?measure=NDCG1");
        // Drawn: laid out and painted (the next frame after the page says it is ready).
        await app.page.evaluate(
          () =>
            new Promise((done) => {
              const raf = (globalThis as unknown as { requestAnimationFrame(f: () => void): void })
                .requestAnimationFrame;
              raf(() => raf(() => done(null)));
            }),
        );
        console.log(`full multi-turn pair: first page of the Runs view drawn in ${Date.now() - t0} ms`);
        expect(await app.page.locator("[data-test=delta-topics] .item").count()).toBeLessThanOrEqual(size);
        expect(await ids()).toEqual(order.slice(0, size));
        expect(await shown(pager)).toContain(`1–${size} of ${order.length.toLocaleString("en")} items`);
        // The second page continues it.
        await pager.locator("[data-test=next-page]").click();
        await ready(app.page, `#/runs?measure=NDCG1&offset=${size}`);
        expect(await ids()).toEqual(order.slice(size, 2 * size));
        // A shared URL of a context deep in the list: its page, the context marked and in view.
        const x = order[2 * size + 57]!;
        await open(app.page, mt.base, `#/runs?measure=NDCG1&topic=${x}`);
        expect(await ids()).toEqual(order.slice(2 * size, 3 * size));
        expect(await shown(app.page.locator("[data-test=delta-topics] .item.sel b"))).toBe(x);
        await selectedInView(app.page);
      } finally {
        await stopExplorer(mt.server);
      }
    }, 180_000);
  },
);

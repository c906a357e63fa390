import { readFileSync } from "node:fs";
import { join } from "node:path";
import { python, requires, shared } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import {
  clariqDataArgs,
  clariqRunArgs,
  devSynthetic,
  ExplorerSession,
  open,
  ready,
  SHOTS,
  shown,
} from "./harness.js";

const app = new ExplorerSession();

/** gen:synthetic's dev set, as the explorer reads it. */
let synthetic: string;

/** A ClariQ TSV's rows as objects by its header (no quoting in ClariQ's files: tabs split). */
function tsv(name: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(shared("data", "clariq", name), "utf8").split("\n");
  const cols = head!.split("\t");
  return lines
    .filter((l) => l !== "")
    .map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i]!, v])));
}
const SPLIT_FILES = { train: "train.tsv", dev: "dev.tsv", test: "test_with_labels.tsv" } as const;
const rowsOf = (split: keyof typeof SPLIT_FILES): Record<string, string>[] =>
  tsv(SPLIT_FILES[split]).map((r) => ({ ...r, split }));

/** What the page's functions read of the browser's globals (this file is typed without the DOM). */
interface G {
  location: { hash: string };
  document: {
    documentElement: { scrollWidth: number };
    querySelector(s: string): El | null;
  };
}
interface El {
  scrollTop: number;
  getBoundingClientRect(): { top: number; bottom: number };
  querySelector(s: string): El | null;
}

/** The single-turn eval dict as CPython unpickles it: per metric, per facet, per question, with_answer. */
function dictByPython(): Record<string, Record<string, Record<string, number>>> {
  return JSON.parse(
    python(
      "import pickle,json,sys\n" +
        "d=pickle.load(open(sys.argv[1],'rb'))\n" +
        "print(json.dumps({m:{c:{q:v['with_answer'] for q,v in x.items()} for c,x in y.items()} for m,y in d.items()}))",
      undefined,
      [shared("golden", "clariq-eval", "eval_dicts", "single_turn_train_eval.pkl")],
    ),
  );
}

/** A ClariQ run's pick per topic: its question of the lowest rank (ties: the first line). */
function picksOf(run: string): Map<string, string> {
  const best = new Map<string, [number, string]>();
  for (const l of readFileSync(shared("data", "clariq", "sample_runs", run), "utf8").split("\n")) {
    const [t, , q, rank] = l.split(" ");
    if (!t || !q) continue;
    if (!best.has(t) || Number(rank) < best.get(t)![0]) best.set(t, [Number(rank), q]);
  }
  return new Map([...best].map(([t, [, q]]) => [t, q]));
}

requires("shared", "chromium", "python3").describe(
  "convkit-explore lists (issue #42) on ../shared in Chromium",
  () => {
    app.use(async () => {
      synthetic = join(await devSynthetic("jsonl"), "dev_synthetic.jsonl");
      return [
        ...clariqDataArgs(),
        "--synthetic",
        synthetic,
        // The single-turn dict and two dev runs (their picks for the "far from MAX" filter).
        ...clariqRunArgs(),
      ];
    });

    const all = () => [...rowsOf("train"), ...rowsOf("dev"), ...rowsOf("test")];
    const topicIds = (rows: Record<string, string>[]) =>
      [...new Set(rows.map((r) => Number(r.topic_id)))].sort((a, b) => a - b);
    const listIds = async () =>
      (await app.page.locator("[data-test=topics] a b").allInnerTexts()).map((s) => Number(s));

    describe("Dataset: search, split, sort, column summaries", () => {
      it("finds a topic by a Qulac id (8-1-1) and by a question id, as qulac.json and the TSVs say (../shared)", async () => {
        const cols = JSON.parse(readFileSync(shared("data", "qulac", "qulac.json"), "utf8")) as Record<
          string,
          Record<string, string | number>
        >;
        const key = Object.keys(cols.topic_facet_question_id!).find(
          (k) => cols.topic_facet_question_id![k] === "8-1-1",
        )!;
        await open(app.page, app.base, "#/dataset?q=8-1-1");
        expect(await listIds()).toEqual([Number(cols.topic_id![key])]);
        const withQ = topicIds(all().filter((r) => r.question_id === "Q00706"));
        await open(app.page, app.base, "#/dataset?q=Q00706");
        expect(await listIds()).toEqual(withQ);
      });

      it("the split is a control; a word within dev: its topics, and the summaries over all of them (../shared)", async () => {
        await open(app.page, app.base, "#/dataset?q=dog");
        await app.page.locator("[data-test=split]").selectOption("dev");
        await ready(app.page, "#/dataset?q=dog&split=dev");
        const dev = rowsOf("dev");
        const text = (r: Record<string, string>) =>
          [r.initial_request, r.topic_desc, r.facet_id, r.facet_desc, r.question, r.answer, r.question_id]
            .join("\n")
            .toLowerCase();
        const ids = new Set(dev.filter((r) => text(r).includes("dog")).map((r) => r.topic_id));
        const rows = dev.filter((r) => ids.has(r.topic_id));
        expect(ids.size).toBeGreaterThan(1);
        expect(await listIds()).toEqual(topicIds(rows));
        // Column summaries over the whole filtered list (here one page), counted from dev.tsv.
        const need = new Map<string, number>();
        for (const t of ids) {
          const n = rows.find((r) => r.topic_id === t)!.clarification_need!;
          need.set(n, (need.get(n) ?? 0) + 1);
        }
        // The summaries come after the list is drawn.
        await app.page.locator("[data-test=summary-need] .bar-row").first().waitFor({ state: "attached" });
        const bar = async (test: string) =>
          Object.fromEntries(
            await app.page
              .locator(`[data-test=${test}] .bar-row`)
              .evaluateAll((els) =>
                els.map((e) => [e.getAttribute("data-key"), Number(e.getAttribute("data-count"))]),
              ),
          );
        expect(await bar("summary-need")).toEqual(Object.fromEntries([...need].sort()));
        const first = (a: string) => /^\s*([a-z]+)/i.exec(a)?.[1]?.toLowerCase();
        expect(await bar("summary-answers")).toEqual({
          yes: rows.filter((r) => first(r.answer!) === "yes").length,
          no: rows.filter((r) => first(r.answer!) === "no").length,
          other: rows.filter((r) => !["yes", "no"].includes(first(r.answer!) ?? "")).length,
        });
        const len = [...rows.map((r) => [...r.question!].length)].sort((a, b) => a - b);
        const mid = len.length >> 1;
        const l = app.page.locator("[data-test=summary-question-length]");
        expect([
          await l.getAttribute("data-min"),
          await l.getAttribute("data-median"),
          await l.getAttribute("data-max"),
        ]).toEqual(
          [len[0], len.length % 2 ? len[mid] : (len[mid - 1]! + len[mid]!) / 2, len.at(-1)].map(String),
        );
      });

      it("sorts by a column on click and by keyboard, the whole list (aria-sort, sort in the URL) (../shared)", async () => {
        const rows = all();
        const need = new Map(rows.map((r) => [Number(r.topic_id), Number(r.clarification_need)]));
        const byNeed = topicIds(rows).sort((a, b) => need.get(a)! - need.get(b)! || a - b);
        await open(app.page, app.base, "#/dataset");
        await app.page.locator("[data-test=sort] [data-sort=need] button").click();
        await ready(app.page, "#/dataset?sort=need");
        expect(await listIds()).toEqual(byNeed.slice(0, 100));
        expect(await app.page.locator("[data-sort=need]").getAttribute("aria-sort")).toBe("ascending");
        await app.page.locator("[data-test=sort] [data-sort=need] button").focus();
        await app.page.keyboard.press("Enter");
        await ready(app.page, "#/dataset?sort=-need");
        const desc = topicIds(rows).sort((a, b) => need.get(b)! - need.get(a)! || a - b);
        expect(await listIds()).toEqual(desc.slice(0, 100));
        expect(await app.page.locator("[data-sort=need]").getAttribute("aria-sort")).toBe("descending");
      });
    });

    describe("Eval dicts: search by id anywhere, by question id and text; a pick far from MAX", () => {
      const entries = async () => app.page.locator("[data-test=eval-contexts] a b").allInnerTexts();
      it("q=985 and q=Q00706 and a question's words find the entries that hold them, as pickle reads the dict (../shared)", async () => {
        const dict = dictByPython();
        const first = Object.values(dict)[0]!;
        const ids = Object.keys(first);
        await open(app.page, app.base, "#/evaldicts?q=985");
        expect(await entries()).toEqual(ids.filter((c) => c.includes("985")));
        const withQ = ids.filter((c) => "Q00706" in first[c]!);
        expect(withQ.length).toBeGreaterThan(0);
        await open(app.page, app.base, "#/evaldicts?q=Q00706");
        expect(await entries()).toEqual(withQ);
        // By text: the bank's questions holding the words, then the entries with any of them.
        const bank = tsv("question_bank.tsv").filter((r) => r.question?.toLowerCase().includes("appraisal"));
        expect(bank.length).toBeGreaterThan(0);
        const byText = ids.filter((c) => bank.some((b) => b.question_id! in first[c]!));
        expect(byText.length).toBeGreaterThan(0);
        await open(app.page, app.base, "#/evaldicts?q=Appraisal");
        expect(await entries()).toEqual(byText);
      });

      it("far=50: the entries where a run's pick scores 0.5 or more below MAX, from the dict and the runs' files (../shared)", async () => {
        const dict = dictByPython();
        const metric = Object.keys(dict)[0]!;
        const topicOf = new Map(rowsOf("dev").map((r) => [r.facet_id!, r.topic_id!]));
        const runs = ["dev_no_q", "dev_bm25"].map(picksOf);
        const far = Object.entries(dict[metric]!).flatMap(([c, qs]) => {
          const values = runs.flatMap((r) => {
            const q = r.get(topicOf.get(c) ?? "");
            return q === undefined ? [] : [q in qs ? qs[q]! : qs.MIN!];
          });
          return values.length > 0 && qs.MAX! - Math.min(...values) >= 0.5 - 1e-12 ? [c] : [];
        });
        expect(far.length).toBeGreaterThan(0);
        await open(app.page, app.base, "#/evaldicts");
        await app.page.locator("[data-test=far]").selectOption("50");
        await ready(app.page, "#/evaldicts?far=50");
        expect(await entries()).toEqual(far);
        expect(await shown(app.page.locator("[data-test=entry-hits]"))).toBe(`${far.length} entries`);
      });

      it("sorts the entries by candidate count (whole list, descending on a second click) and counts them per entry, as pickle reads the dict (../shared)", async () => {
        const first = Object.values(dictByPython())[0]!;
        const n = new Map(
          Object.entries(first).map(([c, qs]) => [
            c,
            Object.keys(qs).filter((q) => q !== "MAX" && q !== "MIN").length,
          ]),
        );
        const ids = [...n.keys()];
        await open(app.page, app.base, "#/evaldicts");
        await app.page.locator("[data-test=sort] [data-sort=candidates] button").click();
        await ready(app.page, "#/evaldicts?sort=candidates");
        await app.page.locator("[data-test=sort] [data-sort=candidates] button").click();
        await ready(app.page, "#/evaldicts?sort=-candidates");
        // Ties keep the dict's order (a stable sort), as the explorer's.
        const desc = [...ids].sort((a, b) => n.get(b)! - n.get(a)!);
        expect(await entries()).toEqual(desc.slice(0, 200));
        expect(await app.page.locator("[data-sort=candidates]").getAttribute("aria-sort")).toBe("descending");
        const hist = new Map<number, number>();
        for (const v of n.values()) hist.set(v, (hist.get(v) ?? 0) + 1);
        // More than one count, so the order says something (5, 6 and 7 candidates in the dev dict).
        expect(hist.size).toBeGreaterThan(1);
        await app.page
          .locator("[data-test=summary-candidates] .bar-row")
          .first()
          .waitFor({ state: "attached" });
        expect(
          Object.fromEntries(
            await app.page
              .locator("[data-test=summary-candidates] .bar-row")
              .evaluateAll((els) =>
                els.map((e) => [e.getAttribute("data-key"), Number(e.getAttribute("data-count"))]),
              ),
          ),
        ).toEqual(Object.fromEntries([...hist].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), v])));
      });
    });

    describe("Conversations: a search and a level filter", () => {
      it("level=2 and a word: the topics with such contexts and their counts, as the JSONL and dev.tsv say (../shared)", async () => {
        // gen:synthetic's records, read here: per context its topic, facet and history.
        const ctx = new Map<number, { topic: number; level: number; text: string }>();
        for (const l of readFileSync(synthetic, "utf8").split("\n")) {
          // One record per context is enough (a context's records share its history): parse that one.
          const id = /"context_id":(\d+)/.exec(l)?.[1];
          if (id === undefined || ctx.has(Number(id))) continue;
          const r = JSON.parse(l) as {
            topic_id: number;
            context_id: number;
            conversation_context: { question: string; answer: string }[];
          };
          ctx.set(r.context_id, {
            topic: r.topic_id,
            level: r.conversation_context.length,
            text: r.conversation_context
              .map((t) => `${t.question}\n${t.answer}`)
              .join("\n")
              .toLowerCase(),
          });
        }
        const texts = new Map<number, string[]>();
        for (const r of rowsOf("dev")) {
          const t = texts.get(Number(r.topic_id)) ?? [];
          texts.set(Number(r.topic_id), [...t, r.initial_request!, r.facet_id!, r.facet_desc!]);
        }
        const topicText = (t: number) => (texts.get(t) ?? []).join("\n").toLowerCase();
        const expected = (word: string) => {
          const n = new Map<number, number>();
          for (const c of ctx.values())
            if (c.level === 2 && (topicText(c.topic).includes(word) || c.text.includes(word)))
              n.set(c.topic, (n.get(c.topic) ?? 0) + 1);
          return [...n].sort((a, b) => a[0] - b[0]);
        };
        const got = async () =>
          (await app.page.locator("[data-test=conv-topics] a").allInnerTexts()).map((t) => [
            Number(/^\d+/.exec(t)![0]),
            Number(/([\d,]+) contexts/.exec(t)![1]!.replace(/,/g, "")),
          ]);
        await open(app.page, app.base, "#/conversations");
        await app.page.locator("[data-test=level]").selectOption("2");
        await ready(app.page, "#/conversations?level=2");
        expect(await got()).toEqual(expected("").slice(0, 100));
        await app.page.keyboard.press("/");
        await app.page.keyboard.type("dog");
        await app.page.keyboard.press("Enter");
        await ready(app.page, "#/conversations?level=2&q=dog");
        const dog = expected("dog");
        expect(dog.length).toBeGreaterThan(0);
        expect(await got()).toEqual(dog);
        // Opening a topic keeps the filters in the URL.
        await app.page.keyboard.press("Escape");
        await app.page.keyboard.press("j");
        await app.page.keyboard.press("Enter");
        await ready(app.page, `#/conversations?q=dog&level=2&topic=${dog[0]![0]}`);
      });
    });

    describe("Conversations: sort, column summaries", () => {
      /** gen:synthetic's JSONL read here: per context its topic, level and records; per topic its request. */
      function contextsOfJsonl() {
        const ctx = new Map<number, { topic: number; level: number; records: number }>();
        const requests = new Map<number, string>();
        for (const l of readFileSync(synthetic, "utf8").split("\n")) {
          if (l === "") continue;
          const r = JSON.parse(l) as {
            topic_id: number;
            context_id: number;
            initial_request: string;
            conversation_context: unknown[];
          };
          const c = ctx.get(r.context_id) ?? {
            topic: r.topic_id,
            level: r.conversation_context.length,
            records: 0,
          };
          c.records++;
          ctx.set(r.context_id, c);
          if (!requests.has(r.topic_id)) requests.set(r.topic_id, r.initial_request);
        }
        return { ctx, requests };
      }
      const count = <K>(keys: K[]) => {
        const m = new Map<K, number>();
        for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
        return m;
      };

      it("sorts the whole list by contexts (click, then Enter: descending); a level's summaries as the JSONL counts (../shared)", async () => {
        const { ctx, requests } = contextsOfJsonl();
        const perTopic = count([...ctx.values()].map((c) => c.topic));
        const ids = [...perTopic.keys()].sort((a, b) => a - b);
        const listed = async () =>
          (await app.page.locator("[data-test=conv-topics] a b").allInnerTexts()).map((s) => Number(s));
        await open(app.page, app.base, "#/conversations");
        await app.page.locator("[data-test=sort] [data-sort=contexts] button").click();
        await ready(app.page, "#/conversations?sort=contexts");
        const asc = [...ids].sort((a, b) => perTopic.get(a)! - perTopic.get(b)! || a - b);
        expect(await listed()).toEqual(asc.slice(0, 100));
        await app.page.locator("[data-test=sort] [data-sort=contexts] button").focus();
        await app.page.keyboard.press("Enter");
        await ready(app.page, "#/conversations?sort=-contexts");
        const desc = [...ids].sort((a, b) => perTopic.get(b)! - perTopic.get(a)! || a - b);
        expect(await listed()).toEqual(desc.slice(0, 100));
        expect(await app.page.locator("[data-sort=contexts]").getAttribute("aria-sort")).toBe("descending");
        // The whole set's summaries, counted from the JSONL.
        const bar = async (test: string) => {
          await app.page.locator(`[data-test=${test}] .bar-row`).first().waitFor({ state: "attached" });
          return Object.fromEntries(
            await app.page
              .locator(`[data-test=${test}] .bar-row`)
              .evaluateAll((els) =>
                els.map((e) => [e.getAttribute("data-key"), Number(e.getAttribute("data-count"))]),
              ),
          );
        };
        const sorted = (m: Map<number, number>) =>
          Object.fromEntries([...m].sort((a, b) => a[0] - b[0]).map(([k, v]) => [String(k), v]));
        const all = [...ctx.values()];
        expect(await bar("summary-level")).toEqual(sorted(count(all.map((c) => c.level))));
        expect(await bar("summary-records")).toEqual(sorted(count(all.map((c) => c.records))));
        // A level keeps the sort; the summaries follow the filter.
        await app.page.locator("[data-test=level]").selectOption("1");
        await ready(app.page, "#/conversations?sort=-contexts&level=1");
        const one = all.filter((c) => c.level === 1);
        expect(await bar("summary-level")).toEqual({ 1: one.length });
        expect(await bar("summary-records")).toEqual(sorted(count(one.map((c) => c.records))));
        const len = [...new Set(one.map((c) => c.topic))]
          .map((t) => [...requests.get(t)!].length)
          .sort((a, b) => a - b);
        const mid = len.length >> 1;
        const l = app.page.locator("[data-test=summary-request-length]");
        expect([
          await l.getAttribute("data-min"),
          await l.getAttribute("data-median"),
          await l.getAttribute("data-max"),
        ]).toEqual(
          [len[0], len.length % 2 ? len[mid] : (len[mid - 1]! + len[mid]!) / 2, len.at(-1)].map(String),
        );
        // Opening a topic keeps the sort and the level.
        const perTopic1 = count(one.map((c) => c.topic));
        const first = [...perTopic1.keys()].sort(
          (a, b) => perTopic1.get(b)! - perTopic1.get(a)! || a - b,
        )[0]!;
        expect((await listed())[0]).toBe(first);
        await app.page.locator("[data-test=conv-topics] a").first().click();
        await ready(app.page, `#/conversations?level=1&sort=-contexts&topic=${first}`);
      });
    });

    describe("state that slipped", () => {
      it("Escape leaves the search field and keeps the search; the next j, Enter opens the first hit (../shared)", async () => {
        const worm = topicIds(
          all().filter((r) => Object.values(r).join("\t").toLowerCase().includes("worm")),
        );
        expect(worm.length).toBeGreaterThan(0);
        // Typed, and then from a shared URL: the field is focused either way when Escape comes.
        await open(app.page, app.base, "#/dataset");
        await app.page.keyboard.press("/");
        await app.page.keyboard.type("worm");
        await app.page.keyboard.press("Enter");
        await ready(app.page, "#/dataset?q=worm");
        expect(await listIds()).toEqual(worm);
        await app.page.keyboard.press("Escape");
        await app.page.keyboard.press("j");
        await app.page.keyboard.press("Enter");
        await ready(app.page, `#/dataset?q=worm&topic=${worm[0]}&offset=0`);
        expect(await listIds()).toEqual(worm);
        await open(app.page, app.base, "#/dataset?q=worm");
        await app.page.locator("[data-test=search]").click();
        await app.page.keyboard.press("Escape");
        await app.page.keyboard.press("j");
        await app.page.keyboard.press("Enter");
        await ready(app.page, `#/dataset?q=worm&topic=${worm[0]}&offset=0`);
        expect(await listIds()).toEqual(worm);
        expect(await app.page.locator("[data-test=search]").inputValue()).toBe("worm");
      });

      it("a click deep in a list keeps the list where it was, the clicked item in view and marked (../shared)", async () => {
        await open(app.page, app.base, "#/dataset");
        const ids = await listIds();
        const deep = ids[80]!;
        await app.page.locator("[data-test=topics] a").nth(80).scrollIntoViewIfNeeded();
        const before = await app.page.evaluate(
          () => (globalThis as unknown as G).document.querySelector("[data-test=topics]")!.scrollTop,
        );
        expect(before).toBeGreaterThan(0);
        await app.page.locator("[data-test=topics] a").nth(80).click();
        await ready(app.page, `#/dataset?topic=${deep}&offset=0`);
        const after = await app.page.evaluate(() => {
          const l = (globalThis as unknown as G).document.querySelector("[data-test=topics]")!;
          const s = l.querySelector("a.sel")!.getBoundingClientRect();
          const box = l.getBoundingClientRect();
          return { top: l.scrollTop, inView: s.top >= box.top && s.bottom <= box.bottom };
        });
        expect(after).toEqual({ top: before, inView: true });
        expect(await shown(app.page.locator("[data-test=topics] a.sel b"))).toBe(String(deep));
      });

      it("a shared URL of a topic on page 3 opens that page with the topic marked and in view (../shared)", async () => {
        const ids = topicIds(all());
        const at = ids.indexOf(250);
        expect(at).toBeGreaterThanOrEqual(200);
        await open(app.page, app.base, "#/dataset?topic=250");
        expect(await shown(app.page.locator("[data-test=pager] span").first())).toMatch(/^201–/);
        expect(await shown(app.page.locator("[data-test=topics] a.sel b"))).toBe("250");
        const inView = await app.page.evaluate(() => {
          const l = (globalThis as unknown as G).document.querySelector("[data-test=topics]")!;
          const s = l.querySelector("a.sel")!.getBoundingClientRect();
          const box = l.getBoundingClientRect();
          return s.top >= box.top && s.bottom <= box.bottom;
        });
        expect(inView).toBe(true);
      });
    });

    it("at 1400 and 400 px the lists with their filters, sort and summaries fit the width; screenshots (../shared)", async () => {
      const views = [
        "#/dataset?q=dog&split=dev&sort=-need&topic=193",
        "#/conversations?q=dog&level=2&sort=-contexts",
        "#/evaldicts?q=Q00706&far=25&sort=-candidates",
      ];
      for (const width of [1400, 400]) {
        await app.page.setViewportSize({ width, height: 900 });
        for (const v of views) {
          await open(app.page, app.base, v);
          // The summaries open, as a reader opens them (every list has them).
          await app.page.locator("[data-test=summaries] .bar-row").first().waitFor({ state: "attached" });
          await app.page.locator("[data-test=summaries] summary").click();
          await app.page.screenshot({
            path: join(SHOTS, `lists-${v.slice(2).split("?")[0]}-${width}.png`),
            fullPage: false,
          });
          expect([
            v,
            await app.page.evaluate(() => (globalThis as unknown as G).document.documentElement.scrollWidth),
          ]).toEqual([v, expect.any(Number)]);
          expect(
            await app.page.evaluate(() => (globalThis as unknown as G).document.documentElement.scrollWidth),
          ).toBeLessThanOrEqual(width);
        }
      }
      await app.page.setViewportSize({ width: 1400, height: 900 });
    });
  },
);

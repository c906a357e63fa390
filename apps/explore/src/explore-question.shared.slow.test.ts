import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readPickleFile } from "@convkit/pickle";
import { requires, shared } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { clariqRunArgs, devSynthetic, ExplorerSession, open, raw, ready, SHOTS, shown } from "./harness.js";

const app = new ExplorerSession();

let tmp: string;

interface Row {
  topic: number;
  split: string;
  facet: string;
  facetDesc: string;
  qid: string;
  question: string;
  answer: string;
}

/** ClariQ's TSVs split by hand (tab-separated, a header line): every row, and the bank's texts. */
function clariqRows(): { rows: Row[]; bank: Map<string, string> } {
  const rows: Row[] = [];
  for (const [split, name] of [
    ["train", "train.tsv"],
    ["dev", "dev.tsv"],
    ["test", "test_with_labels.tsv"],
  ] as const) {
    const lines = readFileSync(shared("data", "clariq", name), "utf8").split("\n");
    const head = lines[0]!.split("\t");
    const col = (c: string) => head.indexOf(c);
    for (const l of lines.slice(1)) {
      if (l === "") continue;
      const f = l.split("\t");
      rows.push({
        topic: Number(f[col("topic_id")]),
        split,
        facet: f[col("facet_id")]!,
        facetDesc: f[col("facet_desc")]!,
        qid: f[col("question_id")]!,
        question: f[col("question")]!,
        answer: f[col("answer")]!,
      });
    }
  }
  const bank = new Map<string, string>();
  for (const l of readFileSync(shared("data", "clariq", "question_bank.tsv"), "utf8")
    .split("\n")
    .slice(1)) {
    const [id, ...text] = l.split("\t");
    if (id) bank.set(id, text.join("\t"));
  }
  return { rows, bank };
}

/** A run file as text: per topic, its question ids ordered by score, highest first (ties: file order). */
function runRanks(name: string): Map<string, string[]> {
  const by = new Map<string, { q: string; score: number }[]>();
  for (const l of readFileSync(shared("data", "clariq", "sample_runs", name), "utf8").split("\n")) {
    const f = l.trim().split(/\s+/);
    if (f.length < 6) continue;
    const list = by.get(f[0]!) ?? [];
    by.set(f[0]!, list);
    list.push({ q: f[2]!, score: Number(f[4]) });
  }
  return new Map([...by].map(([t, l]) => [t, [...l].sort((a, b) => b.score - a.score).map((x) => x.q)]));
}

/** A seeded choice (mulberry32): the same questions on every run, not one picked by hand. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Dict = Map<unknown, Map<unknown, Map<unknown, Map<unknown, unknown>>>>;

requires("shared", "chromium").describe(
  "convkit-explore: the page per question (issue #42) on ../shared",
  () => {
    app.use(async () => {
      tmp = await devSynthetic("jsonl");
      return [
        "--data",
        shared("data", "clariq"),
        "--synthetic",
        join(tmp, "dev_synthetic.jsonl"),
        ...clariqRunArgs(),
      ];
    });

    it("walks question → contexts → eval values → both runs' ranks → back, each value as the raw files have it", async () => {
      const { rows, bank } = clariqRows();
      const dict = (await readPickleFile(
        shared("golden", "clariq-eval", "eval_dicts", "single_turn_train_eval.pkl"),
      )) as Dict;
      const metrics = [...dict.keys()].map(String);
      const runs = { dev_no_q: runRanks("dev_no_q"), dev_bm25: runRanks("dev_bm25") };
      // The dict's candidates per question (any metric: their candidate lists differ).
      const inDict = new Map<string, Set<string>>();
      for (const byFacet of dict.values())
        for (const [facet, qs] of byFacet)
          for (const q of qs.keys())
            if (q !== "MAX" && q !== "MIN") {
              const s = inDict.get(String(q)) ?? new Set<string>();
              inDict.set(String(q), s);
              s.add(String(facet));
            }
      // The pool: dev questions the dict lists and bm25 ranks for their topic; two drawn with a fixed seed.
      const pool = [
        ...new Set(
          rows
            .filter(
              (r) =>
                r.split === "dev" &&
                r.qid !== "Q00001" &&
                inDict.get(r.qid)?.has(r.facet) &&
                runs.dev_bm25.get(String(r.topic))?.includes(r.qid),
            )
            .map((r) => r.qid),
        ),
      ].sort();
      expect(pool.length).toBeGreaterThan(20);
      const rnd = seeded(42);
      const picked = [pool[Math.floor(rnd() * pool.length)]!];
      while (picked.length < 2) {
        const q = pool[Math.floor(rnd() * pool.length)]!;
        if (!picked.includes(q)) picked.push(q);
      }

      // Where each picked question was asked or is a candidate, from the synthetic JSONL and ClariQ's rows.
      const idOf = (topic: number, facet: string, question: string, answer: string) => {
        const same = rows.filter((r) => r.topic === topic && r.facet === facet && r.question === question);
        const one = (l: Row[]) => (new Set(l.map((r) => r.qid)).size === 1 ? l[0]!.qid : undefined);
        return one(same) ?? one(same.filter((r) => r.answer === answer));
      };
      const expected = new Map<string, Set<string>>(picked.map((q) => [q, new Set()]));
      const level0 = new Map<string, Set<string>>(picked.map((q) => [q, new Set()]));
      const seen = new Set<number>();
      const pickedTexts = new Set(
        picked.flatMap((q) => rows.filter((r) => r.qid === q).map((r) => r.question)),
      );
      // Only lines holding a picked text (as JSON writes it) are parsed: 182k records are 89 MB.
      const needles = [...pickedTexts].map((t) => JSON.stringify(t));
      for (const l of readFileSync(join(tmp, "dev_synthetic.jsonl"), "utf8").split("\n")) {
        if (l === "" || !needles.some((x) => l.includes(x))) continue;
        const r = JSON.parse(l) as {
          topic_id: number;
          facet_id: string;
          context_id: number;
          question: string;
          answer: string;
          conversation_context: { question: string; answer: string }[];
        };
        const level = r.conversation_context.length;
        if (pickedTexts.has(r.question)) {
          const q = idOf(r.topic_id, r.facet_id, r.question, r.answer);
          if (q && expected.has(q)) {
            expected.get(q)!.add(`${r.context_id}|${r.topic_id}|${r.facet_id}|${level}|candidate`);
            if (level === 0) level0.get(q)!.add(r.facet_id);
          }
        }
        if (seen.has(r.context_id)) continue;
        seen.add(r.context_id);
        for (const [i, t] of r.conversation_context.entries()) {
          const q = pickedTexts.has(t.question)
            ? idOf(r.topic_id, r.facet_id, t.question, t.answer)
            : undefined;
          if (q && expected.has(q))
            expected
              .get(q)!
              .add(`${r.context_id}|${r.topic_id}|${r.facet_id}|${level}|asked (turn ${i + 1})`);
        }
      }
      // The dict's facets not already a level-0 synthetic context of the same facet: rows of their own.
      for (const q of picked)
        for (const f of inDict.get(q) ?? [])
          if (!level0.get(q)!.has(f)) {
            const t = rows.find((r) => r.facet === f)?.topic;
            expected.get(q)!.add(`${f}|${t ?? ""}|${f}|0|candidate`);
          }

      const rowTexts = (sel: string) =>
        app.page.$$eval(`${sel} tbody tr`, (trs) =>
          trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim())),
        );
      for (const [n, q] of picked.entries()) {
        const mine = rows.filter((r) => r.qid === q);
        const devTopic = mine.find((r) => r.split === "dev")!.topic;
        const qHash = `#/question?id=${q}`;
        // From the Dataset's row of the question, by keyboard: its id is a link.
        await open(app.page, app.base, `#/dataset?topic=${devTopic}`);
        const link = app.page.locator(`[data-test=qa] a[data-question-id=${q}]`).first();
        await link.focus();
        await app.page.keyboard.press("Enter");
        await ready(app.page, qHash);
        if (n === 0) await app.page.screenshot({ path: join(SHOTS, "question-1400.png"), fullPage: false });

        // The question's text and its answer per facet (every row of ClariQ's three files).
        expect(await shown(app.page.locator("[data-test=question-id]"))).toBe(q);
        expect((await shown(app.page.locator("[data-test=question-text]"))).trim()).toBe(bank.get(q)!.trim());
        const answers = await rowTexts("[data-test=question-answers]");
        expect(answers.map((r) => r.join("|")).sort()).toEqual(
          mine
            .map((r) =>
              [r.topic, r.split, r.facet, r.facetDesc, r.answer].map((x) => String(x).trim()).join("|"),
            )
            .sort(),
        );

        // Its contexts: how many, and each shown one (its id, topic, facet, level, role) as the files have it.
        const want = expected.get(q)!;
        expect(await shown(app.page.locator("[data-test=question-contexts-count] b"))).toBe(
          want.size.toLocaleString("en-US"),
        );
        const ctxRows = await rowTexts("[data-test=question-contexts]");
        expect(ctxRows.length).toBe(Math.min(100, want.size));
        // One cell per column (no multi-turn run loaded: no picks column).
        const ctxHead = await app.page.$$eval("[data-test=question-contexts] thead th", (ths) => ths.length);
        expect(ctxHead).toBe(6);
        for (const r of ctxRows) expect(r.length).toBe(ctxHead);
        for (const r of ctxRows)
          expect(want, r.join("|")).toContain([r[0]!.replace(/^context /, ""), ...r.slice(1, 5)].join("|"));

        // Its eval-dict values in each facet's entry, beside MAX and MIN, per metric: shown to 4 decimals, held in full.
        const sections = app.page.locator("[data-test=question-eval]");
        const facetsInDict = [...(inDict.get(q) ?? [])];
        // Every facet entry that lists it has its values on the first page (level-0 contexts come first).
        const keys = await sections.evaluateAll((s) => s.map((x) => x.getAttribute("data-key")!));
        expect([...keys].sort()).toEqual([...facetsInDict].sort());
        for (const key of keys) {
          expect(facetsInDict).toContain(key);
          const table = app.page.locator(
            `[data-test=question-eval][data-key=${key}] [data-test=question-eval-table]`,
          );
          const cells = await table.locator("tbody tr").evaluateAll((trs) =>
            trs.map((tr) =>
              [...tr.querySelectorAll("td")].map((td) => ({
                text: (td.textContent ?? "").trim(),
                value: td.querySelector("[data-value]")?.getAttribute("data-value") ?? null,
              })),
            ),
          );
          expect(cells.map((r) => r[0]!.text)).toEqual(metrics);
          for (const r of cells) {
            const entry = dict.get(r[0]!.text)!.get(key)!;
            const leaf = (k: string) => entry.get(k) as Map<unknown, unknown> | undefined;
            const wantCells = [
              leaf(q)?.get("no_answer"),
              leaf(q)?.get("with_answer"),
              leaf("MAX")?.get("no_answer"),
              leaf("MAX")?.get("with_answer"),
              leaf("MIN")?.get("no_answer"),
              leaf("MIN")?.get("with_answer"),
            ] as (number | undefined)[];
            for (const [k, v] of wantCells.entries()) {
              const c = r[k + 1]!;
              if (v === undefined) expect(c.text, `${key} ${r[0]!.text}`).toBe("not listed");
              else {
                expect(c.value, `${key} ${r[0]!.text} column ${k + 1}`).toBe(String(v));
                expect(c.text).toBe(Number.isInteger(v) ? v.toLocaleString("en-US") : v.toFixed(4));
              }
            }
          }
        }

        // Both runs' ranks: every topic where the question has a row, is a dict candidate or is ranked.
        const topics = new Set<string>([
          ...mine.map((r) => String(r.topic)),
          ...[...want].map((x) => x.split("|")[1]!),
          ...[...runs.dev_no_q, ...runs.dev_bm25].filter(([, l]) => l.includes(q)).map(([t]) => t),
        ]);
        const rankRows = await rowTexts("[data-test=question-ranks]");
        const wantRanks = [...topics]
          .filter((t) => runs.dev_no_q.has(t) || runs.dev_bm25.has(t))
          .sort((a, b) => Number(a) - Number(b))
          .map((t) => [
            t,
            ...[runs.dev_no_q, runs.dev_bm25].map((run) => {
              const l = run.get(t) ?? [];
              const at = l.flatMap((x, i) => (x === q ? [i + 1] : []));
              return at.length === 0
                ? `not ranked (${l.length} listed)`
                : `${at.join(", ")} of ${l.length}${at.length > 1 ? ` (listed ${at.length} times)` : ""}`;
            }),
          ]);
        expect(rankRows.map((r) => [r[0], r[2], r[3]])).toEqual(wantRanks);
        expect(await shown(app.page.locator("[data-test=question-ranks] thead"))).toMatch(
          /dev_no_q\s+dev_bm25/,
        );

        // A context's page and back; the dev topic's rankings (where the id links back here) and back.
        const ctx = app.page.locator("[data-test=context-link]").first();
        const ctxHash = `#${(await ctx.getAttribute("href"))!.replace(/^#/, "")}`;
        await ctx.click();
        await ready(app.page, ctxHash);
        expect(await app.page.locator(`a[data-question-id=${q}]`).count()).toBeGreaterThan(0);
        await app.page.goBack();
        await ready(app.page, qHash);
        const runsHash = `#/runs?topic=${devTopic}`;
        await app.page
          .locator(`[data-test=question-ranks] tr[data-topic="${devTopic}"] a[data-test=ranking-topic]`)
          .click();
        await ready(app.page, runsHash);
        await app.page.locator(`[data-test=ranking] a[data-question-id=${q}]`).first().click();
        await ready(app.page, qHash);
        await app.page.goBack();
        await ready(app.page, runsHash);
        await app.page.goBack();
        await ready(app.page, qHash);
        await app.page.goBack();
        await ready(app.page, `#/dataset?topic=${devTopic}`);
      }

      // At 400 px: the tables stack, nothing scrolls sideways.
      await app.page.setViewportSize({ width: 400, height: 800 });
      await open(app.page, app.base, `#/question?id=${picked[0]}`);
      await app.page.evaluate(() =>
        (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0),
      );
      await app.page.screenshot({ path: join(SHOTS, "question-400.png"), fullPage: false });
      expect(
        await app.page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
              .documentElement.scrollWidth,
        ),
      ).toBeLessThanOrEqual(400);
      await app.page.setViewportSize({ width: 1400, height: 900 });
    }, 120_000);

    it("answers a malformed or unknown id with a message naming the parameter, in JSON and on the page", async () => {
      for (const [id, status, text] of [
        ["abc", 400, 'id must be a question id (Q and digits, as Q00706), not "abc"'],
        ["Q99999", 404, "no question Q99999 in question_bank.tsv or ClariQ's rows"],
      ] as const) {
        const r = await raw(app.base, `/api/question?id=${id}`);
        expect(r.status).toBe(status);
        expect(JSON.parse(r.body)).toEqual({ error: text, parameter: "id" });
        await open(app.page, app.base, `#/question?id=${id}`);
        expect(await shown(app.page.locator("[data-test=error]"))).toBe(`${text} (${status}, parameter id)`);
      }
      await open(app.page, app.base, "#/question");
      expect(await shown(app.page.locator("[data-test=error]"))).toBe("id is required (400, parameter id)");
    });
  },
);

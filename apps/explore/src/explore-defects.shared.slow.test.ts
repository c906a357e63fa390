import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { requires, SHARED, shared } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import {
  clariqDataArgs,
  clariqRunArgs,
  csvOf,
  devSynthetic,
  ExplorerSession,
  open,
  passageArgs,
  raw,
  shown,
} from "./harness.js";

const app = new ExplorerSession();

let tmp: string;

/** What CPython's pickle reads in the two dicts: the keys and values the checks need. */
interface Dicts {
  /** single_turn_train_eval.pkl: NDCG1's facet keys. */
  singleFacets: string[];
  /** single_turn_train_eval.pkl: per metric, F0985's entries (MAX and MIN included), as repr() floats. */
  f0985: Record<string, Record<string, { no_answer: string; with_answer: string }>>;
  /** multi_turn_dev_eval.pkl: context 968's MAX and MIN under NDCG1. */
  c968: { MAX: { no_answer: number; with_answer: number }; MIN: { no_answer: number; with_answer: number } };
}
let dicts: Dicts;
const execFileAsync = promisify(execFile);

// A path only (shared() throws when it is missing): set while the file is collected, also where
// ../shared is not there and its tests are skipped.
const DICTS = join(SHARED, "golden", "clariq-eval", "eval_dicts");
/** The dicts read by CPython (stdlib pickle and tarfile): the upstream reader, not convkit's. */
async function readDicts(): Promise<Dicts> {
  const py = `
import json, pickle, sys, tarfile
single = pickle.load(open(sys.argv[1], "rb"))
t = tarfile.open(sys.argv[2])
multi = pickle.load(t.extractfile([m for m in t.getmembers() if m.isfile()][0]))
out = {
  "singleFacets": list(single["NDCG1"]),
  "f0985": {m: {q: {k: repr(v) for k, v in d.items()} for q, d in single[m]["F0985"].items()} for m in single},
  "c968": {k: multi["NDCG1"][968][k] for k in ("MAX", "MIN")},
}
print(json.dumps(out))
`;
  const { stdout } = await execFileAsync(
    "python3",
    ["-c", py, join(DICTS, "single_turn_train_eval.pkl"), join(DICTS, "multi_turn_dev_eval.pkl.tar.gz")],
    { maxBuffer: 1 << 26 },
  );
  return JSON.parse(stdout) as Dicts;
}

/** ClariQ's rows of train.tsv and dev.tsv (a TSV without quoting). */
function clariqRows(split: "train" | "dev"): Record<string, string>[] {
  const [head, ...lines] = readFileSync(shared("data", "clariq", `${split}.tsv`), "utf8")
    .trimEnd()
    .split("\n");
  const cols = head!.split("\t");
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i]!, v])));
}

/** A number as the page shows it (dom.ts fmt): whole numbers as such, others to 4 decimals. */
const fmt4 = (n: number) => (Number.isInteger(n) ? n.toLocaleString("en-US") : n.toFixed(4));

requires("shared", "chromium", "python3").describe(
  "convkit-explore: issue #42's defects on ../shared",
  () => {
    app.use(async () => {
      // CPython reads the dicts (5 s for the multi-turn one) while the set is made.
      const reading = readDicts();
      tmp = await devSynthetic("jsonl");
      dicts = await reading;
      return [
        ...clariqDataArgs(),
        "--synthetic",
        join(tmp, "dev_synthetic.jsonl"),
        "--eval-dict",
        join(DICTS, "multi_turn_dev_eval.pkl.tar.gz"),
        ...clariqRunArgs(),
        ...passageArgs(),
      ];
    });

    it("links a facet only to the dicts that hold it (topic 61's train facets: none; a dev facet: the single-turn dict)", async () => {
      const train = clariqRows("train");
      const facets = [...new Set(train.filter((r) => r.topic_id === "61").map((r) => r.facet_id!))];
      expect(facets.length).toBeGreaterThan(0);
      const inDict = new Set(dicts.singleFacets);
      for (const f of facets) expect(inDict.has(f)).toBe(false);
      await open(app.page, app.base, "#/dataset?topic=61");
      for (const f of facets) {
        const s = app.page.locator(`[data-test=facet][data-facet=${f}]`);
        expect(await s.locator("a[href*=evaldicts]").count(), f).toBe(0);
        expect(await shown(s.locator("[data-test=facet-no-evaldict]"))).toContain(
          "single_turn_train_eval.pkl",
        );
      }
      // A dev facet the dict holds: its link opens its entry (file 1: the dicts in the order given).
      const dev = clariqRows("dev").find((r) => inDict.has(r.facet_id!))!;
      await open(app.page, app.base, `#/dataset?topic=${dev.topic_id}`);
      const link = app.page.locator(
        `[data-test=facet][data-facet=${dev.facet_id}] [data-test=facet-evaldict]`,
      );
      expect(await link.getAttribute("href")).toBe(`#/evaldicts?file=1&ctx=${dev.facet_id}`);
    });

    it("counts the shown metric's candidates, shows MAX and MIN with both values, CSV at full precision", async () => {
      const mrr = dicts.f0985.MRR100!;
      const questions = Object.keys(mrr).filter((q) => q !== "MAX" && q !== "MIN");
      const ndcg = Object.keys(dicts.f0985.NDCG1!).filter((q) => q !== "MAX" && q !== "MIN");
      expect(questions.length).not.toBe(ndcg.length); // the case the issue names: 6 and 7
      await open(app.page, app.base, "#/evaldicts?file=1&ctx=F0985&metric=MRR100");
      expect(await shown(app.page.locator("[data-test=eval-title]"))).toBe(
        `F0985 · ${questions.length} candidate questions`,
      );
      expect(await app.page.locator("[data-test=eval-questions] tbody tr").count()).toBe(questions.length);
      // The CSV: header on every column, id and text apart, the values as CPython wrote them.
      const csv = await csvOf(
        app.page.locator("[data-test=eval-questions]").locator("xpath=..").locator("[data-test=csv]"),
      );
      expect(csv[0]).toBe("question id,question,no_answer,with_answer");
      expect(csv.length - 1).toBe(questions.length);
      for (const line of csv.slice(1)) {
        const cells = line.split(",");
        const id = cells[0]!;
        expect(id).toMatch(/^Q\d{5}$/);
        // Python's repr and JavaScript's String are both the shortest round-trip form.
        expect([cells.at(-2), cells.at(-1)].map(Number)).toEqual(
          [mrr[id]!.no_answer, mrr[id]!.with_answer].map(Number),
        );
        expect(cells.at(-1)).toBe(String(Number(mrr[id]!.with_answer)));
      }
      // Context 968 of the multi-turn dict: MAX's no_answer (0.5) shown beside its with_answer.
      await open(app.page, app.base, "#/evaldicts?ctx=968");
      const { MAX, MIN } = dicts.c968;
      expect(await shown(app.page.locator("[data-test=eval-max] b"))).toBe(fmt4(MAX.with_answer));
      expect(await shown(app.page.locator("[data-test=eval-max-no] b"))).toBe(fmt4(MAX.no_answer));
      expect(await shown(app.page.locator("[data-test=eval-min] b"))).toBe(fmt4(MIN.with_answer));
      expect(await shown(app.page.locator("[data-test=eval-min-no] b"))).toBe(fmt4(MIN.no_answer));
    });

    it("draws two picks at one value side by side (F0716: both runs' picks score the same NDCG1)", async () => {
      await open(app.page, app.base, "#/evaldicts?file=1&ctx=F0716");
      const legend = await app.page.locator(".legend li").allInnerTexts();
      expect(legend.length).toBe(2);
      const values = legend.map((t) => t.split(": ").at(-1));
      expect(values[0]).toBe(values[1]);
      const xs = await app.page
        .locator("[data-test=pick-mark]")
        .evaluateAll((ls) =>
          ls.map(
            (l) => (l as unknown as { getBoundingClientRect(): { x: number } }).getBoundingClientRect().x,
          ),
        );
      expect(xs.length).toBe(2);
      expect(Math.abs(xs[0]! - xs[1]!)).toBeGreaterThanOrEqual(3);
    });

    it("says what is wrong with a URL as the API does, never mending it silently", async () => {
      // topic=abc: the API's own sentence, not "not -1".
      const api = JSON.parse((await raw(app.base, "/api/dataset/topic?id=abc")).body) as { error: string };
      await open(app.page, app.base, "#/dataset?topic=abc");
      expect(await shown(app.page.locator("[data-test=error]"))).toContain(api.error);
      expect(await shown(app.page.locator("main"))).not.toContain("-1");
      // A topic and another topic's context: the context's topic from the synthetic file itself.
      const jsonl = readFileSync(join(tmp, "dev_synthetic.jsonl"), "utf8");
      const at = jsonl.indexOf('"context_id":968}');
      const line = JSON.parse(jsonl.slice(jsonl.lastIndexOf("\n", at) + 1, jsonl.indexOf("\n", at))) as {
        context_id: number;
        topic_id: number;
      };
      expect(line.topic_id).not.toBe(18);
      await open(app.page, app.base, "#/conversations?topic=18&ctx=968");
      expect(await shown(app.page.locator("[data-test=error]"))).toContain(
        `Context 968 is of topic ${line.topic_id}, not of topic 18`,
      );
      expect(await app.page.locator("[data-test=context]").count()).toBe(0);
      // An unknown metric: said, with the entry's metrics (the dict's own keys).
      await open(app.page, app.base, "#/evaldicts?file=1&ctx=F0985&metric=BOGUS");
      const msg = await shown(app.page.locator("[data-test=error]"));
      expect(msg).toContain('no metric "BOGUS"');
      for (const m of Object.keys(dicts.f0985)) expect(msg).toContain(m);
      expect(await app.page.locator("[data-test=eval-questions]").count()).toBe(0);
      // An offset past the end: said, with a way back; no "299–298 of 298".
      await open(app.page, app.base, "#/dataset?offset=100000");
      expect(await shown(app.page.locator("[data-test=past-end]"))).toContain("past the end");
      expect(await shown(app.page.locator("main"))).not.toMatch(/\d+–\d+ of/);
      // A 405 answers in JSON like every other error.
      const r = await raw(app.base, "/api/meta", "POST");
      expect(r.status).toBe(405);
      expect((JSON.parse(r.body) as { error: string }).error).toContain("GET and HEAD only");
    });

    it("says why a dev topic has no conversations (166: left out of ClariQ's synthetic sets)", async () => {
      const dev = new Set(clariqRows("dev").map((r) => Number(r.topic_id)));
      const inSet = new Set<number>();
      // One pass of a regular expression over the 89 MB file (parsing its 182,435 lines takes seconds).
      for (const m of readFileSync(join(tmp, "dev_synthetic.jsonl"), "utf8").matchAll(/"topic_id":(\d+)/g))
        inSet.add(Number(m[1]));
      const missing = [...dev].filter((t) => !inSet.has(t));
      expect(missing).toEqual([166]);
      await open(app.page, app.base, "#/conversations");
      expect(await shown(app.page.locator("[data-test=absent-topics]"))).toContain(
        "Not here: dev topic 166: ClariQ's synthetic sets leave this topic out",
      );
      await open(app.page, app.base, "#/conversations?topic=166");
      expect(await shown(app.page.locator("[data-test=absent-topic]"))).toContain(
        "dev topic 166 has no records",
      );
    });

    it("writes plurals right and shows a level-0 record's Qulac id once", async () => {
      const rows = [...clariqRows("train"), ...clariqRows("dev")];
      const facets = new Map<string, Set<string>>();
      for (const r of rows) facets.set(r.topic_id!, (facets.get(r.topic_id!) ?? new Set()).add(r.facet_id!));
      const one = [...facets].filter(([, f]) => f.size === 1).map(([t]) => t);
      expect(one.length).toBeGreaterThan(0);
      const t = one[0]!;
      await open(app.page, app.base, `#/dataset?q=${t}`);
      const item = app.page.locator("[data-test=topics] a", { has: app.page.locator(`b:text-is("${t}")`) });
      expect(await shown(item)).toContain("· 1 facet ·");
      expect(await shown(app.page.locator("main"))).not.toMatch(/\b1 (facets|rows|topics)\b/);
      // Context 968 is level 0: its records' Qulac cells hold the question's id, not it twice.
      await open(app.page, app.base, "#/conversations?topic=8&ctx=968");
      const cells = await app.page.locator("[data-test=record-qulac]").allInnerTexts();
      expect(cells.length).toBeGreaterThan(0);
      for (const c of cells) expect(c).not.toContain("record");
      expect(cells.some((c) => /^8-\d+-\d+$/.test(c))).toBe(true);
    });

    it("shows passage-search snippets as written, the match marked, and says what the md5 is of", async () => {
      const recs = readFileSync(shared("data", "ikat", "2023_train_topics_psg_text.jsonl"), "utf8")
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l) as { doc_id: string; passage_id: string; passage_text: string });
      const flat = recs.map((r) => r.passage_text.replace(/\s+/g, " "));
      await open(app.page, app.base, "#/passages?q=netherlands");
      const snippets = app.page.locator("[data-test=snippet]");
      expect(await snippets.count()).toBeGreaterThan(0);
      for (const s of await snippets.all()) {
        const t = (await shown(s)).replace(/^…|…$/g, "");
        expect(
          flat.some((f) => f.includes(t)),
          t,
        ).toBe(true);
        expect(
          (await s.locator("mark").allInnerTexts()).every((m) => m.toLowerCase() === "netherlands"),
        ).toBe(true);
      }
      expect(await shown(snippets.first())).toMatch(/Netherlands/);
      // The official passages' md5: of the text without the file's wrapping newlines, and so labelled.
      const doc = "clueweb22-en0016-21-09213";
      const p0 = recs.find((r) => r.doc_id === doc && r.passage_id === "0")!;
      const md5 = createHash("md5").update(p0.passage_text.slice(1, -1), "utf8").digest("hex");
      await open(app.page, app.base, `#/passages?doc=${doc}`);
      expect(await shown(app.page.locator("[data-test=official-passage]").first())).toContain(
        `md5 ${md5} (of its text without the file's wrapping newlines)`,
      );
    });

    it("at 400 px: tables stack, run names whole, the rank visible, nothing sideways", async () => {
      await app.page.setViewportSize({ width: 400, height: 900 });
      try {
        for (const hash of [
          "#/evaldicts?file=1&ctx=F0985",
          "#/dataset?topic=8",
          "#/conversations?topic=8&ctx=968",
        ]) {
          await open(app.page, app.base, hash);
          const wide = await app.page.evaluate(() => {
            const d = (
              globalThis as unknown as {
                document: {
                  documentElement: { scrollWidth: number };
                  querySelectorAll(s: string): { scrollWidth: number; clientWidth: number }[];
                };
              }
            ).document;
            return [
              d.documentElement.scrollWidth,
              ...[...d.querySelectorAll(".table-wrap")].map((w) => w.scrollWidth - w.clientWidth),
            ];
          });
          expect(wide[0], hash).toBeLessThanOrEqual(400);
          for (const over of wide.slice(1)) expect(over, hash).toBeLessThanOrEqual(0);
        }
        await open(app.page, app.base, "#/evaldicts?file=1&ctx=F0985");
        const picks = app.page.locator("[data-test=picks] tbody tr");
        expect(await picks.count()).toBe(2);
        for (const tr of await picks.all()) {
          // A run name on one line box (an inline element broken over lines has several).
          const lines = await tr
            .locator("td")
            .first()
            .locator("a, span")
            .first()
            .evaluate(
              (e) => (e as unknown as { getClientRects(): { length: number } }).getClientRects().length,
            );
          expect(lines).toBe(1);
          const rank = tr.locator("td").last();
          const box = (await rank.boundingBox())!;
          expect(box.x + box.width).toBeLessThanOrEqual(400);
          expect(await rank.getAttribute("data-label")).toBe("rank among candidates");
        }
      } finally {
        await app.page.setViewportSize({ width: 1400, height: 900 });
      }
    });
  },
);

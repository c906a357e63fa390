import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { requires, runCli, shared, tempDir } from "@convkit/test-helpers";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ExplorerSession, open, ready, SHOTS, shown } from "./harness.js";

const app = new ExplorerSession();

interface RunLine {
  turn_id: string;
  responses: { text: string; citations: Record<string, number> }[];
  references: Record<string, number>;
}
interface TopicTurn {
  turn_id: number;
  user_utterance: string;
  resolved_utterance: string;
  response: string;
  citations: string[];
}

/** What the page's functions read of the browser's globals (this file is typed without the DOM). */
interface G {
  location: { hash: string };
  document: {
    documentElement: { scrollWidth: number };
    activeElement: {
      tagName: string;
      closest(s: string): { getAttribute(a: string): string | null } | null;
    } | null;
  };
}

const topicsPath = () => shared("data", "ikat", "2025_test_topics.json");
/** Two runs of the 188 turns that the official validator passes (validate.rc 0). */
const runPaths = () => ["000", "006"].map((c) => shared("golden", "ikat25", c, "run.jsonl.gz"));

let tmp: string;
let args: string[];
/** The turn shown: the first of the topics where both runs cite, its texts and the passages made for it. */
let turn: {
  id: string;
  topic: TopicTurn;
  runs: RunLine[];
  /** Run A's first citation (an `{id, contents}` passage, grade 2) and run B's (an iKAT passage, grade 0). */
  citeA: { id: string; text: string };
  citeB: { id: string; text: string };
  /** The passages judged for this turn and their grades (the qrels written). */
  grades: Map<string, number>;
};

const readRun = (p: string): RunLine[] =>
  gunzipSync(readFileSync(p))
    .toString("utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as RunLine);

requires("shared", "chromium").describe(
  "convkit-explore's Responses view (issue #40) on ../shared in Chromium",
  () => {
    app.use(async () => {
      tmp = tempDir("explore-responses-");
      const topics = JSON.parse(readFileSync(topicsPath(), "utf8")) as {
        number: string;
        responses: TopicTurn[];
      }[];
      const runs = runPaths().map(readRun);
      const byId = runs.map((r) => new Map(r.map((t) => [t.turn_id, t])));
      const cited = (t: RunLine | undefined) => t?.responses.flatMap((x) => Object.keys(x.citations)) ?? [];
      for (const t of topics)
        for (const u of t.responses) {
          const id = `${t.number}_${u.turn_id}`;
          const lines = byId.map((m) => m.get(id)!);
          const [a, b] = lines.map(cited) as [string[], string[]];
          if (turn || a.length === 0 || b.length === 0 || u.citations.length === 0) continue;
          const bId = b.find((x) => !a.includes(x))!;
          if (!bId) continue;
          turn = {
            id,
            topic: u,
            runs: lines,
            citeA: {
              id: a[0]!,
              text: `Passage ${a[0]} (made for this test): ginger tea and oatmeal soothe reflux.`,
            },
            citeB: { id: bId, text: `Passage ${bId} (made for this test): bananas are a low-acid fruit.` },
            grades: new Map(),
          };
        }
      expect(turn).toBeDefined();
      // The two layouts of passage files: `{id, contents}` and iKAT's `{doc_id, passage_id, passage_text}`.
      const colon = turn.citeB.id.lastIndexOf(":");
      writeFileSync(
        join(tmp, "passages.jsonl"),
        `${JSON.stringify({ id: turn.citeA.id, contents: turn.citeA.text })}\n${JSON.stringify({
          id: turn.topic.citations[0],
          contents: "The gold's first cited passage.",
        })}\n`,
      );
      writeFileSync(
        join(tmp, "ikat_passages.jsonl"),
        `${JSON.stringify({
          doc_id: turn.citeB.id.slice(0, colon),
          passage_id: turn.citeB.id.slice(colon + 1),
          passage_text: `\n${turn.citeB.text}\n`,
        })}\n`,
      );
      // Grades for this turn: A's citation relevant, B's not; the references of both runs judged too,
      // so the Runs view ranks them with colours.
      const refs = turn.runs.flatMap((r) => Object.keys(r.references));
      const qrels = new Map<string, number>([...refs.map((d, i) => [d, i % 3] as [string, number])]);
      qrels.set(turn.citeA.id, 2);
      qrels.set(turn.citeB.id, 0);
      turn.grades = qrels;
      writeFileSync(join(tmp, "qrels.txt"), [...qrels].map(([d, g]) => `${turn.id} 0 ${d} ${g}\n`).join(""));
      args = [
        "--topics",
        topicsPath(),
        ...runPaths().flatMap((p) => ["--run", p]),
        "--passages",
        join(tmp, "passages.jsonl"),
        "--passages",
        join(tmp, "ikat_passages.jsonl"),
        "--qrels",
        join(tmp, "qrels.txt"),
      ];
      return args;
    });

    /** The turn's page as a reader sees it: utterances, gold, both runs' responses, citations and grades. */
    async function expectTurnShown(p: Page): Promise<void> {
      expect(await shown(p.locator("[data-test=utterance]"))).toBe(turn.topic.user_utterance);
      expect(await shown(p.locator("[data-test=resolved]"))).toBe(turn.topic.resolved_utterance);
      expect(await shown(p.locator("[data-test=gold-response]"))).toBe(turn.topic.response);
      const cols = p.locator("[data-test=runs] [data-test=run]");
      expect(await cols.count()).toBe(2);
      for (let r = 0; r < 2; r++) {
        expect(await cols.nth(r).getAttribute("data-run")).toBe(`${["000", "006"][r]}/run.jsonl.gz`);
        expect(await cols.nth(r).locator("[data-test=response-text]").allInnerTexts()).toEqual(
          turn.runs[r]!.responses.map((x) => x.text),
        );
        // The run's first references (closed until opened), ranked as generate_run.py ranks them.
        expect(await cols.nth(r).locator("[data-test=top-references] li").count()).toBe(
          Math.min(20, Object.keys(turn.runs[r]!.references).length),
        );
        expect(await cols.nth(r).locator("[data-test=citation]").count()).toBe(
          turn.runs[r]!.responses.reduce((n, x) => n + Object.keys(x.citations).length, 0),
        );
      }
      const a = cols.nth(0).locator(`[data-test=citation][data-id="${turn.citeA.id}"]`).first();
      expect(await shown(a.locator("[data-test=grade]"))).toBe("grade 2");
      const b = cols.nth(1).locator(`[data-test=citation][data-id="${turn.citeB.id}"]`).first();
      expect(await shown(b.locator("[data-test=grade]"))).toBe("grade 0");
      // The gold's first citation resolved too (unjudged: the qrels do not hold it).
      const g = p.locator("[data-test=gold] [data-test=citation]").first();
      expect(await shown(g.locator("summary"))).toContain("unjudged");
    }

    /**
     * Tabs until the focus is on the summary of citation `id` in run column `run`; opens it with
     * Enter. Within 40 Tabs: the list of 188 turns is one Tab stop, not one per turn.
     */
    async function tabToCitation(p: Page, run: number, id: string): Promise<void> {
      for (let i = 0; i < 40; i++) {
        await p.keyboard.press("Tab");
        const at = await p.evaluate(() => {
          const a = (globalThis as unknown as G).document.activeElement;
          return {
            tag: a?.tagName ?? "",
            id: a?.closest("[data-test=citation]")?.getAttribute("data-id") ?? null,
            run: a?.closest("[data-test=run]")?.getAttribute("data-run") ?? null,
          };
        });
        if (at.tag === "SUMMARY" && at.id === id && at.run === `${["000", "006"][run]}/run.jsonl.gz`) {
          await p.keyboard.press("Enter");
          return;
        }
      }
      throw new Error(`40 Tabs did not reach citation ${id}`);
    }

    async function expectPassagesByKeyboard(p: Page, width: number, name: string): Promise<void> {
      const cols = p.locator("[data-test=runs] [data-test=run]");
      const text = (run: number, id: string) =>
        cols.nth(run).locator(`[data-test=citation][data-id="${id}"] [data-test=passage-text]`).first();
      // Closed until asked for: the texts are there once the keyboard opens them.
      expect(await text(0, turn.citeA.id).isVisible()).toBe(false);
      await tabToCitation(p, 0, turn.citeA.id);
      expect(await shown(text(0, turn.citeA.id))).toBe(turn.citeA.text);
      await tabToCitation(p, 1, turn.citeB.id);
      expect(await shown(text(1, turn.citeB.id))).toBe(turn.citeB.text);
      await p.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: width === 400 });
      const scrollWidth = await p.evaluate(
        () => (globalThis as unknown as G).document.documentElement.scrollWidth,
      );
      expect(scrollWidth).toBeLessThanOrEqual(width);
    }

    describe("the Responses view", () => {
      it("at 1400 and 400 px: a turn's utterances, gold and both runs' responses; citations opened by keyboard with text and grade; nothing wider than the screen (../shared)", async () => {
        for (const width of [1400, 400]) {
          await app.page.setViewportSize({ width, height: 900 });
          // Reached by keys: 6 opens the view, / the search, j and Enter the turn.
          await open(app.page, app.base, "#/dataset");
          await app.page.keyboard.press("6");
          await ready(app.page, "#/responses");
          await app.page.keyboard.press("/");
          await app.page.keyboard.type(turn.id);
          await app.page.keyboard.press("Enter");
          await ready(app.page, `#/responses?q=${turn.id}`);
          await app.page.keyboard.press("Escape");
          const ids = await app.page.locator("[data-test=turns] a b").allInnerTexts();
          // The list names per run its responses and its citations judged relevant here.
          const relevant = turn.runs.map((r) =>
            r.responses.reduce(
              (n, x) => n + Object.keys(x.citations).filter((c) => (turn.grades.get(c) ?? 0) >= 1).length,
              0,
            ),
          );
          expect(await shown(app.page.locator("[data-test=turns] a").nth(ids.indexOf(turn.id)))).toContain(
            `${turn.runs.map((r) => r.responses.length).join(" / ")} · relevant ${relevant.join(" / ")}`,
          );
          await app.page.keyboard.press("j");
          for (let i = 0; ids[i] !== turn.id; i++) await app.page.keyboard.press("j");
          await app.page.keyboard.press("Enter");
          await ready(app.page, `#/responses?q=${turn.id}&turn=${turn.id}`);
          await expectTurnShown(app.page);
          await expectPassagesByKeyboard(app.page, width, "responses");
        }
        await app.page.setViewportSize({ width: 1400, height: 900 });
      }, 180_000);

      it("a turn links to its references' rankings in the Runs view, graded by the qrels (../shared)", async () => {
        await open(app.page, app.base, `#/responses?turn=${turn.id}`);
        await app.page.locator("[data-test=to-ranking]").click();
        await ready(app.page, `#/runs?topic=${turn.id}`);
        const rankings = app.page.locator("[data-test=ranking]");
        expect(await rankings.count()).toBe(2);
        for (let r = 0; r < 2; r++)
          expect(await rankings.nth(r).locator("tbody tr").count()).toBe(
            Math.min(20, Object.keys(turn.runs[r]!.references).length),
          );
        expect(await app.page.locator("[data-test=ranking] tbody tr.rel-pos").count()).toBeGreaterThan(0);
        // One judged turn: no p-value, said as a dash (not a broken table).
        expect(await app.page.locator("[data-test=error]").count()).toBe(0);
        expect(await shown(app.page.locator("[data-test=significance] [data-test=p]").first())).toBe("–");
        await app.page.screenshot({ path: join(SHOTS, "responses-to-ranking-1400.png") });
      }, 120_000);

      it("--static: the same turn, texts and grades, by keyboard at 400 px, and its rankings, from one file (../shared)", async () => {
        const out = join(tmp, "responses.html");
        const r = runCli("explore", [...args, "--static", out, "--view", `#/responses?turn=${turn.id}`]);
        expect(r.code, r.stderr).toBe(0);
        const html = readFileSync(out, "utf8");
        for (const p of [tmp, shared(), "/work/"]) expect([p, html.includes(p)]).toEqual([p, false]);
        const p = await app.browser.newPage({ viewport: { width: 400, height: 900 } });
        try {
          await p.goto(`file://${out}`);
          await ready(p, `#/responses?turn=${turn.id}`);
          await expectTurnShown(p);
          await expectPassagesByKeyboard(p, 400, "static-responses");
          await p.locator("[data-test=to-ranking]").click();
          await ready(p, `#/runs?topic=${turn.id}`);
          expect(await p.locator("[data-test=ranking] tbody tr").count()).toBeGreaterThan(0);
        } finally {
          await p.close();
        }
      }, 120_000);
    });
  },
);

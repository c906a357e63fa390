import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scanEvalDict } from "@convkit/formats";
import { clariqDataWithDicts, requires, runCli, shared, tempDir } from "@convkit/test-helpers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  clariqDataArgs,
  clariqRunArgs,
  devSynthetic,
  ExplorerSession,
  open as openHash,
  passageArgs,
  raw as rawAt,
  SHOTS,
  shown,
} from "./harness.js";

const app = new ExplorerSession();

let tmp: string;
/**
 * The explorer's temporary folders (unpacked dicts), in a TMPDIR of its own (other test files'
 * explorers run at the same time): none may be left once it stops.
 */
const serverTmp = tempDir("explore-tmpdir-");
const explorerTemps = () => readdirSync(serverTmp).filter((f) => f.startsWith("convkit-explore-"));

const raw = (path: string, method = "GET") => rawAt(app.base, path, method);
const open = (hash: string, shot: string) => openHash(app.page, app.base, hash, `old-${shot}`);
const text = (sel: string) => shown(app.page.locator(sel).first());

requires("shared", "chromium").describe("convkit-explore on ../shared in Chromium", () => {
  app.use(
    async () => {
      tmp = await devSynthetic();
      return [
        ...clariqDataArgs(),
        "--synthetic",
        join(tmp, "dev_synthetic.jsonl"),
        "--synthetic",
        join(tmp, "dev_synthetic.pkl.tar.gz"),
        "--eval-dict",
        shared("golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz"),
        ...clariqRunArgs(),
        ...passageArgs(),
      ];
    },
    { env: { ...process.env, TMPDIR: serverTmp }, stopped: () => expect(explorerTemps()).toEqual([]) },
  );
  beforeAll(async () => {
    // Its own TMPDIR is where it unpacks (or the check after it stops would see nothing).
    expect(explorerTemps().length).toBeGreaterThan(0);
    // Nothing from the network: every request the page makes goes to the explorer itself.
    app.page.on("request", (r) => {
      if (!r.url().startsWith(app.base) && !r.url().startsWith("data:"))
        throw new Error(`the page asked for ${r.url()}`);
    });
  });

  describe("convkit-explore on ../shared in Chromium", () => {
    it("binds loopback only and serves nothing but its assets and API (../shared)", async () => {
      expect(app.base).toMatch(/^http:\/\/127\.0\.0\.1:/);
      for (const path of [
        "/../../etc/passwd",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd",
        "/api/../../etc/passwd",
        "/api/..%2f..%2fetc%2fpasswd",
        "/app.js/../../../etc/passwd",
        "//etc/passwd",
        "/api/meta/../../../../etc/passwd",
        `/${shared("data", "clariq", "dev.tsv")}`,
        "/node_modules/uplot/package.json",
      ]) {
        const r = await raw(path);
        expect(r.status, path).toBe(404);
        expect(r.body).not.toContain("root:");
      }
      expect((await raw("/api/meta", "POST")).status).toBe(405);
      expect((await raw("/api/meta", "DELETE")).status).toBe(405);
      expect((await raw("/api/meta")).status).toBe(200);
    });

    it("Dataset: ClariQ's topics, facets, questions and answers, searchable (../shared)", async () => {
      await open("#/dataset", "dataset");
      const meta = JSON.parse((await raw("/api/meta")).body);
      expect(meta.dataset.splits.dev.topics).toBe(50);
      expect(await text("[data-test=dataset-dev-topics]")).toContain("50");
      await open("#/dataset?q=dinosaur", "dataset-search");
      const hits = await text("[data-test=topic-hits]");
      expect(Number(hits.split(" ")[0])).toBeGreaterThan(0);
      const dev = readFileSync(shared("data", "clariq", "dev.tsv"), "utf8")
        .split("\n")[1]!
        .split("\t");
      await open(`#/dataset?topic=${dev[0]}`, "dataset-topic");
      const topic = await text("[data-test=topic]");
      expect(topic).toContain(dev[1]!); // initial request
      expect(topic).toContain(dev[7]!); // a question of it
    });

    it("Conversations: the dev set's 15,345 contexts and 182,435 records; a context's history and the facet's answer (../shared)", async () => {
      await open("#/conversations", "conversations");
      expect(await text("[data-test=synthetic-records]")).toContain("182,435");
      expect(await text("[data-test=synthetic-contexts]")).toContain("15,345");
      // A two-turn context, found in the JSONL itself.
      const line = readFileSync(join(tmp, "dev_synthetic.jsonl"), "utf8")
        .split("\n")
        .find(
          (l) => l.includes('"conversation_context":[{') && (l.match(/"question":/g) ?? []).length === 3,
        )!;
      const r = JSON.parse(line);
      await open(`#/conversations?topic=${r.topic_id}&ctx=${r.context_id}`, "conversations-context");
      const turns = app.page.locator("[data-test=history-turn]");
      expect(await turns.count()).toBe(2);
      expect(await shown(turns.nth(0))).toContain(r.conversation_context[0].question);
      expect(await shown(turns.nth(1))).toContain(r.conversation_context[1].answer);
      // Every record's ClariQ id, decoded by gen:synthetic's numbering, says what the record says.
      const decoded = await app.page.locator("[data-test=decoded]").allInnerTexts();
      expect(decoded.length).toBeGreaterThan(0);
      for (const d of decoded) expect(d).toMatch(new RegExp(`^✓ ${r.facet_id} · Q\\d+ → Q\\d+ → Q\\d+$`));
      expect(await text("[data-test=context-decoded]")).toContain(
        `topic ${r.topic_id}, ${r.facet_id}, after Q`,
      );
      const records = await text("[data-test=records]");
      expect(records).toContain(r.question);
      expect(records).toContain(r.answer);
      expect(await shown(app.page.locator("[data-test=context-tree]"))).toContain(`context ${r.context_id}`);
      // The same set as gen:synthetic's pickle (ClariQ's published layout), read into the same view.
      await open(`#/conversations?file=1&topic=${r.topic_id}&ctx=${r.context_id}`, "conversations-pickle");
      expect(await text("[data-test=synthetic-records]")).toContain("182,435");
      expect(await text("[data-test=synthetic-contexts]")).toContain("15,345");
      expect(await text("[data-test=records]")).toContain(r.answer);
    });

    it("Eval dicts: a context's questions, MAX, MIN, best and a run's pick, as the full scan reads them (../shared)", async () => {
      const dictPath = shared("golden", "clariq-eval", "eval_dicts", "multi_turn_dev_eval.pkl.tar.gz");
      const list = JSON.parse((await raw("/api/evaldict/contexts?file=0&offset=7000&limit=1")).body);
      const ctx = (list.items[0] as { id: string }).id;
      // The same context by the streaming scanner over the whole dict.
      const expected = new Map<string, { q: string; wa: number }[]>();
      await scanEvalDict(dictPath, (metric, c, q, _na, wa) => {
        if (String(c) !== ctx) return;
        const l = expected.get(metric) ?? [];
        l.push({ q, wa });
        expected.set(metric, l);
      });
      const got = JSON.parse((await raw(`/api/evaldict/context?file=0&id=${ctx}`)).body);
      expect(got.metrics.map((m: { metric: string }) => m.metric)).toEqual([...expected.keys()]);
      for (const m of got.metrics) {
        const e = expected.get(m.metric)!;
        expect(m.max).toBe(e.find((x) => x.q === "MAX")!.wa);
        expect(m.min).toBe(e.find((x) => x.q === "MIN")!.wa);
        expect(
          m.questions.map((x: { question: string; with_answer: number }) => [x.question, x.with_answer]),
        ).toEqual(e.filter((x) => x.q !== "MAX" && x.q !== "MIN").map((x) => [x.q, x.wa]));
      }
      await open(`#/evaldicts?file=0&ctx=${ctx}`, "evaldicts");
      expect(await text("[data-test=eval-max]")).toContain(got.metrics[0].max.toFixed(4));
      expect(await app.page.locator(".chart svg").count()).toBeGreaterThan(0);
      // The single-turn dict: facets, with the runs' picks for the facet's topic.
      const facets = JSON.parse((await raw("/api/evaldict/contexts?file=1&q=F0&limit=500")).body);
      const withPick = [];
      for (const { id: f } of facets.items.slice(0, 40) as { id: string }[]) {
        const c = JSON.parse((await raw(`/api/evaldict/context?file=1&id=${f}`)).body);
        if (c.metrics[0].picks.length === 2) withPick.push(f);
      }
      expect(withPick.length).toBeGreaterThan(0);
      await open(`#/evaldicts?file=1&ctx=${withPick[0]}`, "evaldicts-picks");
      expect(await text("[data-test=picks]")).toContain("dev_bm25");
    }, 60_000);

    it("Runs: dev_bm25 against dev_no_q, the significance table and per-topic deltas as convkit-compare and convkit-clariq-eval compute them (../shared)", async () => {
      const data = clariqDataWithDicts();
      const runs = ["dev_no_q", "dev_bm25"].map((r) => shared("data", "clariq", "sample_runs", r));
      const cmp = runCli("compare", [
        "--clariq",
        "document_relevance",
        "--data_dir",
        data,
        "--baseline",
        "dev_no_q",
        "--format",
        "json",
        ...runs,
      ]);
      expect(cmp.code, cmp.stderr).toBe(0);
      const expected = JSON.parse(cmp.stdout);
      const summary = JSON.parse((await raw("/api/runs/summary")).body);
      expect(summary.comparison).toEqual(expected);
      await open("#/runs", "runs");
      const rows = app.page.locator("[data-test=significance] tr[data-measure]");
      expect(await rows.count()).toBe(expected.pairs.length);
      for (let i = 0; i < expected.pairs.length; i++) {
        const p = expected.pairs[i].p as number;
        expect(await shown(rows.nth(i).locator("[data-test=p]"))).toBe(
          p < 1e-4 ? p.toExponential(2) : p.toFixed(4),
        );
      }
      // Per-topic deltas against the evaluator's own per-facet values.
      const perFacet = runs.map((r, k) => {
        const out = join(tmp, `perf-${k}.json`);
        const e = runCli("clariq-eval", [
          "--eval_task",
          "document_relevance",
          "--data_dir",
          data,
          "--run_file",
          r,
          "--out_file",
          out,
        ]);
        expect(e.code, e.stderr).toBe(0);
        return JSON.parse(readFileSync(out, "utf8")) as Record<string, Record<string, number>>;
      });
      for (const measure of ["NDCG3", "P1"]) {
        const d = JSON.parse((await raw(`/api/runs/deltas?measure=${measure}&b=1`)).body);
        const want = Object.keys(perFacet[0]![measure]!).map(
          (f) => perFacet[1]![measure]![f]! - perFacet[0]![measure]![f]!,
        );
        expect(d.rows.map((r: { delta: number }) => r.delta)).toEqual([...want].sort((a, b) => b - a));
        const pair = expected.pairs.find((x: { measure: string }) => x.measure === measure);
        expect(d.rows.filter((r: { delta: number }) => r.delta > 0).length).toBe(pair.wins);
      }
      await open(
        `#/runs?measure=NDCG3&b=1&topic=${JSON.parse((await raw("/api/runs/deltas?measure=NDCG3&b=1")).body).rows[0].topic}`,
        "runs-topic",
      );
      expect(await app.page.locator(".chart svg").count()).toBeGreaterThan(0);
    }, 60_000);

    it("Passages: a document's iKAT windows with the five-sentence overlap, ids and md5, two splitters side by side (../shared)", async () => {
      // The document with the longest run of consecutive official passages.
      const byDoc = new Map<string, Set<number>>();
      for (const l of readFileSync(shared("data", "ikat", "2023_train_topics_psg_text.jsonl"), "utf8")
        .trim()
        .split("\n")) {
        const r = JSON.parse(l) as { doc_id: string; passage_id: string };
        byDoc.set(r.doc_id, (byDoc.get(r.doc_id) ?? new Set()).add(Number(r.passage_id)));
      }
      let doc = "";
      let run: number[] = [];
      for (const [d, ks] of byDoc)
        for (const k of ks) {
          const r = [k];
          while (ks.has(r.at(-1)! + 1)) r.push(r.at(-1)! + 1);
          if (r.length > run.length) [doc, run] = [d, r];
        }
      expect(run.length).toBeGreaterThanOrEqual(3);
      await open(`#/passages?file=0&doc=${encodeURIComponent(doc)}`, "passages");
      const side = app.page.locator("[data-test=side-0]");
      const windows = side.locator("[data-test=window]");
      // One window per official passage of the run, numbered as the document's passages.
      expect(await windows.count()).toBe(run.length);
      expect(await shown(windows.nth(0))).toContain(`${doc}:${run[0]} · md5 `);
      expect(await shown(windows.nth(1))).toContain(`${doc}:${run[1]} · md5 `);
      // The second window starts with the first one's last five sentences, marked as repeated.
      const trimmed = (xs: string[]) => xs.map((x) => x.trim());
      const first = trimmed(await windows.nth(0).locator(".sent").allInnerTexts());
      const overlap = trimmed(await windows.nth(1).locator(".sent.overlap").allInnerTexts());
      expect(overlap).toHaveLength(5);
      expect(overlap).toEqual(first.slice(5, 10));
      expect(await app.page.locator("[data-test=official-passage]").count()).toBe(byDoc.get(doc)!.size);
      expect(await shown(app.page.locator("[data-test=side-1] h3"))).toContain("heuristic");
      expect(await shown(app.page.locator("[data-test=side-0] h3"))).toContain("spacy");
    }, 60_000);

    it("keyboard: 1–5 switch views, j/k move in the list, Enter opens, the URL follows (../shared)", async () => {
      await open("#/dataset", "keys");
      const first = await text("[data-test=topics] .item");
      await app.page.keyboard.press("j");
      await app.page.keyboard.press("j");
      await app.page.keyboard.press("k");
      await app.page.keyboard.press("Enter");
      await app.page.waitForFunction(() =>
        (globalThis as { location?: { hash: string } }).location?.hash.startsWith("#/dataset?topic="),
      );
      expect(app.page.url()).toContain(`topic=${first.split(" ")[0]}`);
      await app.page.keyboard.press("4");
      await app.page.waitForFunction(
        () => (globalThis as { location?: { hash: string } }).location?.hash === "#/runs",
      );
      await app.page.waitForFunction(
        () => (globalThis as { __CONVKIT_READY__?: string }).__CONVKIT_READY__ === "#/runs",
      );
      expect(await app.page.locator("[data-test=significance]").count()).toBe(1);
      // "/" goes to the search field; typing there is not a view switch.
      await app.page.keyboard.press("1");
      await app.page.waitForFunction(
        () => (globalThis as { __CONVKIT_READY__?: string }).__CONVKIT_READY__ === "#/dataset",
      );
      await app.page.keyboard.press("/");
      await app.page.keyboard.type("2");
      expect(app.page.url()).toMatch(/#\/dataset$/);
      expect(await app.page.locator("[data-test=search]").inputValue()).toBe("2");
    });

    it("--static writes one page of a view that opens from disk with its data (../shared)", async () => {
      const out = join(tmp, "runs.html");
      const r = runCli("explore", [
        "--data",
        shared("data", "clariq"),
        ...clariqRunArgs(),
        "--static",
        out,
        "--view",
        "#/runs?measure=P1",
      ]);
      expect(r.code, r.stderr).toBe(0);
      const html = readFileSync(out, "utf8");
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
      const p = await app.browser.newPage();
      const asked: string[] = [];
      p.on("request", (q) => {
        if (!q.url().startsWith("file:")) asked.push(q.url());
      });
      await p.goto(`file://${out}#/runs?measure=P1`);
      await p.waitForFunction(
        () => (globalThis as { __CONVKIT_READY__?: string }).__CONVKIT_READY__ !== undefined,
        undefined,
        {
          timeout: 20_000,
        },
      );
      expect(await p.locator("[data-test=significance] tr[data-measure]").count()).toBeGreaterThan(0);
      expect(asked).toEqual([]);
      await p.screenshot({ path: join(SHOTS, "static-runs.png") });
      await p.close();
      writeFileSync(join(SHOTS, "startup.txt"), app.stderr.join(""));
    }, 60_000);
  });
});

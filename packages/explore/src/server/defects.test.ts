// Issue #42's defects on the server side, quick: a URL's bad value in the API's words, snippets as
// written, a 405 in JSON. Each failed before its fix (urlProblem/snippetOf did not exist; the 405 was text).
import { writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { tempDir } from "@convkit/test-helpers";
import { describe, expect, it } from "vitest";
import { parseParams } from "../shared/api.js";
import { urlProblem } from "../shared/views.js";
import { Explorer } from "./explorer.js";
import { snippetOf } from "./passages.js";
import { serveExplorer } from "./server.js";

describe("a view's URL values are checked as the API checks them", () => {
  it("says what the API says for topic=abc (not 'not -1')", () => {
    const api = parseParams("dataset/topic", new URLSearchParams({ id: "abc" }));
    expect(api.ok).toBe(false);
    const page = urlProblem("dataset", { topic: "abc" });
    expect(page).toEqual({ error: 'id must be a whole number, not "abc"', parameter: "topic" });
    expect(page!.error).toBe(api.ok ? "" : api.error.error);
  });

  it("checks offsets, files, contexts and splits, and lets good values through", () => {
    expect(urlProblem("conversations", { topic: "8", ctx: "-3" })?.error).toBe(
      "id must be 0 or more, not -3",
    );
    expect(urlProblem("conversations", { ctx: "x" })?.parameter).toBe("ctx");
    expect(urlProblem("evaldicts", { offset: "1e3" })?.error).toBe(
      'offset must be a whole number, not "1e3"',
    );
    expect(urlProblem("dataset", { split: "nope" })?.error).toBe(
      'split must be one of train, dev, test, qulac, not "nope"',
    );
    expect(urlProblem("dataset", { topic: "8", offset: "100", split: "dev", q: "x" })).toBeUndefined();
    expect(urlProblem("evaldicts", { ctx: "F0985", metric: "MRR100" })).toBeUndefined();
  });
});

describe("passage snippets", () => {
  const doc = (text: string) => ({ text, search: text.toLowerCase() });

  it("are the text as written around the first hit of the lower-cased needle", () => {
    const d = doc("Top Computer Science Universities in Netherlands - US News Best Global Universities");
    expect(snippetOf(d, "netherlands")).toBe(
      "…Top Computer Science Universities in Netherlands - US News Best Global Universities…",
    );
    expect(snippetOf(d, "absent")).toBeUndefined();
    expect(snippetOf({ text: "A" }, "a")).toBeUndefined();
  });

  it("find the hit in the original text where lower-casing changes lengths (İ is two code units lower)", () => {
    const d = doc(`İİİİ ${"x".repeat(50)} Netherlands`);
    expect(d.search.length).not.toBe(d.text.length);
    expect(snippetOf(d, "netherlands")).toMatch(/ Netherlands…$/);
  });
});

describe("the server", () => {
  it("answers a 405 in JSON like every other error", async () => {
    const dir = tempDir("explore-405-");
    writeFileSync(join(dir, "qrels"), "1 0 d1 1\n");
    writeFileSync(join(dir, "a.run"), "1 Q0 d1 1 3 a\n");
    writeFileSync(join(dir, "b.run"), "1 Q0 d1 1 2 b\n");
    const explorer = await Explorer.open({
      qrels: join(dir, "qrels"),
      runs: [join(dir, "a.run"), join(dir, "b.run")],
    });
    const s = await serveExplorer(explorer, { host: "127.0.0.1", port: 0 });
    try {
      const port = Number(new URL(s.url).port);
      const r = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
        const q = request({ host: "127.0.0.1", port, path: "/api/meta", method: "POST" }, (res) => {
          let body = "";
          res.on("data", (d) => {
            body += d;
          });
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), body }),
          );
        });
        q.on("error", reject);
        q.end();
      });
      expect(r.status).toBe(405);
      expect(r.type).toBe("application/json; charset=utf-8");
      expect(JSON.parse(r.body)).toEqual({ error: "read-only: GET and HEAD only, not POST" });
    } finally {
      s.server.closeAllConnections();
      await new Promise((r) => s.server.close(r));
      await explorer.close();
    }
  });
});

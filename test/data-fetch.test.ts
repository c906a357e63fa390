// convkit-data fetch against a local HTTP server on 127.0.0.1 serving fixture files.

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { REPO, runCliAsync, tempDir } from "@convkit/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const served = new Map<string, Buffer>([
  ["/aliannejadi/ClariQ/master/data/dev.tsv", readFileSync(join(REPO, "data/clariq/dev.sample.tsv"))],
  [
    "/aliannejadi/qulac/master/data/qulac/qulac.json",
    readFileSync(join(REPO, "data/qulac/qulac.sample.json")),
  ],
]);
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = served.get(req.url ?? "");
    if (!body) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "content-length": body.length });
    // Two writes, so the client sees a streamed body.
    res.write(body.subarray(0, 100));
    res.end(body.subarray(100));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function manifest(dir: string, files: object[]): string {
  const m = join(dir, "sources.json");
  writeFileSync(m, JSON.stringify({ base: "https://unused.invalid", files }));
  return m;
}

describe("convkit-data fetch", () => {
  it("downloads every listed file to its place, byte for byte", async () => {
    const dir = tempDir();
    const m = manifest(dir, [
      {
        dataset: "clariq",
        repo: "aliannejadi/ClariQ",
        ref: "master",
        path: "data/dev.tsv",
        to: "clariq/dev.tsv",
      },
      {
        dataset: "qulac",
        repo: "aliannejadi/qulac",
        ref: "master",
        path: "data/qulac/qulac.json",
        to: "qulac/qulac.json",
      },
    ]);
    const r = await runCliAsync("data", [
      "fetch",
      "--manifest",
      m,
      "--base-url",
      base,
      "--out",
      join(dir, "real"),
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(
      readFileSync(join(dir, "real/clariq/dev.tsv")).equals(
        served.get("/aliannejadi/ClariQ/master/data/dev.tsv")!,
      ),
    ).toBe(true);
    expect(
      readFileSync(join(dir, "real/qulac/qulac.json")).equals(
        served.get("/aliannejadi/qulac/master/data/qulac/qulac.json")!,
      ),
    ).toBe(true);
  });

  it("--only picks datasets; a missing file is exit 1 with the URL and status, nothing left behind", async () => {
    const dir = tempDir();
    const m = manifest(dir, [
      {
        dataset: "clariq",
        repo: "aliannejadi/ClariQ",
        ref: "master",
        path: "data/missing.tsv",
        to: "clariq/missing.tsv",
      },
      {
        dataset: "qulac",
        repo: "aliannejadi/qulac",
        ref: "master",
        path: "data/qulac/qulac.json",
        to: "qulac/qulac.json",
      },
    ]);
    const ok = await runCliAsync("data", [
      "fetch",
      "--manifest",
      m,
      "--base-url",
      base,
      "--out",
      join(dir, "a"),
      "--only",
      "qulac",
    ]);
    expect(ok.code).toBe(0);
    expect(existsSync(join(dir, "a/clariq"))).toBe(false);
    const bad = await runCliAsync("data", [
      "fetch",
      "--manifest",
      m,
      "--base-url",
      base,
      "--out",
      join(dir, "b"),
      "--only",
      "clariq",
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe(`${base}/aliannejadi/ClariQ/master/data/missing.tsv: HTTP 404 Not Found`);
    expect(existsSync(join(dir, "b/clariq/missing.tsv"))).toBe(false);
  });
});

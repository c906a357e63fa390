// convkit-data fetch against a local HTTP server on 127.0.0.1 serving fixture files.

import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
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

describe("convkit-data fetch against a server that misbehaves", () => {
  // Responses held open by the misbehaving routes, ended when the suite ends.
  const held: ServerResponse[] = [];
  let bad: Server;
  let badBase: string;
  beforeAll(async () => {
    bad = createServer((req, res) => {
      if (req.url?.endsWith("/silent")) {
        held.push(res);
        return;
      }
      res.writeHead(200, { "content-length": 1000 });
      // A body cut short: the connection closes once 100 of the 1000 bytes announced are sent.
      res.write(Buffer.alloc(100, 97), () => {
        if (!req.url?.endsWith("/stalls")) res.socket?.end();
      });
      if (req.url?.endsWith("/stalls")) held.push(res);
    });
    await new Promise<void>((r) => bad.listen(0, "127.0.0.1", r));
    badBase = `http://127.0.0.1:${(bad.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    for (const res of held) res.destroy();
    return new Promise<void>((r) => bad.close(() => r()));
  });

  /**
   * A fetch of one file from `path` on the misbehaving server. Only the timeout a case is about is
   * short: a loaded machine can take over 0.3 s to see a response that came at once.
   */
  async function fetchOne(path: string, to = "clariq/dev.tsv", timeouts = { connect: "30", idle: "30" }) {
    const dir = tempDir();
    const m = manifest(dir, [{ dataset: "clariq", repo: "r", ref: "main", path, to }]);
    const out = join(dir, "real");
    const r = await runCliAsync("data", [
      "fetch",
      "--manifest",
      m,
      "--base-url",
      badBase,
      "--out",
      out,
      "--connect-timeout",
      timeouts.connect,
      "--idle-timeout",
      timeouts.idle,
    ]);
    return { ...r, dir, out, url: `${badBase}/r/main/${path}` };
  }

  it("a server that never answers: one line after the connect timeout, exit 1, nothing written", async () => {
    const r = await fetchOne("silent", undefined, { connect: "0.3", idle: "30" });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`${r.url}: no response within 0.3 s\n`);
    expect(existsSync(r.out)).toBe(false);
  });

  it("a server that stops sending mid-body: one line after the idle timeout, exit 1, nothing left behind", async () => {
    const r = await fetchOne("stalls", undefined, { connect: "30", idle: "1" });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`${r.url}: nothing received for 1 s after 100 of 1000 bytes\n`);
    expect(existsSync(r.out)).toBe(false);
  });

  it("a body cut short: one line (no TypeError, no stack), exit 1, nothing left behind", async () => {
    const r = await fetchOne("cut");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      // What fetch had buffered when the connection closed may go with the errored stream: 0 or 100.
      new RegExp(
        `^${r.url.replace(/[.]/g, "\\.")}: the body ended after (0|100) of 1000 bytes \\(terminated[^\\n]*\\)\\n$`,
      ),
    );
    expect(existsSync(r.out)).toBe(false);
  });

  it.each([".", "a/..", "clariq/", "../x.tsv"])(
    'a manifest whose "to" is %j is bad input: one line, exit 2, nothing written anywhere',
    async (to) => {
      const r = await fetchOne("cut", to);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `${join(r.dir, "sources.json")}: expected a path inside the output folder in files[0].to, found ${JSON.stringify(to)}\n`,
      );
      expect(readdirSync(r.dir)).toEqual(["sources.json"]);
    },
  );
});

// Issue #39, item 6: the explorer answers its own names only (no DNS rebinding), and its API
// pages of its own origin only; a real server on a random port.
import { writeFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { ConvkitError } from "@convkit/io";
import { tempDir } from "@convkit/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Explorer } from "./explorer.js";
import { serveExplorer } from "./server.js";

let explorer: Explorer;
let server: Awaited<ReturnType<typeof serveExplorer>>["server"];
let port: number;

beforeAll(async () => {
  const dir = tempDir("explore-host-");
  writeFileSync(join(dir, "qrels"), "1 0 d1 1\n");
  writeFileSync(join(dir, "a.run"), "1 Q0 d1 1 3 a\n");
  writeFileSync(join(dir, "b.run"), "1 Q0 d1 1 2 b\n");
  explorer = await Explorer.open({
    qrels: join(dir, "qrels"),
    runs: [join(dir, "a.run"), join(dir, "b.run")],
  });
  const s = await serveExplorer(explorer, { host: "127.0.0.1", port: 0 });
  server = s.server;
  port = Number(new URL(s.url).port);
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await explorer.close();
});

/** A GET to the server with the given headers: status and body. */
function get(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const r = request({ host: "127.0.0.1", port, path, headers, setHost: false }, (res) => {
      let body = "";
      res.on("data", (c) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    r.on("error", reject);
    r.end();
  });
}

describe("Host and Origin", () => {
  it("answers Host 127.0.0.1, localhost and [::1] with its port", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`])
      expect((await get("/api/meta", { host })).status, host).toBe(200);
  });

  it("any other Host (DNS rebinding), another port or none is 421 with a JSON body saying why", async () => {
    for (const host of ["evil.example", `evil.example:${port}`, `127.0.0.1:${port + 1}`, "127.0.0.1"]) {
      for (const path of ["/api/meta", "/"]) {
        const r = await get(path, { host });
        expect(r.status, host).toBe(421);
        expect(JSON.parse(r.body).error).toContain(`127.0.0.1:${port}`);
      }
    }
    // No Host at all: Node itself refuses the request (400).
    expect((await get("/api/meta", {})).status).toBe(400);
  });

  it("an API request from another Origin is 403 in JSON; its own origin, or none, is answered", async () => {
    const host = `127.0.0.1:${port}`;
    for (const origin of [
      "http://evil.example",
      `https://127.0.0.1:${port}`,
      "null",
      `http://127.0.0.1:${port + 1}`,
    ]) {
      const r = await get("/api/meta", { host, origin });
      expect(r.status, origin).toBe(403);
      expect(JSON.parse(r.body).error).toContain(origin);
    }
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`])
      expect((await get("/api/meta", { host, origin })).status, origin).toBe(200);
    expect((await get("/api/meta", { host })).status).toBe(200);
  });
});

describe("listening", () => {
  it("a port in use is one line naming it (was 'Error: listen EADDRINUSE' and a stack)", async () => {
    const second = serveExplorer(explorer, { host: "127.0.0.1", port });
    await expect(second).rejects.toThrow(`cannot listen on 127.0.0.1:${port}: address already in use`);
    await expect(second).rejects.toBeInstanceOf(ConvkitError);
  });
});

// The HTTP side: GET only, exact routes (the app's assets and /api/…), nothing read from paths.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Explorer } from "./explorer.js";

/** The app's files, built by web/build.mjs into dist/web (read once; served from memory). */
function appAssets(): Map<string, { type: string; body: Buffer }> {
  const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "web");
  const file = (name: string) => readFileSync(join(dir, name));
  return new Map([
    ["/", { type: "text/html; charset=utf-8", body: file("index.html") }],
    ["/app.js", { type: "text/javascript; charset=utf-8", body: file("app.js") }],
    ["/app.css", { type: "text/css; charset=utf-8", body: file("app.css") }],
  ]);
}

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  // Everything the page needs comes from this server: no CDN, no inline script from elsewhere.
  "content-security-policy":
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; frame-ancestors 'none'",
};

/**
 * Starts the explorer's server. Requests are matched against a fixed table (the assets and
 * `/api/<endpoint>`); no path is ever mapped to a file, so `/../x` or `%2e%2e` get 404.
 */
export async function serveExplorer(
  explorer: Explorer,
  o: { host: string; port: number },
): Promise<{ server: Server; url: string }> {
  const assets = appAssets();
  const server = createServer((req, res) => {
    const send = (status: number, type: string, body: Buffer | string) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store", ...SECURITY_HEADERS });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("allow", "GET, HEAD");
      send(405, "text/plain; charset=utf-8", "read-only: GET and HEAD only\n");
      return;
    }
    const raw = req.url ?? "/";
    const q = raw.indexOf("?");
    const pathname = q < 0 ? raw : raw.slice(0, q);
    const asset = assets.get(pathname === "/index.html" ? "/" : pathname);
    if (asset) {
      send(200, asset.type, asset.body);
      return;
    }
    if (!/^\/api\/[a-z]+(\/[a-z]+)?$/.test(pathname)) {
      send(404, "text/plain; charset=utf-8", "not found\n");
      return;
    }
    explorer.api(pathname.slice(5), new URLSearchParams(q < 0 ? "" : raw.slice(q + 1))).then(
      (a) => send(a.status, "application/json; charset=utf-8", JSON.stringify(a.body)),
      (e: unknown) =>
        send(
          500,
          "application/json; charset=utf-8",
          JSON.stringify({ error: (e as Error).message ?? String(e) }),
        ),
    );
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(o.port, o.host, () => ok());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  return { server, url: `http://${host}:${addr.port}/` };
}

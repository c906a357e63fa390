// The HTTP side: GET only, exact routes (the app's assets and /api/…), nothing read from paths.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { ConvkitError } from "@convkit/io";
import type { Explorer } from "./explorer.js";
import { webFile } from "./web-files.js";

/** The app's files, built by web/build.mjs into dist/web (read once; served from memory). */
function appAssets(): Map<string, { type: string; body: Buffer }> {
  const file = webFile;
  return new Map([
    ["/", { type: "text/html; charset=utf-8", body: file("index.html") }],
    ["/app.js", { type: "text/javascript; charset=utf-8", body: file("app.js") }],
    ["/app.css", { type: "text/css; charset=utf-8", body: file("app.css") }],
  ]);
}

/** The longest request URL answered (a search of 4,000 characters fits); longer ones get 414. */
const MAX_URL_BYTES = 8192;
const MAX_HEADER_BYTES = 256 * 1024;

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
  // Node refuses headers over 16 KB with a bare 431; a bigger limit lets a long URL reach the
  // handler, which answers it in JSON the page can show.
  // Filled in once listening (the port may be 0 = any): the names this server answers to.
  let hosts = new Set<string>();
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    const send = (status: number, type: string, body: Buffer | string) => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store", ...SECURITY_HEADERS });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    const refused = refusal(req.headers.host, req.headers.origin, req.url ?? "/", hosts);
    if (refused) {
      send(refused.status, "application/json; charset=utf-8", JSON.stringify({ error: refused.error }));
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("allow", "GET, HEAD");
      // JSON like every other refusal: the page (and a script) reads `error` the same way.
      send(
        405,
        "application/json; charset=utf-8",
        JSON.stringify({ error: `read-only: GET and HEAD only, not ${req.method}` }),
      );
      return;
    }
    const raw = req.url ?? "/";
    if (raw.length > MAX_URL_BYTES) {
      send(
        414,
        "application/json; charset=utf-8",
        JSON.stringify({
          error: `the request is ${raw.length.toLocaleString("en-US")} characters long; at most ${MAX_URL_BYTES.toLocaleString("en-US")} (a shorter search?)`,
        }),
      );
      return;
    }
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
          JSON.stringify({ error: e instanceof Error ? e.message : String(e) }),
        ),
    );
  });
  // Past even that limit (or a malformed request), Node gives up before the handler: the answer
  // still carries a JSON body saying why.
  server.on("clientError", (err: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return;
    const tooBig = err.code === "HPE_HEADER_OVERFLOW";
    const body = JSON.stringify({
      error: tooBig
        ? `the request's headers pass ${MAX_HEADER_BYTES.toLocaleString("en-US")} bytes`
        : "a malformed request",
    });
    socket.end(
      `HTTP/1.1 ${tooBig ? "431 Request Header Fields Too Large" : "400 Bad Request"}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((ok, fail) => {
    // A port in use or a host that is not this machine's is the user's choice: one line, no stack.
    const onError = (e: Error) => fail(listenError(o, e));
    server.on("error", onError);
    server.listen(o.port, o.host, () => {
      server.off("error", onError);
      ok();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;
  hosts = new Set([...LOOPBACK_NAMES, host].map((h) => `${h}:${addr.port}`));
  return { server, url: `http://${host}:${addr.port}/` };
}

/** A failed listen as one line: `cannot listen on 127.0.0.1:8080: address already in use`. */
function listenError(o: { host: string; port: number }, e: Error): ConvkitError {
  // Node's message is `listen CODE: description HOST:PORT`; the description is libuv's strerror.
  const reason = /^\w+ E[A-Z0-9]+: (.+?)(?: \S+:\d+)?$/.exec(e.message)?.[1] ?? e.message;
  return new ConvkitError(`cannot listen on ${o.host}:${o.port}: ${reason}`);
}

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/**
 * Why a request is refused, if it is: a `Host` that is not this server's own name and port (a page
 * of another site reaching it through DNS rebinding: 421), or an API request whose `Origin` is
 * another site's (403). Browsers send both as the page's, which no script can change.
 */
function refusal(
  host: string | undefined,
  origin: string | undefined,
  url: string,
  hosts: ReadonlySet<string>,
): { status: number; error: string } | undefined {
  const names = [...hosts].join(", ");
  if (host === undefined || !hosts.has(host.toLowerCase()))
    return {
      status: 421,
      error: `this server answers to ${names} only, not Host ${JSON.stringify(host ?? "")}`,
    };
  if (
    origin !== undefined &&
    url.startsWith("/api/") &&
    !hosts.has(origin.toLowerCase().replace(/^http:\/\//, ""))
  )
    return {
      status: 403,
      error: `the API answers pages of ${names} only, not Origin ${JSON.stringify(origin)}`,
    };
  return undefined;
}

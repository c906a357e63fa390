// One self-contained HTML file of a view: the app's script and styles inlined with the answers it asks for.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "@convkit/io";
import type { Explorer } from "./explorer.js";

export const VIEW_NAMES = ["dataset", "conversations", "evaldicts", "runs", "passages"] as const;

type Params = Record<string, string>;

/** The request URL as the app builds it (empty values dropped, insertion order kept). */
function apiUrl(path: string, params: Params = {}): string {
  const q = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== ""));
  const s = q.toString();
  return `api/${path}${s ? `?${s}` : ""}`;
}

/**
 * The requests the app makes to draw `view` with `p` (web/app.ts asks for exactly these, with
 * these parameters in this order): each view's first page and the item the URL selects.
 */
async function requestsOf(explorer: Explorer, view: string, p: Params): Promise<[string, Params][]> {
  const r: [string, Params][] = [["meta", {}]];
  const file = p.file ?? "0";
  switch (view) {
    case "dataset":
      r.push(["dataset/topics", { q: p.q ?? "", split: p.split ?? "", offset: "0", limit: "500" }]);
      if (p.topic) r.push(["dataset/topic", { id: p.topic }]);
      break;
    case "conversations":
      r.push(["conversations/topics", { file }]);
      if (p.topic) r.push(["conversations/topic", { file, id: p.topic }]);
      if (p.ctx) r.push(["conversations/context", { file, id: p.ctx, offset: p.offset ?? "0", limit: "50" }]);
      break;
    case "evaldicts":
      r.push(["evaldict/contexts", { file, q: p.q ?? "", offset: p.offset ?? "0", limit: "200" }]);
      if (p.ctx) r.push(["evaldict/context", { file, id: p.ctx }]);
      break;
    case "runs": {
      r.push(["runs/summary", {}]);
      const measure = p.measure ?? explorer.runs?.comparison.measures[0]?.name ?? "";
      r.push(["runs/deltas", { measure, b: p.b ?? "1" }]);
      if (p.topic) r.push(["runs/topic", { id: p.topic, depth: "20" }]);
      break;
    }
    case "passages":
      r.push(["passages/docs", { file, q: p.q ?? "", offset: "0", limit: "500" }]);
      if (p.doc) r.push(["passages/doc", { file, id: p.doc }]);
      break;
  }
  return r;
}

/** `<` and friends escaped so inlined JSON cannot end the script element. */
const scriptSafe = (s: string) =>
  s
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

/** The page of `hash` (e.g. `#/runs?measure=P1`) with its data inlined: opens from disk, no server. */
export async function staticPage(explorer: Explorer, hash: string): Promise<string> {
  const [v, q] = hash.replace(/^#?\/?/, "").split("?");
  const view = v || "dataset";
  if (!(VIEW_NAMES as readonly string[]).includes(view))
    throw new UsageError(
      `--view must be one of ${VIEW_NAMES.map((x) => `#/${x}`).join(", ")}, not ${JSON.stringify(hash)}`,
    );
  const params = Object.fromEntries(new URLSearchParams(q ?? ""));
  const data: Record<string, unknown> = {};
  for (const [path, ps] of await requestsOf(explorer, view, params)) {
    const a = await explorer.api(path, new URLSearchParams(Object.entries(ps).filter(([, x]) => x !== "")));
    if (a.status !== 200)
      throw new UsageError(`--view ${hash}: ${path} answers ${(a.body as { error: string }).error}`);
    data[apiUrl(path, ps)] = a.body;
  }
  const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "web");
  const css = readFileSync(join(dir, "app.css"), "utf8");
  const js = readFileSync(join(dir, "app.js"), "utf8");
  const target = `#/${view}${q ? `?${q}` : ""}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>convkit explore: ${view}</title>
<style>${css.replace(/<\/style/gi, "<\\/style")}</style>
</head>
<body>
<header><strong>convkit explore</strong><nav id="nav"></nav><span class="hint">a static page of one view: ${target.replace(/[<&]/g, "")}</span></header>
<main id="main"><p>Loading…</p></main>
<script>window.__CONVKIT_DATA__ = ${scriptSafe(JSON.stringify(data))};
if (location.hash !== ${scriptSafe(JSON.stringify(target))}) history.replaceState(null, "", ${scriptSafe(JSON.stringify(target))});</script>
<script>${js.replace(/<\/script/gi, "<\\/script")}</script>
</body>
</html>
`;
}

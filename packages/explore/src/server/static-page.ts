// One self-contained HTML file of a view: the app's script and styles inlined with the answers it asks for.
import { UsageError } from "@convkit/io";
import { type ApiError, apiUrl } from "../shared/api.js";
import {
  itemParams,
  linkedRequests,
  parseHash,
  planRequests,
  type Req,
  VIEW_NAMES,
  viewHash,
} from "../shared/views.js";
import type { Explorer } from "./explorer.js";
import { webFile } from "./web-files.js";

/** At most this many of the list's items get their own answers inlined (the rest need the server). */
const MAX_ITEMS = 60;
/** And at most this much inlined JSON. */
const MAX_BYTES = 24 << 20;

/** `<` and friends escaped so inlined JSON cannot end the script element. */
const scriptSafe = (s: string) =>
  s
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
const htmlText = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The page of `hash` (e.g. `#/runs?measure=P1`) with its data inlined: opens from disk, no server.
 * The requests are the page's own plan (views.ts) for the view and for each item of its list's
 * first page, so the reader can open those items; anything else is marked as needing the server.
 */
export async function staticPage(explorer: Explorer, asked: string | undefined): Promise<string> {
  const on = explorer.meta().views;
  const withData = VIEW_NAMES.filter((v) => on[v === "evaldicts" ? "evalDicts" : v]);
  if (withData.length === 0)
    throw new UsageError("--static: nothing to show: give inputs (--data, --run, --topics, --passages, …)");
  // Without --view, the first view that has data (an empty page would be a silent success).
  const hash = asked ?? `#/${withData[0]}`;
  const [v] = hash.replace(/^#?\/?/, "").split("?");
  if (v && !(VIEW_NAMES as readonly string[]).includes(v))
    throw new UsageError(
      `--view must be one of ${VIEW_NAMES.map((x) => `#/${x}`).join(", ")}, not ${JSON.stringify(hash)}`,
    );
  const { view, params } = parseHash(hash);
  if (!(withData as readonly string[]).includes(view))
    throw new UsageError(
      `--view ${hash}: that view has no data here (views with data: ${withData.map((x) => `#/${x}`).join(", ")})`,
    );
  const data: Record<string, unknown> = {};
  let bytes = 0;
  const fetchInto = async (r: Req, must: boolean) => {
    const url = apiUrl(r.path, r.params);
    if (url in data) return data[url];
    const a = await explorer.api(r.path, new URLSearchParams(url.split("?")[1] ?? ""));
    if (a.status !== 200) {
      if (must) throw new UsageError(`--view ${hash}: ${r.path} answers ${(a.body as ApiError).error}`);
      return undefined;
    }
    const json = JSON.stringify(a.body);
    if (!must && bytes + json.length > MAX_BYTES) return undefined;
    bytes += json.length;
    data[url] = a.body;
    return a.body;
  };
  await fetchInto({ path: "meta", params: {} }, true);
  const [list, ...rest] = planRequests(view, params);
  if (list === undefined) throw new Error(`${view}: a view without requests`);
  const listAnswer = await fetchInto(list, true);
  for (const r of rest) await fetchInto(r, true);
  for (const r of linkedRequests(view, params)) await fetchInto(r, false);
  for (const p of itemParams(view, params, listAnswer as never).slice(0, MAX_ITEMS))
    for (const r of [...planRequests(view, p), ...linkedRequests(view, p)]) await fetchInto(r, false);
  const css = webFile("app.css").toString("utf8");
  const js = webFile("app.js").toString("utf8");
  const target = viewHash(view, params);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>convkit explore: ${view}</title>
<style>${css.replace(/<\/style/gi, "<\\/style")}</style>
</head>
<body>
<header><strong>convkit explore</strong><nav id="nav"></nav><span class="hint" data-test="static-hint">static page of ${htmlText(target)}: what it holds opens here; the rest needs <code>convkit-explore</code></span></header>
<main id="main"><p>Loading…</p></main>
<script>window.__CONVKIT_DATA__ = ${scriptSafe(JSON.stringify(data))};
if (location.hash === "") history.replaceState(null, "", ${scriptSafe(JSON.stringify(target))});</script>
<script>${js.replace(/<\/script/gi, "<\\/script")}</script>
</body>
</html>
`;
}

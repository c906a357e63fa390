// convkit-explore's start-up (process start to serving) and each view's first page (the requests the app makes
// to draw it, over HTTP), on the real inputs; prints one JSON line of medians.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const [root, shared, synthetic, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const args = [
  join(root, "apps/convkit/bin/convkit-explore.js"),
  "--data",
  join(shared, "data/clariq"),
  "--qulac",
  join(shared, "data/qulac/qulac.json"),
  "--synthetic",
  synthetic,
  "--eval-dict",
  join(shared, "golden/clariq-eval/eval_dicts/multi_turn_dev_eval.pkl.tar.gz"),
  "--eval-dict",
  join(shared, "golden/clariq-eval/eval_dicts/single_turn_train_eval.pkl"),
  "--run",
  join(shared, "data/clariq/sample_runs/dev_no_q"),
  "--run",
  join(shared, "data/clariq/sample_runs/dev_bm25"),
  "--passages",
  join(shared, "data/ikat/2023_train_topics_psg_text.jsonl"),
  "--port",
  "0",
];

/** Each view's first page: the requests web/app.ts makes to draw it with an item selected. */
const pages = (first) => ({
  dataset: ["meta", "dataset/topics?q=&offset=0&limit=100", `dataset/topic?id=${first.topic}`],
  conversations: [
    "meta",
    "conversations/topics?file=0&q=&offset=0&limit=100",
    `conversations/topic?file=0&id=${first.topic}`,
    `conversations/context?file=0&id=${first.ctx}&offset=0&limit=50`,
  ],
  evaldicts: [
    "meta",
    "evaldict/contexts?file=0&q=&far=0&offset=0&limit=200",
    `evaldict/context?file=0&id=${first.evalCtx}`,
  ],
  runs: [
    "meta",
    "runs/summary",
    "runs/deltas?measure=MRR100&b=1&sort=abs&offset=0&limit=200",
    `runs/topic?id=${first.runTopic}&depth=20`,
  ],
  passages: ["meta", "passages/docs?file=0&q=&offset=0&limit=100", `passages/doc?file=0&id=${first.doc}`],
});

const results = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "ignore", "pipe"] });
  const base = await new Promise((resolve, reject) => {
    let err = "";
    child.stderr.on("data", (d) => {
      err += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(err);
      if (m) resolve(m[1]);
    });
    child.on("exit", (c) => reject(new Error(`convkit-explore exited ${c}: ${err}`)));
  });
  const startup = (performance.now() - t0) / 1000;
  const get = async (p) => {
    const r = await fetch(`${base}api/${p}`);
    if (!r.ok) throw new Error(`${p}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  const synthetic = (await get("conversations/topics?file=0")).items[0].topic_id;
  const tree = await get(`conversations/topic?file=0&id=${synthetic}`);
  const first = {
    topic: synthetic,
    ctx: tree[0].tree[0].children[0]?.children[0]?.context_id ?? tree[0].tree[0].context_id,
    evalCtx: (await get("evaldict/contexts?file=0&offset=7000&limit=1")).items[0]?.id,
    runTopic: (await get("runs/deltas?measure=MRR100&b=1")).rows[0].topic,
    doc: (await get("passages/docs?file=0&offset=0&limit=1")).items[0].id,
  };
  const times = {};
  // A fresh process per round: the first page of each view after start-up.
  for (const [view, reqs] of Object.entries(pages(first))) {
    const t = performance.now();
    for (const r of reqs) await get(r);
    times[view] = (performance.now() - t) / 1000;
  }
  const rss =
    Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  child.kill("SIGTERM");
  await new Promise((r) => child.on("exit", r));
  results.push({ startup, times, rss });
}
const views = Object.keys(results[0].times);
console.log(
  JSON.stringify({
    runs,
    startup: median(results.map((r) => r.startup)),
    maxRssMiB: median(results.map((r) => r.rss)),
    pages: Object.fromEntries(views.map((v) => [v, median(results.map((r) => r.times[v]))])),
  }),
);

// Seeded TREC runs and graded qrels for the trec-eval rows: nothing is repeated, every topic is
// drawn afresh. Three shapes:
//   grid      1,000 topics × 1,000 documents, 150 graded judgments a topic (150,000): issue #31's run.
//   msmarco   MS MARCO passage-shaped: 1,200 topics with 6- or 7-digit qids in no order, passage
//             ids (0–8,841,822) as docnos, BM25-like scores at 4 decimals (many ties), TREC DL-style
//             qrels (grades 0–3) for 2 topics in 3, some judged passages not retrieved.
//   clueweb   ClueWeb22-shaped, the run convkit was not tuned on (its own seed): 900 topics named
//             like iKAT turns, ClueWeb22-B ids, log-probability scores (negative, some in exponent
//             form, ties), tab-separated lines with trailing spaces in a few, depth 1–1,000, a few
//             negative grades.
import { once } from "node:events";
import { createWriteStream } from "node:fs";

/** mulberry32: small, seeded, good enough for shapes. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SHAPES = {
  grid: { seed: 31, topics: 1000 },
  msmarco: { seed: 2019, topics: 1200 },
  clueweb: { seed: 7177, topics: 900 },
};

/** One topic: its qid, its ranked lines' fields, its judgments. */
function* topicsOf(shape, r) {
  const { topics } = SHAPES[shape];
  const usedQ = new Set();
  for (let t = 0; t < topics; t++) {
    let qid;
    if (shape === "grid") qid = String(t + 1);
    else if (shape === "msmarco") {
      do qid = String(Math.floor(r() < 0.3 ? 100000 + r() * 900000 : 1000000 + r() * 102000));
      while (usedQ.has(qid));
    } else {
      do qid = `2023-${String(1 + Math.floor(r() * 40)).padStart(2, "0")}-${1 + Math.floor(r() * 30)}`;
      while (usedQ.has(qid));
    }
    usedQ.add(qid);
    const depth = shape === "clueweb" && r() < 0.2 ? 1 + Math.floor(r() * 1000) : 1000;
    const docs = new Set();
    const docno = () => {
      if (shape === "grid") return `d${Math.floor(r() * 10_000_000)}`;
      if (shape === "msmarco") return String(Math.floor(r() * 8_841_823));
      const seg = String(Math.floor(r() * 80)).padStart(4, "0");
      return `clueweb22-en${seg}-${String(Math.floor(r() * 100)).padStart(2, "0")}-${String(Math.floor(r() * 100000)).padStart(5, "0")}`;
    };
    while (docs.size < depth) docs.add(docno());
    const list = [...docs];
    // Scores: decreasing with rank, with ties (runs of equal scores), formatted as each shape's tool prints.
    const scores = [];
    let s = shape === "msmarco" ? 30 + r() * 20 : shape === "grid" ? 1 : -1 - r();
    for (let i = 0; i < depth; i++) {
      if (r() > 0.15) s -= r() * (shape === "msmarco" ? 0.05 : 0.002);
      scores.push(s);
    }
    const fmt = (x) => {
      if (shape === "msmarco") return x.toFixed(4);
      if (shape === "grid") return x.toFixed(6);
      return r() < 0.1 ? x.toExponential(5) : x.toFixed(7);
    };
    const judged = new Map();
    if (shape !== "msmarco" || r() < 0.67) {
      const n = shape === "grid" ? 150 : 50 + Math.floor(r() * 250);
      while (judged.size < n) {
        // Most judged documents are retrieved (pooled from the top), some not.
        const d = r() < 0.7 ? list[Math.floor(r() * r() * list.length)] : docno();
        const u = r();
        let g = u < 0.55 ? 0 : u < 0.8 ? 1 : u < 0.93 ? 2 : 3;
        if (shape === "clueweb" && r() < 0.02) g = -1;
        judged.set(d, g);
      }
    }
    yield { qid, docs: list, scores: scores.map(fmt), judged };
  }
}

/** Writes `run` and `qrels` for a shape; returns line counts. */
export async function generateTrecEval(shape, runPath, qrelsPath) {
  const r = rng(SHAPES[shape].seed);
  const run = createWriteStream(runPath);
  const qrels = createWriteStream(qrelsPath);
  let runLines = 0;
  let judgments = 0;
  const sep = shape === "clueweb" ? "\t" : " ";
  const tag = { grid: "grid", msmarco: "bm25", clueweb: "ikat-splade" }[shape];
  for (const t of topicsOf(shape, r)) {
    let s = "";
    for (let i = 0; i < t.docs.length; i++) {
      const trail = shape === "clueweb" && i % 97 === 0 ? "  " : "";
      s += `${t.qid}${sep}Q0${sep}${t.docs[i]}${sep}${i + 1}${sep}${t.scores[i]}${sep}${tag}${trail}\n`;
    }
    runLines += t.docs.length;
    if (!run.write(s)) await once(run, "drain");
    let q = "";
    for (const [d, g] of t.judged) q += `${t.qid} 0 ${d} ${g}\n`;
    judgments += t.judged.size;
    if (!qrels.write(q)) await once(qrels, "drain");
  }
  run.end();
  qrels.end();
  await Promise.all([once(run, "close"), once(qrels, "close")]);
  return { runLines, judgments };
}

// node bench/gen-trec-eval.mjs SHAPE RUN QRELS
if (import.meta.url === `file://${process.argv[1]}`) {
  const [shape, runPath, qrelsPath] = process.argv.slice(2);
  console.log(JSON.stringify(await generateTrecEval(shape, runPath, qrelsPath)));
}

// The segment benchmarks' corpus: ClueWeb22 txt records (the JSONL `convkit-segment run` reads) whose
// Clean-Text is real text, read at generation time from the shared data by path (nothing is copied):
//
// - TREC iKAT 2023 official passages (`2023_train_topics_psg_text.jsonl`) rebuilt into documents:
//   grouped by doc_id in passage_id order, consecutive passages joined where one begins inside the
//   other (the 5-sentence overlap kept once), passages with a gap between them on lines of their own;
// - the seed documents (`seeds/*`), split into paragraphs at blank lines;
// - ClariQ train/dev/test_with_labels (`question` and `answer`, a line each) and Qulac (`topic_desc`,
//   `facet_desc`, `question`, `answer`), each distinct text once;
// - titles (a record's first line, as in ClueWeb22): ClariQ `initial_request`s and Qulac topics.
//
// A document is a title line, then runs of consecutive units (iKAT documents, seed paragraphs,
// ClariQ/Qulac texts), one per line, each run from the source furthest below its share of the body
// bytes (SHARES), until it reaches a drawn length: log-normal, median ~5 KB (most documents a few
// KB), and 1% of 100 KB to 1 MB (the long tail of web documents, of which the chunker keeps only the
// first 10,000 code points: about a third of the input bytes, hardly any of the text segmented). The
// same seeded draws every time, fresh ClueWeb22-style ids: a smaller corpus is the head of a larger.
//
// Beside `web-MB.jsonl`, `web-MB.meta.json` holds what generation measured: input bytes, and bytes
// of the text the iKAT preset actually segments (`prepareText`: newlines flattened, stripped, first
// 10,000 code points), so that every rate is reported both per MB of input and per MB segmented.
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { readClariqRows, readQulacJson } from "@convkit/formats";
import { IKAT, prepareText, pyStrip } from "@convkit/segment";

/** Bumped when the corpus changes: an older file in bench/.work is generated again. */
const VERSION = 2;
const SEED = 99;
/** Shares of body text bytes by source. */
const SHARES = { ikat: 0.5, seeds: 0.2, clariq: 0.15, qulac: 0.15 };
/** 1% of documents are drawn from 100 KB to 1 MB. */
const TAIL = { share: 0.01, min: 100_000, max: 1_000_000 };

/** The corpus file and its measurements for a size in MiB. */
export function corpusPaths(work, mb) {
  return { input: join(work, `web-${mb}mb.jsonl`), meta: join(work, `web-${mb}mb.meta.json`) };
}

/** The measurements of a generated corpus, or undefined when it is missing or of an older version. */
export function readCorpusMeta(work, mb) {
  const { input, meta } = corpusPaths(work, mb);
  return readGeneratedMeta(input, meta, VERSION);
}

/**
 * A generated file's measurements (`meta`, written after the file `data`), or undefined when either
 * is missing or the measurements are of another generator version.
 */
export function readGeneratedMeta(data, meta, version) {
  if (!existsSync(data) || !existsSync(meta)) return undefined;
  const m = JSON.parse(readFileSync(meta, "utf8"));
  return m.version === version ? m : undefined;
}

/** The text of an official passage without its `\n…\n` wrapper. */
const unwrap = (raw) => raw.trim();

/** Where in passage `a` the next passage `b` begins (after a joining space), or -1. */
function overlapStart(a, b) {
  for (let p = a.indexOf(" ") + 1; p > 0 && p < a.length; p = a.indexOf(" ", p) + 1)
    if (b.startsWith(a.slice(p))) return p;
  return -1;
}

/** iKAT documents rebuilt from their official passages (documents in order of first appearance). */
export function ikatDocuments(path) {
  const byDoc = new Map();
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const r = JSON.parse(line);
    const m = byDoc.get(r.doc_id) ?? new Map();
    m.set(Number(r.passage_id), unwrap(r.passage_text));
    byDoc.set(r.doc_id, m);
  }
  const out = [];
  for (const m of byDoc.values()) {
    let text = "";
    let prev;
    let prevK = Number.NaN;
    for (const k of [...m.keys()].sort((a, b) => a - b)) {
      const p = m.get(k);
      if (p === "") continue;
      const at = prev !== undefined && k === prevK + 1 ? overlapStart(prev, p) : -1;
      if (at > 0) text = text.slice(0, text.length - (prev.length - at)) + p;
      else if (prev !== undefined && k === prevK + 1) text += ` ${p}`;
      else text += text ? `\n${p}` : p;
      prev = p;
      prevK = k;
    }
    if (text) out.push(text);
  }
  return out;
}

/** Paragraphs of the seed documents (files in name order). */
function seedParagraphs(dir) {
  const out = [];
  for (const f of readdirSync(dir).sort())
    for (const p of readFileSync(join(dir, f), "utf8").split(/\n[ \t]*\n/)) {
      const t = p.replace(/^\s*\n|\s+$/g, "");
      if (t.trim()) out.push(t);
    }
  return out;
}

/** Distinct non-empty texts, in first-seen order. */
function distinct(texts) {
  const seen = new Set();
  for (const t of texts) if (t?.trim()) seen.add(t.trim());
  return [...seen];
}

async function loadSources(shared) {
  const clariqRows = [];
  for (const f of ["train.tsv", "dev.tsv", "test_with_labels.tsv"])
    for await (const b of readClariqRows(join(shared, "data", "clariq", f))) clariqRows.push(...b);
  const qulacRows = await readQulacJson(join(shared, "data", "qulac", "qulac.json"));
  const sources = {
    ikat: ikatDocuments(join(shared, "data", "ikat", "2023_train_topics_psg_text.jsonl")),
    seeds: seedParagraphs(join(shared, "seeds")),
    clariq: distinct(clariqRows.flatMap((r) => [r.question, r.answer])),
    qulac: distinct(qulacRows.flatMap((r) => [r.topic_desc, r.facet_desc, r.question, r.answer])),
  };
  const titles = distinct([...clariqRows.map((r) => r.initial_request), ...qulacRows.map((r) => r.topic)]);
  return { sources, titles };
}

const pad = (n, w) => String(n).padStart(w, "0");

/**
 * Writes `web-MB.jsonl` (about `mb` MiB) and `web-MB.meta.json` under `work`, streamed to disk
 * (the corpus's size is not bounded by a string's); returns the measurements.
 */
export async function generateWebCorpus(shared, work, size) {
  const mb = Number(size);
  const { input, meta } = corpusPaths(work, mb);
  const { sources, titles } = await loadSources(shared);
  let s = SEED;
  const rnd = () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
  const names = Object.keys(SHARES);
  const sourceBytes = Object.fromEntries(names.map((n) => [n, 0]));
  const unitBytes = Object.fromEntries(names.map((n) => [n, sources[n].map((u) => Buffer.byteLength(u))]));
  let bodyBytes = 0;
  /** The source furthest below its share of the body bytes so far (units differ in size: drawing by share would not keep it). */
  const pickSource = () => {
    let best = names[0];
    for (const n of names)
      if (SHARES[n] * bodyBytes - sourceBytes[n] > SHARES[best] * bodyBytes - sourceBytes[best]) best = n;
    return best;
  };
  /** A Clean-Text of at least `target` UTF-16 units: a title line, then runs of consecutive units. */
  const cleanText = (target) => {
    const parts = [titles[Math.floor(rnd() * titles.length)]];
    let len = parts[0].length;
    while (len < target) {
      const n = pickSource();
      const units = sources[n];
      let i = Math.floor(rnd() * units.length);
      const run = 300 + rnd() * 3000;
      for (let got = 0; got < run && len < target; i = (i + 1) % units.length) {
        parts.push(units[i]);
        len += units[i].length + 1;
        got += unitBytes[n][i];
        sourceBytes[n] += unitBytes[n][i];
        bodyBytes += unitBytes[n][i];
      }
    }
    return parts.join("\n");
  };

  const tmp = `${input}.tmp`;
  const fd = openSync(tmp, "w");
  let chunk = "";
  const m = {
    version: VERSION,
    seed: SEED,
    mb,
    docs: 0,
    inputBytes: 0,
    textBytes: 0,
    segmentedBytes: 0,
    segmentedChars: 0,
    cutDocs: 0,
    tail: { docs: 0, inputBytes: 0, segmentedBytes: 0 },
    maxLength: IKAT.maxLength,
  };
  const docBytes = [];
  while (m.inputBytes < mb * 2 ** 20) {
    const n = m.docs;
    const tail = rnd() < TAIL.share;
    const target = tail
      ? TAIL.min + rnd() * (TAIL.max - TAIL.min)
      : Math.exp(Math.log(5000) + (rnd() + rnd() + rnd() - 1.5) * 1.6);
    const text = cleanText(target);
    const url = `https://example.org/${n}\n`;
    const line = `${JSON.stringify({
      "ClueWeb22-ID": `clueweb22-en${pad(Math.floor(n / 1e7), 4)}-${pad(Math.floor(n / 1e5) % 100, 2)}-${pad(n % 1e5, 5)}`,
      URL: url,
      "URL-hash": createHash("md5").update(url).digest("hex").toUpperCase(),
      Language: "en",
      "Clean-Text": text,
    })}\n`;
    const lineBytes = Buffer.byteLength(line);
    const kept = prepareText(text, IKAT);
    const keptBytes = Buffer.byteLength(kept);
    m.docs++;
    m.inputBytes += lineBytes;
    m.textBytes += Buffer.byteLength(text);
    m.segmentedBytes += keptBytes;
    m.segmentedChars += kept.length;
    if (kept.length < pyStrip(text).length) m.cutDocs++;
    if (tail) {
      m.tail.docs++;
      m.tail.inputBytes += lineBytes;
      m.tail.segmentedBytes += keptBytes;
    }
    docBytes.push(lineBytes);
    chunk += line;
    if (chunk.length > 1 << 24) {
      writeSync(fd, chunk);
      chunk = "";
    }
  }
  writeSync(fd, chunk);
  closeSync(fd);
  docBytes.sort((a, b) => a - b);
  m.medianDocBytes = docBytes[docBytes.length >> 1];
  m.sourceShares = Object.fromEntries(names.map((n) => [n, Number((sourceBytes[n] / bodyBytes).toFixed(4))]));
  m.sourceUnits = Object.fromEntries(names.map((n) => [n, sources[n].length]));
  m.titles = titles.length;
  // The corpus first, its measurements last: a corpus without them is generated again.
  renameSync(tmp, input);
  writeFileSync(meta, `${JSON.stringify(m, null, 2)}\n`);
  return m;
}

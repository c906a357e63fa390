// Held-out check against spaCy itself: texts the goldens do not hold (every string of the iKAT
// 2023–2025 topic files, the seed documents cut another way, web-like texts from another seed)
// through python3's spaCy and through convkit-segment sentences --tokens. Runs where
// `python3 -c 'import spacy'` works (pip install spacy); elsewhere skipped with that line (failed under CI).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { requires, runCli, shared, tempDir } from "@convkit/test-helpers";
import { expect, it } from "vitest";

/** Collects texts, runs spaCy as iKAT's chunker loads it, writes {id, text, tokens, ws, sent}. */
const PY = `
import glob, json, random, sys
import spacy
model, gen, out, topics = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
nlp = spacy.load(model, exclude=["parser", "tagger", "ner", "attribute_ruler", "lemmatizer", "tok2vec"])
nlp.enable_pipe("senter")
texts = []
def strings(v):
    if isinstance(v, str):
        if v.strip(): yield v
    elif isinstance(v, dict):
        for x in v.values(): yield from strings(x)
    elif isinstance(v, list):
        for x in v: yield from strings(x)
for t in topics:
    texts.extend(strings(json.load(open(t, encoding="utf-8"))))
# Web-like texts from the golden generator's grammar with another seed.
src = open(gen, encoding="utf-8").read()
ns = {"rnd": random.Random(20261123)}
exec(src.split('S = senter.labels.index("S")')[1].split("def sources():")[0], ns)
texts.extend(ns["synthetic"](1500))
# Edge cases: NUL beside special-case tokens, whitespace of every kind at the edges, astral text.
texts.extend(["ca\\x00can", "do\\x00not can't", " \\u00a0lead", "trail \\t\\n", "\\u3000x\\u2028y\\x85z", "😀😀 a.😀 B", "Dr.\\u200bSmith", "(a.m.)", "\\ta  b   c"])
seen = set(); uniq = []
for t in texts:
    if t not in seen: seen.add(t); uniq.append(t)
with open(out, "w", encoding="utf-8") as f:
    for i, t in enumerate(uniq):
        doc = nlp(t)
        f.write(json.dumps({"id": i, "text": t, "tokens": [x.text for x in doc], "ws": "".join("1" if x.whitespace_ else "0" for x in doc),
                            "sent": "".join("1" if x.is_sent_start else "0" for x in doc), "sentences": [s.text for s in doc.sents]}, ensure_ascii=False) + "\\n")
print(len(uniq))
`;

requires("shared", "spacy").describe(
  "held-out texts against spaCy itself (shared model; needs python3 with spaCy)",
  () => {
    it("tokens, spaces, sentence starts and sentences equal spaCy's on every text", () => {
      const dir = tempDir("spacy-live-");
      const expected = join(dir, "spacy.jsonl");
      const topics = [
        "2023_test_topics.json",
        "2023_train_topics.json",
        "2024_test_topics.json",
        "2025_test_topics.json",
      ].map((f) => shared("data", "ikat", f));
      const n = Number(
        execFileSync("python3", [
          "-c",
          PY,
          shared("models", "en_core_web_sm-3.8.0"),
          shared("golden", "spacy-senter", "make_senter_golden.py"),
          expected,
          ...topics,
        ]).toString(),
      );
      expect(n).toBeGreaterThan(3000);
      const rows = readFileSync(expected, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const input = join(dir, "texts.jsonl");
      writeFileSync(input, `${rows.map((r) => JSON.stringify({ id: r.id, text: r.text })).join("\n")}\n`);
      const r = runCli("segment", [
        "sentences",
        "--spacy-model",
        shared("models", "en_core_web_sm-3.8.0"),
        "--tokens",
        input,
      ]);
      expect(r.code, r.stderr).toBe(0);
      const got = r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const key = (x: Record<string, unknown>) => JSON.stringify([x.id, x.tokens, x.ws, x.sent, x.sentences]);
      const bad = got.filter((g, i) => key(g) !== key(rows[i]!)).map((g) => g.id);
      expect(got.length).toBe(rows.length);
      expect(bad).toEqual([]);
    });
  },
);

// The model's own tokenizer patterns (prefix, suffix, infix, URL; shared model folder) translated
// to JavaScript give CPython's `re` spans on real chunks of the golden texts and on random ones.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import {
  compileInfixFinder,
  compileMatch,
  compilePythonFinditer,
  compileSuffixSearch,
} from "@convkit/pyregex";
import { codePointSpans, python, requires, rng, shared } from "@convkit/test-helpers";
import { expect, it } from "vitest";
import { loadPipelineFolder } from "./folder.js";

const PY = `
import json, re, sys
d = json.load(sys.stdin)
out = []
for p in d["patterns"]:
    r = re.compile(p)
    out.append([[[m.start(), m.end()] for m in r.finditer(s)] for s in d["strings"]])
print(json.dumps(out))
`;

requires("shared", "python3").describe("the model's tokenizer patterns against CPython's re (shared)", () => {
  it("prefix_search, suffix_search, infix_finditer and url_match: the same spans on every special case and 6,000 chunks", () => {
    const rules = loadPipelineFolder(shared("models", "en_core_web_sm-3.8.0")).tokenizer;
    const patterns = [rules.prefixSearch!, rules.suffixSearch!, rules.infixFinditer!, rules.urlMatch!];
    const texts = gunzipSync(readFileSync(shared("golden", "spacy-senter", "senter_golden.jsonl.gz")))
      .toString("utf8")
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { text: string }).text);
    const r = rng(3);
    const chunks = new Set<string>();
    while (chunks.size < 4000) {
      const words = texts[Math.floor(r() * texts.length)]!.split(/\s+/).filter(Boolean);
      if (words.length) chunks.add(words[Math.floor(r() * words.length)]!);
    }
    const pieces = [...chunks];
    // Seeded strings rich in what the URL pattern's user-info part, host and path take (its '@'
    // scan, @convkit/pyregex's match-userinfo.ts), some of them valid URLs with a user.
    const urlish = [..."a:@./:@.aZ1-#?", "\t", "\u3000", "é"];
    const strings = [
      ...pieces,
      ...rules.exceptions.map(([c]) => c),
      ...Array.from(
        { length: 1000 },
        (_, k) =>
          (k % 4 === 0 ? "http://user:pw@" : "") +
          Array.from({ length: Math.floor(r() * 30) }, () => urlish[Math.floor(r() * urlish.length)]!).join(
            "",
          ) +
          (k % 2 === 0 ? "@example.com" : ""),
      ),
      ...Array.from({ length: 1000 }, () =>
        Array.from({ length: 1 + Math.floor(r() * 3) }, () => pieces[Math.floor(r() * pieces.length)]!).join(
          "",
        ),
      ),
    ];
    const py = JSON.parse(python(PY, JSON.stringify({ patterns, strings }))) as [number, number][][][];
    const bad: string[] = [];
    patterns.forEach((p, i) => {
      const finditer = compilePythonFinditer(p, "tokenizer");
      strings.forEach((s, j) => {
        const flat = finditer(s);
        const spans = codePointSpans(s, flat);
        if (JSON.stringify(spans) !== JSON.stringify(py[i]![j]))
          bad.push(`${["prefix", "suffix", "infix", "url"][i]} ${JSON.stringify(s)}`);
      });
    });
    // The tokenizer's shortcuts (@convkit/pyregex's regex-shape.ts): the suffix's length from the last units, the
    // infixes only where a character an infix can consume occurs, url_match only on a string with a '.'.
    const suffix = compileSuffixSearch(rules.suffixSearch!, "tokenizer");
    const infixes = compileInfixFinder(rules.infixFinditer!, "tokenizer");
    const url = compileMatch(rules.urlMatch!, "tokenizer");
    const units = (s: string, k: number) => [...s].slice(0, k).join("").length;
    strings.forEach((s, j) => {
      const first = py[1]![j]![0];
      const want = first === undefined ? 0 : units(s, first[1]) - units(s, first[0]);
      if (suffix(s) !== want) bad.push(`suffix shortcut ${JSON.stringify(s)}`);
      const flat = infixes(s);
      const spans = codePointSpans(s, flat);
      if (JSON.stringify(spans) !== JSON.stringify(py[2]![j]))
        bad.push(`infix shortcut ${JSON.stringify(s)}`);
      // url_match is anchored at both ends: a match at all is `re.match`.
      if (url(s) !== py[3]![j]!.length > 0) bad.push(`url shortcut ${JSON.stringify(s)}`);
    });
    // Real URLs among the strings: the shortcut was asked to say yes too.
    expect(strings.filter(url).length).toBeGreaterThan(0);
    expect(strings.length).toBe(6000 + rules.exceptions.length);
    expect(bad).toEqual([]);
  });
});

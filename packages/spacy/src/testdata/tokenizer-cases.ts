// Cases for the tokenizer's differential tests (tokenizer.diff*.test.ts): synthetic rules shaped like
// spaCy English's (Python pattern source: classes, lookbehinds, `$`-anchored suffixes, a token_match
// and a url_match, special cases with affixes, spaces, NORMs and several tokens), random texts over
// an alphabet that reaches every path of the tokenizer, and tokens written as comparable strings.

import { elementAt } from "../checked.js";
import type { SpecialToken, TokenizerRules } from "../folder.js";
import { SpacyTokenizer } from "../tokenizer.js";
import type { ReferenceToken } from "../tokenizer.reference.js";

const EMOJI = "[\\U0001F300-\\U0001F64F]";
const ICONS = "[\\u00A6\\u00A9\\u00AE\\u00B0]";
const PUNCT = [
  "…",
  ",",
  ":",
  ";",
  "\\!",
  "\\?",
  "¿",
  "\\(",
  "\\)",
  "\\[",
  "\\]",
  "\\{",
  "\\}",
  "<",
  ">",
  "_",
];
const QUOTES = ["\\'", '"', "”", "“", "`", "‘", "’", "«", "»"];

const PREFIXES = [
  "§",
  "%",
  "=",
  "—",
  "–",
  "\\+(?![0-9])",
  ...PUNCT,
  "#",
  "\\*",
  "&",
  "\\.\\.+",
  ...QUOTES,
  "\\$",
  "£",
  "€",
  "US\\$",
  "C\\$",
  EMOJI,
  ICONS,
];

const SUFFIXES = [
  ...PUNCT,
  "#",
  "\\*",
  "&",
  "\\.\\.+",
  ...QUOTES,
  EMOJI,
  ICONS,
  "'s",
  "'S",
  "’s",
  "’S",
  "—",
  "–",
  // `$` also matches before a final newline: a tab before one is found, and the last unit cut.
  "\\t",
  "(?<=[0-9])\\+",
  "(?<=°[FfCcKk])\\.",
  "(?<=\\d)(?:\\$|€|£|km|kg|m|mph|%)",
  // A class holding `(?:` and `)` as characters, as spaCy English's has.
  "(?<=[0-9a-z%²\\-\\+…(?:'\"”“`‘’)\\]])\\.",
  "(?<=[A-Z][A-Z])\\.",
];

const INFIXES = [
  "\\.\\.+",
  "…",
  EMOJI,
  "(?<=[0-9])[+\\-\\*^](?=[0-9-])",
  "(?<=[a-z\\u00DF-\\u00FF])\\.(?=[A-Z\\u00C0-\\u00DE])",
  "(?<=[a-zA-Z]),(?=[a-zA-Z])",
  "(?<=[a-zA-Z0-9])(?:-|–|—|--|---|~)(?=[a-zA-Z])",
  "(?<=[a-zA-Z0-9])[:<>=/](?=[a-zA-Z])",
  "(?<=\\d)x(?=\\d)",
];

/** `#tag`, `3.14`, and `:name:` at the start of a chunk (re.match: not anchored at the end). */
const TOKEN_MATCH = "#\\w+$|[0-9]+(?:[.,][0-9]+)+$|:[a-z_]+:";

/** spaCy English's URL pattern, shortened (its host and top-level domain parts kept). */
const URL_MATCH =
  "(?u)^(?:(?:[\\w\\+\\-\\.]{2,})://)?(?:\\S+(?::\\S*)?@)?" +
  "(?:(?:[A-Za-z0-9\\u00a1-\\uffff][A-Za-z0-9\\u00a1-\\uffff_-]{0,62})?[A-Za-z0-9\\u00a1-\\uffff]\\.)+" +
  "(?:[a-z\\u00DF-\\u00F6]{2,63})(?::\\d{2,5})?(?:[/?#]\\S*)?$";

const o = (orth: string, norm?: string): SpecialToken => (norm === undefined ? { orth } : { orth, norm });

const SPECIALS: [string, SpecialToken[]][] = [
  [" ", [o(" ")]],
  ["\t", [o("\t")]],
  ["\n", [o("\n")]],
  ["a.m.", [o("a.m.")]],
  ["p.m.", [o("p.m.")]],
  ["10a.m.", [o("10"), o("a.m.")]],
  ["3p.m.", [o("3"), o("p.m.")]],
  ["e.g.", [o("e.g.")]],
  ["i.e.", [o("i.e.")]],
  ["etc.", [o("etc.")]],
  ["Mr.", [o("Mr.")]],
  ["U.S.", [o("U.S.")]],
  ["don't", [o("do", "do"), o("n't", "not")]],
  ["Don't", [o("Do", "do"), o("n't", "not")]],
  ["can't", [o("ca", "can"), o("n't", "not")]],
  ["won't", [o("wo", "will"), o("n't", "not")]],
  ["dont", [o("do", "do"), o("nt", "not")]],
  ["gonna", [o("gon", "going"), o("na", "to")]],
  ["'cause", [o("'cause", "because")]],
  ["'s", [o("'s", "'s")]],
  ["’s", [o("’s", "'s")]],
  ["’’", [o("’’", '"')]],
  [":)", [o(":)")]],
  [":-)", [o(":-)")]],
  [":(", [o(":(")]],
  ["(:", [o("(:")]],
  ["o.O", [o("o.O")]],
  ["O.o", [o("O.o")]],
  ["<3", [o("<3")]],
  ["^_^", [o("^_^")]],
  ["(^_^)", [o("(^_^)")]],
  ["._.", [o("._.")]],
  ["US$", [o("US$")]],
  ["x-ray", [o("x-ray")]],
  ["New York", [o("New York", "new york")]],
  ["a. m.", [o("a."), o(" "), o("m.")]],
  ["Dr.No", [o("Dr."), o("No")]],
  ["🙂🙂", [o("🙂"), o("🙂", "smiles")]],
];

/** Python's sort order for strings (code points), which the rules' special cases come in. */
function byCodePoint(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (const [i, c] of x.entries()) {
    const d = y[i];
    if (d === undefined) break;
    if (c !== d) return c - d;
  }
  return x.length - y.length;
}

/** The synthetic rules (faster_heuristics as given). */
export function syntheticRules(fasterHeuristics: boolean): TokenizerRules {
  return {
    prefixSearch: PREFIXES.map((p) => `^${p}`).join("|"),
    suffixSearch: SUFFIXES.map((s) => `${s}$`).join("|"),
    infixFinditer: INFIXES.join("|"),
    tokenMatch: TOKEN_MATCH,
    urlMatch: URL_MATCH,
    fasterHeuristics,
    exceptions: [...SPECIALS].sort((a, b) => byCodePoint(a[0], b[0])),
  };
}

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => elementAt(xs, Math.floor(r() * xs.length));

const WORDS = [
  ..."the cat sat on a mat I o O m e x NASA Dr No New York US C do nt na gon ray is it's Abc zz".split(" "),
  ..."ünïcode Straße ÉCOLE naïve déjà 𝔘𝔫𝔦 日本語".split(" "),
];
const NUMBERS = ["3", "10", "2024", "3.14", "1,000", "7.5.1", "0", "42"];
const AFFIX_CHARS = [..."§%=—–+…,:;!?¿()[]{}<>_#*&'\"”“`‘’«»$£€°©®¦^~-/"];
const PIECES = [
  ...AFFIX_CHARS,
  "..",
  "...",
  "....",
  "--",
  "---",
  "'s",
  "’s",
  "'S",
  "n't",
  "km",
  "kg",
  "mph",
  "°C",
  "°F.",
  "x",
  "http://",
  "https://",
  "ftp://",
  "www.",
  "example",
  ".com",
  ".org",
  ".de",
  "/path/to",
  "?q=1&r=2",
  "#frag",
  ":8080",
  "user@",
  "@",
  "mail.example.com",
  "#hashtag",
  ":smile:",
  ":x:",
  "😀",
  "🙂",
  "👍🏽",
  "🎉",
];
/**
 * Chunks whose FNV-1a hashes (over UTF-16 units, what wasm/chunks.ts keys by today) are equal: one
 * the start of the other, or of one length. Under another hash they are ordinary chunks.
 */
const COLLIDING = [
  "token",
  "token0s06a4z",
  "tokenjuywdif",
  "cat",
  "catv7u3b29",
  "catz06jcih",
  "aan1wu",
  "aa0tfa",
];
const SPACES = [
  " ",
  " ",
  " ",
  " ",
  "  ",
  "   ",
  "\n",
  "\n\n",
  "\t",
  " \t",
  "\t\n",
  "\u00a0",
  "\u3000",
  " \n ",
  "\r\n",
  "\u2028",
  "\u0085",
];

/** One piece of text: a word, number, affix character, URL or email part, special case, emoji or a long run. */
function piece(r: Rng): string {
  const x = r();
  if (x < 0.04) return pick(r, COLLIDING);
  if (x < 0.22) return pick(r, WORDS);
  if (x < 0.3) return pick(r, NUMBERS);
  if (x < 0.6) return pick(r, PIECES);
  if (x < 0.8) return pick(r, SPECIALS)[0];
  if (x < 0.83) return pick(r, [..."aA.!-'😀", "ab", "🙂🙂"]).repeat(2 + Math.floor(r() * 40));
  if (x < 0.86)
    return `${pick(r, ["http://", "https://", ""])}${pick(r, ["www.", ""])}${pick(r, ["example", "a-b", "x1"])}.${pick(r, ["com", "org", "io"])}${pick(r, ["", "/p", "/a/b?c=1", ":8080/x"])}`;
  return pick(r, WORDS) + pick(r, PIECES) + pick(r, WORDS);
}

/** A random text: pieces glued together or apart, sometimes with leading and trailing space runs. */
export function randomText(r: Rng, maxPieces = 24): string {
  const n = Math.floor(r() * r() * maxPieces);
  let text = r() < 0.15 ? pick(r, SPACES) : "";
  for (let i = 0; i < n; i++) {
    text += piece(r);
    if (i < n - 1) text += r() < 0.3 ? "" : pick(r, SPACES);
  }
  if (r() < 0.15) text += pick(r, SPACES);
  return text;
}

/** JSON with every non-ASCII unit escaped (as Python's `json.dumps`), so spaces stay visible. */
const quote = (s: string) =>
  JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Each token as `"text"@start`, `_` for a trailing space, `="norm"` for a special case's NORM. */
export function tokenStrings(tokens: readonly ReferenceToken[]): string[] {
  return tokens.map(
    (t) =>
      `${quote(t.text)}@${t.start}${t.spaceAfter ? "_" : ""}${t.norm === undefined ? "" : `=${quote(t.norm)}`}`,
  );
}

/** The tokenizer's tokens of `text` as {@link tokenStrings} writes them (read at once: its arrays are reused). */
export function tokenizerStrings(tokenizer: SpacyTokenizer, text: string): string[] {
  const doc = tokenizer.tokenize(text);
  const entries = tokenizer.lexicon.entries;
  const out: ReferenceToken[] = [];
  for (let i = 0; i < doc.length; i++) {
    const e = elementAt(entries, elementAt(doc.lex, i));
    const t: ReferenceToken = {
      text: e.orth,
      start: elementAt(doc.start, i),
      spaceAfter: doc.spacy[i] === 1,
    };
    if (e.norm !== undefined) t.norm = e.norm;
    out.push(t);
  }
  return tokenStrings(out);
}

/** Where two token lists first differ, with the text there and a few tokens either side. */
function describeDifference(text: string, want: readonly string[], got: readonly string[]): string {
  let k = 0;
  while (k < want.length && want[k] === got[k]) k++;
  // The start after the token's quoted text (which may hold "@" itself).
  const token = want[k] ?? got[k] ?? '""@0';
  let end = 1;
  while (token[end] !== '"') end += token[end] === "\\" ? 2 : 1;
  const at = Number(/^@(\d+)/.exec(token.slice(end + 1))![1]);
  // Forty units either side, not cutting a surrogate pair.
  const low = (i: number) => (text.charCodeAt(i) & 0xfc00) === 0xdc00;
  const from = Math.max(0, at - 40) - (low(at - 40) ? 1 : 0);
  const to = at + 60 + (low(at + 60) ? 1 : 0);
  const excerpt = `${from > 0 ? "…" : ""}${quote(text.slice(from, to))}${to < text.length ? "…" : ""}`;
  const around = (xs: readonly string[]) =>
    `${k > 3 ? "… " : ""}${xs.slice(Math.max(0, k - 3), k + 5).join(" ")}${k + 5 < xs.length ? " …" : ""}`;
  return (
    `text of ${text.length} units, token ${k} (at ${at}): ${excerpt}\n` +
    `  reference ${around(want)}\n  tokenizer ${around(got)}`
  );
}

/**
 * `texts` through `tokenizer` in `order`, against `want` (the reference's {@link tokenStrings}): the
 * mismatches, each with the pass's name and where the tokens first differ.
 */
function mismatches(
  tokenizer: SpacyTokenizer,
  texts: readonly string[],
  want: readonly (readonly string[])[],
  order: readonly number[],
  pass: string,
): string[] {
  const bad: string[] = [];
  for (const i of order) {
    const text = elementAt(texts, i);
    const got = tokenizerStrings(tokenizer, text);
    const w = elementAt(want, i);
    if (got.length !== w.length || got.some((g, k) => g !== w[k]))
      bad.push(`${pass}: ${describeDifference(text, w, got)}`);
  }
  return bad;
}

/** A shuffled copy of `xs`. */
function shuffled<T>(r: Rng, xs: readonly T[]): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [elementAt(out, j), elementAt(out, i)];
  }
  return out;
}

/**
 * `texts` through a tokenizer of `rules` for each of `cacheLimits` (undefined: the default), each
 * time cold, warm, shuffled, then renewed and reversed, against `want`: the mismatches.
 */
export function mismatchesAcrossCaches(
  rules: TokenizerRules,
  texts: readonly string[],
  want: readonly (readonly string[])[],
  cacheLimits: readonly (number | undefined)[],
  r: Rng,
): string[] {
  const inOrder = texts.map((_, i) => i);
  const bad: string[] = [];
  for (const cacheLimit of cacheLimits) {
    const tokenizer = new SpacyTokenizer(rules, "rules", cacheLimit === undefined ? {} : { cacheLimit });
    const pass = (name: string, order: readonly number[]) =>
      bad.push(
        ...mismatches(tokenizer, texts, want, order, `cacheLimit ${cacheLimit ?? "default"}, ${name}`),
      );
    pass("cold", inOrder);
    pass("warm", inOrder);
    pass("shuffled", shuffled(r, inOrder));
    tokenizer.renew();
    pass("renewed, reversed", inOrder.toReversed());
  }
  return bad;
}

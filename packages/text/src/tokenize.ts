// NLTK 3.8's word_tokenize(text, preserve_line=True): the NLTKWordTokenizer (improved Treebank) regexes.

// Python's str patterns are Unicode-aware: \w is [\p{L}\p{N}_], \s is str.isspace(), \b follows \w.
const W = "[\\p{L}\\p{N}_]";
const B = `(?:(?<!${W})(?=${W})|(?<=${W})(?!${W}))`;
const S = "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
// Python's `$` also matches just before a final newline.
const END = "(?=\\n?$)";

const re = (src: string, flags = "") =>
  new RegExp(
    src.replaceAll("\\w", W).replaceAll("\\b", B).replaceAll("\\s", S).replaceAll("$$", END),
    `gu${flags}`,
  );

type Sub = [RegExp, string];

const STARTING_QUOTES: Sub[] = [
  [re("([«“‘„]|[`]+)"), " $1 "],
  [re('^"'), "``"],
  [re("(``)"), " $1 "],
  [re("([ \\(\\[{<])(\"|'{2})"), "$1 `` "],
  [re("(')(?!re|ve|ll|m|t|s|d|n)(\\w)\\b", "i"), "$1 $2"],
];

const ENDING_QUOTES: Sub[] = [
  [re("([»”’])"), " $1 "],
  [re("''"), " '' "],
  [re('"'), " '' "],
  [re("([^' ])('[sS]|'[mM]|'[dD]|') "), "$1 $2 "],
  [re("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), "$1 $2 "],
];

const PUNCTUATION: Sub[] = [
  [re("([^\\.])(\\.)([\\]\\)}>\"'»”’ ]*)\\s*$$"), "$1 $2 $3 "],
  [re("([:,])([^\\d])"), " $1 $2"],
  [re("([:,])$$"), " $1 "],
  [re("\\.{2,}"), " $& "],
  [re("[;@#$%&]"), " $& "],
  [re("([^\\.])(\\.)([\\]\\)}>\"']*)\\s*$$"), "$1 $2$3 "],
  [re("[?!]"), " $& "],
  [re("([^'])' "), "$1 ' "],
  [re("[*]"), " $& "],
];

const PARENS_BRACKETS: Sub = [re("[\\]\\[(){}<>]"), " $& "];
const DOUBLE_DASHES: Sub = [re("--"), " -- "];

const CONTRACTIONS2 = [
  "\\b(can)(not)\\b",
  "\\b(d)('ye)\\b",
  "\\b(gim)(me)\\b",
  "\\b(gon)(na)\\b",
  "\\b(got)(ta)\\b",
  "\\b(lem)(me)\\b",
  "\\b(more)('n)\\b",
  "\\b(wan)(na)\\s",
].map((s) => re(s, "i"));
const CONTRACTIONS3 = [" ('t)(is)\\b", " ('t)(was)\\b"].map((s) => re(s, "i"));

const SPLIT = new RegExp(`${S}+`, "u");

/** NLTK 3.8 `word_tokenize(text, preserve_line=True)` (no Punkt sentence splitting). */
export function wordTokenize(text: string): string[] {
  let t = text;
  for (const [r, s] of STARTING_QUOTES) t = t.replace(r, s);
  for (const [r, s] of PUNCTUATION) t = t.replace(r, s);
  t = t.replace(PARENS_BRACKETS[0], PARENS_BRACKETS[1]);
  t = t.replace(DOUBLE_DASHES[0], DOUBLE_DASHES[1]);
  t = ` ${t} `;
  for (const [r, s] of ENDING_QUOTES) t = t.replace(r, s);
  for (const r of CONTRACTIONS2) t = t.replace(r, " $1 $2 ");
  for (const r of CONTRACTIONS3) t = t.replace(r, " $1 $2 ");
  return t.split(SPLIT).filter((x) => x.length > 0);
}

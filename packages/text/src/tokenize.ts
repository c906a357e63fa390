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

/** A substitution, and what every match contains: texts without it skip the (costly) pass. */
type Sub = [RegExp, string, RegExp];

const STARTING_QUOTES: Sub[] = [
  [re("([«“‘„]|[`]+)"), " $1 ", /[«“‘„`]/],
  [re('^"'), "``", /^"/],
  [re("(``)"), " $1 ", /``/],
  [re("([ \\(\\[{<])(\"|'{2})"), "$1 `` ", /"|''/],
  [re("(')(?!re|ve|ll|m|t|s|d|n)(\\w)\\b", "i"), "$1 $2", /'/],
];

const ENDING_QUOTES: Sub[] = [
  [re("([»”’])"), " $1 ", /[»”’]/],
  [re("''"), " '' ", /''/],
  [re('"'), " '' ", /"/],
  [re("([^' ])('[sS]|'[mM]|'[dD]|') "), "$1 $2 ", /'/],
  [re("([^' ])('ll|'LL|'re|'RE|'ve|'VE|n't|N'T) "), "$1 $2 ", /'/],
];

const PUNCTUATION: Sub[] = [
  [re("([^\\.])(\\.)([\\]\\)}>\"'»”’ ]*)\\s*$$"), "$1 $2 $3 ", /\./],
  [re("([:,])([^\\d])"), " $1 $2", /[:,]/],
  [re("([:,])$$"), " $1 ", /[:,]/],
  [re("\\.{2,}"), " $& ", /\.\./],
  [re("[;@#$%&]"), " $& ", /[;@#$%&]/],
  [re("([^\\.])(\\.)([\\]\\)}>\"']*)\\s*$$"), "$1 $2$3 ", /\./],
  [re("[?!]"), " $& ", /[?!]/],
  [re("([^'])' "), "$1 ' ", /'/],
  [re("[*]"), " $& ", /\*/],
];

const PARENS_BRACKETS: Sub = [re("[\\]\\[(){}<>]"), " $& ", /[\][(){}<>]/];
const DOUBLE_DASHES: Sub = [re("--"), " -- ", /--/];

// [pattern, the literal every match contains]: the literal is tested first (with the same
// case-insensitive Unicode flags, so it matches whenever the pattern can), which skips the costly
// lookaround pass over texts without the contraction, i.e. almost all of them.
const CONTRACTIONS2: [RegExp, RegExp][] = (
  [
    ["\\b(can)(not)\\b", "cannot"],
    ["\\b(d)('ye)\\b", "d'ye"],
    ["\\b(gim)(me)\\b", "gimme"],
    ["\\b(gon)(na)\\b", "gonna"],
    ["\\b(got)(ta)\\b", "gotta"],
    ["\\b(lem)(me)\\b", "lemme"],
    ["\\b(more)('n)\\b", "more'n"],
    ["\\b(wan)(na)\\s", "wanna"],
  ] as const
).map(([s, lit]) => [re(s, "i"), new RegExp(lit, "iu")]);
const CONTRACTIONS3: [RegExp, RegExp][] = (
  [
    [" ('t)(is)\\b", " 'tis"],
    [" ('t)(was)\\b", " 'twas"],
  ] as const
).map(([s, lit]) => [re(s, "i"), new RegExp(lit, "iu")]);

const SPLIT = new RegExp(`${S}+`, "u");

/** NLTK 3.8 `word_tokenize(text, preserve_line=True)` (no Punkt sentence splitting). */
export function wordTokenize(text: string): string[] {
  let t = text;
  for (const [r, s, need] of STARTING_QUOTES) if (need.test(t)) t = t.replace(r, s);
  for (const [r, s, need] of PUNCTUATION) if (need.test(t)) t = t.replace(r, s);
  for (const [r, s, need] of [PARENS_BRACKETS, DOUBLE_DASHES]) if (need.test(t)) t = t.replace(r, s);
  t = ` ${t} `;
  for (const [r, s, need] of ENDING_QUOTES) if (need.test(t)) t = t.replace(r, s);
  for (const [r, lit] of CONTRACTIONS2) if (lit.test(t)) t = t.replace(r, " $1 $2 ");
  for (const [r, lit] of CONTRACTIONS3) if (lit.test(t)) t = t.replace(r, " $1 $2 ");
  return t.split(SPLIT).filter((x) => x.length > 0);
}

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

// Indexes of the two final-period substitutions in PUNCTUATION.
const FINAL_PERIOD_1 = 0;
const FINAL_PERIOD_2 = 5;

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

const SPACE = new RegExp(`^${S}$`, "u");

// One scan per group first: a text with none of a group's literals skips the group's own scans
// (every literal of a group implies a match of the group's test, so nothing else changes).
const ANY_STARTING_QUOTE = /[«“‘„`"']/;
const ANY_ENDING_QUOTE = /[»”’"']/;
const ANY_CONTRACTION = /cannot|d'ye|gimme|gonna|gotta|lemme|more'n|wanna| 'tis| 'twas/iu;

/**
 * The two substitutions for a final period are anchored at the end of the text: they run on the
 * tail that can hold their match (trailing whitespace, closing quotes and brackets, the period
 * and the character before it), not on the whole text. Same result, without a scan per period.
 */
function finalPeriod(t: string, r: RegExp, s: string, closers: string): string {
  let i = t.length;
  while (i > 0 && SPACE.test(t[i - 1]!)) i--;
  while (i > 0 && closers.includes(t[i - 1]!)) i--;
  if (i < 2 || t[i - 1] !== ".") return t;
  const from = i - 2;
  return t.slice(0, from) + t.slice(from).replace(r, s);
}

/** NLTK 3.8 `word_tokenize(text, preserve_line=True)` (no Punkt sentence splitting). */
export function wordTokenize(text: string): string[] {
  let t = text;
  if (ANY_STARTING_QUOTE.test(t))
    for (const [r, s, need] of STARTING_QUOTES) if (need.test(t)) t = t.replace(r, s);
  for (let k = 0; k < PUNCTUATION.length; k++) {
    const [r, s, need] = PUNCTUATION[k]!;
    if (k === FINAL_PERIOD_1) t = finalPeriod(t, r, s, "])}>\"'»”’ ");
    else if (k === FINAL_PERIOD_2) t = finalPeriod(t, r, s, "])}>\"'");
    else if (need.test(t)) t = t.replace(r, s);
  }
  for (const [r, s, need] of [PARENS_BRACKETS, DOUBLE_DASHES]) if (need.test(t)) t = t.replace(r, s);
  t = ` ${t} `;
  if (ANY_ENDING_QUOTE.test(t))
    for (const [r, s, need] of ENDING_QUOTES) if (need.test(t)) t = t.replace(r, s);
  if (ANY_CONTRACTION.test(t)) {
    for (const [r, lit] of CONTRACTIONS2) if (lit.test(t)) t = t.replace(r, " $1 $2 ");
    for (const [r, lit] of CONTRACTIONS3) if (lit.test(t)) t = t.replace(r, " $1 $2 ");
  }
  return splitOnSpace(t);
}

/** Whether a UTF-16 unit is in Python's `str.isspace()` set (all of it is in the BMP). */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x1f);
  if (c < 0x85) return false;
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** `str.split()`: the runs between whitespace, none empty (a loop: several times faster than a regex split). */
function splitOnSpace(t: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < t.length; i++) {
    if (isSpace(t.charCodeAt(i))) {
      if (start >= 0) {
        out.push(t.slice(start, i));
        start = -1;
      }
    } else if (start < 0) start = i;
  }
  if (start >= 0) out.push(t.slice(start));
  return out;
}

// NLTK 3.8's word_tokenize(text, preserve_line=True): the NLTKWordTokenizer (improved Treebank) regexes.
import { isPySpace } from "@convkit/pycompat";

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
/**
 * A substitution and when to run it: a literal every match contains (texts without it skip the
 * costly pass), or, for one anchored at the end of the text, the characters that may stand between
 * its period and the end (it then runs on that tail only: see {@link finalPeriod}).
 */
type Sub = [RegExp, string, RegExp | { closers: string }];

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
  [re("([^\\.])(\\.)([\\]\\)}>\"'»”’ ]*)\\s*$$"), "$1 $2 $3 ", { closers: "])}>\"'»”’ " }],
  [re("([:,])([^\\d])"), " $1 $2", /[:,]/],
  [re("([:,])$$"), " $1 ", /[:,]/],
  [re("\\.{2,}"), " $& ", /\.\./],
  [re("[;@#$%&]"), " $& ", /[;@#$%&]/],
  [re("([^\\.])(\\.)([\\]\\)}>\"']*)\\s*$$"), "$1 $2$3 ", { closers: "])}>\"'" }],
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
  while (i > 0 && isPySpace(t.charCodeAt(i - 1))) i--;
  while (i > 0 && closers.includes(t.charAt(i - 1))) i--;
  if (i < 2 || t[i - 1] !== ".") return t;
  const from = i - 2;
  return t.slice(0, from) + t.slice(from).replace(r, s);
}

/** Runs substitutions in order, each only when its {@link Sub} condition says it can match. */
function substitute(t: string, subs: readonly Sub[]): string {
  for (const [r, s, when] of subs)
    if (when instanceof RegExp) {
      if (when.test(t)) t = t.replace(r, s);
    } else t = finalPeriod(t, r, s, when.closers);
  return t;
}

/** NLTK 3.8 `word_tokenize(text, preserve_line=True)` (no Punkt sentence splitting). */
export function wordTokenize(text: string): string[] {
  let t = text;
  if (ANY_STARTING_QUOTE.test(t)) t = substitute(t, STARTING_QUOTES);
  t = substitute(t, PUNCTUATION);
  t = substitute(t, [PARENS_BRACKETS, DOUBLE_DASHES]);
  t = ` ${t} `;
  if (ANY_ENDING_QUOTE.test(t)) t = substitute(t, ENDING_QUOTES);
  if (ANY_CONTRACTION.test(t)) {
    for (const [r, lit] of CONTRACTIONS2) if (lit.test(t)) t = t.replace(r, " $1 $2 ");
    for (const [r, lit] of CONTRACTIONS3) if (lit.test(t)) t = t.replace(r, " $1 $2 ");
  }
  return splitOnSpace(t);
}

/** `str.split()`: the runs between whitespace, none empty (a loop: several times faster than a regex split). */
function splitOnSpace(t: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < t.length; i++) {
    if (isPySpace(t.charCodeAt(i))) {
      if (start >= 0) {
        out.push(t.slice(start, i));
        start = -1;
      }
    } else if (start < 0) start = i;
  }
  if (start >= 0) out.push(t.slice(start));
  return out;
}

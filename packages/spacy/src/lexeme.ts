// spaCy's lexical attributes as the senter's embeddings read them: NORM (the pipeline's
// `lexeme_norm` table, then spaCy's language-independent norms, then `str.lower()`), PREFIX (first
// character), SUFFIX (last three), SHAPE (`word_shape`), each as its string hash. Characters are
// Python's: code points, with Python's `isalpha` / `isupper` / `isdigit`.
import { hashKey } from "./folder.js";
import type { U64 } from "./hashing.js";
import { stringId } from "./symbols.js";

/**
 * spaCy's BASE_NORMS (spacy/lang/norm_exceptions.py, MIT): norms every language gets for quotes,
 * dashes, full-width punctuation and currency signs. They live in spaCy's code, not in a model
 * folder, so a faithful NORM needs them here.
 */
const BASE_NORMS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    "'s": "'s",
    "'S": "'s",
    "’s": "'s",
    "’S": "'s",
    "’": "'",
    "‘": "'",
    "´": "'",
    "`": "'",
    "”": '"',
    "“": '"',
    "''": '"',
    "``": '"',
    "´´": '"',
    "„": '"',
    "»": '"',
    "«": '"',
    "‘‘": '"',
    "’’": '"',
    "？": "?",
    "！": "!",
    "，": ",",
    "；": ";",
    "：": ":",
    "。": ".",
    "।": ".",
    "…": "...",
    "—": "-",
    "–": "-",
    "--": "-",
    "---": "-",
    "——": "-",
    "€": "$",
    "£": "$",
    "¥": "$",
    "฿": "$",
    US$: "$",
    C$: "$",
    A$: "$",
    "₺": "$",
    "₹": "$",
    "৳": "$",
    "₩": "$",
    Mex$: "$",
    "₣": "$",
    "E£": "$",
  }),
);

/** Python's `str.isdigit()` beyond decimal digits (Numeric_Type=Digit: superscripts, circled digits, …; Unicode 14). */
const DIGIT_NOT_DECIMAL =
  /[\u00b2\u00b3\u00b9\u1369-\u1371\u19da\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792\u{10a40}-\u{10a43}\u{10e60}-\u{10e68}\u{11052}-\u{1105a}\u{1f100}-\u{1f10a}]/u;
const ALPHA = /\p{L}/u;
const UPPER = /\p{Uppercase}/u;
const DECIMAL = /\p{Nd}/u;

/** Python's `c.isdigit()` for one code point. */
function isPyDigit(c: string): boolean {
  return DECIMAL.test(c) || DIGIT_NOT_DECIMAL.test(c);
}

/** spaCy's `word_shape`: letters as x/X, digits as d, other characters as themselves, runs cut after 4; LONG from 100 characters. */
export function wordShape(text: string): string {
  const chars = [...text];
  if (chars.length >= 100) return "LONG";
  let shape = "";
  let last = "";
  let seq = 0;
  for (const c of chars) {
    let s: string;
    const code = c.charCodeAt(0);
    if (code < 128) {
      if (code >= 97 && code <= 122) s = "x";
      else if (code >= 65 && code <= 90) s = "X";
      else if (code >= 48 && code <= 57) s = "d";
      else s = c;
    } else if (ALPHA.test(c)) s = UPPER.test(c) ? "X" : "x";
    else if (isPyDigit(c)) s = "d";
    else s = c;
    if (s === last) seq++;
    else {
      seq = 0;
      last = s;
    }
    if (seq < 4) shape += s;
  }
  return shape;
}

/** The norm spaCy gives a lexeme: the pipeline's table, spaCy's base norms, else Python's `lower()`. */
export function lexemeNormOf(orth: string, lexemeNorm: ReadonlyMap<string, string>): string {
  return lexemeNorm.get(hashKey(stringId(orth))) ?? fallbackNorm(orth);
}

/** The norm of a lexeme the pipeline's table does not have: spaCy's base norms, else Python's `lower()`. */
export function fallbackNorm(orth: string): string {
  return BASE_NORMS.get(orth) ?? orth.toLowerCase();
}

/** The string-valued attributes of a lexeme, as the strings spaCy hashes. */
export interface LexemeStrings {
  norm: string;
  prefix: string;
  suffix: string;
  shape: string;
}

/** A lexeme's attribute strings; `norm` given where a tokenizer special case sets the token's NORM. */
export function lexemeStrings(orth: string, norm: string): LexemeStrings {
  const first = orth.codePointAt(0)!;
  const prefix = String.fromCodePoint(first);
  let suffix = orth;
  // Last three code points (a surrogate pair is one).
  let cut = orth.length;
  for (let k = 0; k < 3 && cut > 0; k++) {
    const lo = orth.charCodeAt(cut - 1);
    cut -= lo >= 0xdc00 && lo <= 0xdfff && cut >= 2 && isHighSurrogate(orth.charCodeAt(cut - 2)) ? 2 : 1;
  }
  suffix = orth.slice(cut);
  return { norm, prefix, suffix, shape: wordShape(orth) };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** The uint64 ids spaCy's `doc.to_array` gives the string attributes (their hashes, or symbol ids). */
export function attributeIds(s: LexemeStrings): Record<"NORM" | "PREFIX" | "SUFFIX" | "SHAPE", U64> {
  return {
    NORM: stringId(s.norm),
    PREFIX: stringId(s.prefix),
    SUFFIX: stringId(s.suffix),
    SHAPE: stringId(s.shape),
  };
}

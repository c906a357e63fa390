// spaCy's lexical attributes as the senter's embeddings read them: NORM (the pipeline's
// `lexeme_norm` table, then spaCy's language-independent norms, then `str.lower()`), PREFIX (first
// character), SUFFIX (last three), SHAPE (`word_shape`), each as its string hash. Characters are
// Python's: code points, with Python's `isalpha` / `isupper` / `isdigit`.

import { isHighSurrogate, isLowSurrogate } from "@convkit/pyregex";
import { hashKey } from "./folder.js";
import type { U64 } from "./hashing.js";
import { stringId } from "./symbols.js";
import { unitsToString } from "./utf16.js";

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

/** UTF-16 length of the longest text with a base norm. */
const BASE_NORM_LONGEST = Math.max(...[...BASE_NORMS.keys()].map((k) => k.length));

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

/** What a code point becomes in a word shape: {@link SHAPE_OTHER} (itself), or x, X or d. */
const SHAPE_OTHER = 0;
const SHAPE_LOWER = 0x78;
const SHAPE_UPPER = 0x58;
const SHAPE_DIGIT = 0x64;

/** A code point's shape class by Python's `isalpha` / `isupper` / `isdigit`. */
function shapeClassOf(c: string): number {
  if (ALPHA.test(c)) return UPPER.test(c) ? SHAPE_UPPER : SHAPE_LOWER;
  return isPyDigit(c) ? SHAPE_DIGIT : SHAPE_OTHER;
}

/** Shape classes of the BMP's code units, worked out on first sight (+1; 0: not yet). */
const bmpShapeClass = new Uint8Array(0x10000);
for (let c = 0; c < 128; c++) bmpShapeClass[c] = shapeClassOf(String.fromCharCode(c)) + 1;

/** Longest word shape in code units (99 code points, each a pair at most); 100 code points are LONG. */
export const MAX_SHAPE_UNITS = 198;

/**
 * spaCy's `word_shape` of `text` as UTF-16 code units into `out` (room for
 * {@link MAX_SHAPE_UNITS}): letters as x/X, digits as d, other characters as themselves, runs cut
 * after 4. Returns the count, or −1 for LONG (100 code points or more).
 */
export function wordShapeInto(text: string, out: Uint16Array): number {
  let n = 0;
  let points = 0;
  let last = -1;
  let seq = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    let width = 1;
    let cls: number;
    if (isHighSurrogate(c) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1))) {
      width = 2;
      cls = shapeClassOf(text.slice(i, i + 2));
    } else {
      cls = bmpShapeClass[c]! - 1;
      if (cls < 0) {
        cls = shapeClassOf(String.fromCharCode(c));
        bmpShapeClass[c] = cls + 1;
      }
    }
    if (++points === 100) return -1;
    // The character a run compares: its class letter, or the character itself (both units of a pair).
    const key = cls === SHAPE_OTHER ? (width === 2 ? c * 0x10000 + text.charCodeAt(i + 1) : c) : -cls;
    if (key === last) seq++;
    else {
      seq = 0;
      last = key;
    }
    if (seq < 4) {
      if (cls !== SHAPE_OTHER) out[n++] = cls;
      else {
        out[n++] = c;
        if (width === 2) out[n++] = text.charCodeAt(i + 1);
      }
    }
    i += width - 1;
  }
  return n;
}

const shapeUnits = new Uint16Array(MAX_SHAPE_UNITS);

/** spaCy's `word_shape` as a string (see {@link wordShapeInto}). */
export function wordShape(text: string): string {
  const n = wordShapeInto(text, shapeUnits);
  return n < 0 ? "LONG" : unitsToString(shapeUnits, 0, n);
}

/** The norm spaCy gives a lexeme: the pipeline's table, spaCy's base norms, else Python's `lower()`. */
export function lexemeNormOf(orth: string, lexemeNorm: ReadonlyMap<string, string>): string {
  return lexemeNorm.get(hashKey(stringId(orth))) ?? fallbackNorm(orth);
}

/** The norm of a lexeme the pipeline's table does not have: spaCy's base norms, else Python's `lower()`. */
export function fallbackNorm(orth: string): string {
  // Most words are longer than every base norm's text: no lookup (a new word's hash is not free).
  return (orth.length <= BASE_NORM_LONGEST ? BASE_NORMS.get(orth) : undefined) ?? orth.toLowerCase();
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
    cut -= isLowSurrogate(lo) && cut >= 2 && isHighSurrogate(orth.charCodeAt(cut - 2)) ? 2 : 1;
  }
  suffix = orth.slice(cut);
  return { norm, prefix, suffix, shape: wordShape(orth) };
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

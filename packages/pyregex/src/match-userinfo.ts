// spaCy's URL pattern (`url_match`) with its user-info part `(?:\S+(?::\S*)?@)?` decided by a scan
// of the string's '@'s, not by backtracking. Python's re, and V8 on the translated pattern, try
// `\S+` ending at every unit of a long chunk and `:\S*` from every ':' before giving up on the part:
// quadratic on a chunk holding many of both. The part matches exactly the strings `\S+@` does
// (`\S+:\S*` is itself `\S+`), so with a prefix P that may match empty and consumes no whitespace
// (the scheme `(?:[\w+\-.]{2,}://)?`), `P U? R` matches s exactly when `P R` does or, for some '@'
// at p ≥ 1 with no whitespace before it, R matches from p + 1 to the end.
// Each '@' costs R's own work from there: its host stops at the next '@', its path (`[/?#]\S*`)
// succeeds at once on a tokenizer chunk (no whitespace); only a string holding whitespace that the
// host's class takes (U+3000), which the tokenizer never asks about, still costs a scan to it per '@'.
import { END } from "./pyregex.js";
import { isHighSurrogate, isLowSurrogate } from "./utf16.js";

/** What compileMatch knows of the pattern around its user-info term. */
export interface UserInfoSplit {
  /** The translated source before the term (P) and after it (R, ending with the end anchor). */
  rest: string;
  /** `P R`: the pattern without the term. */
  without: RegExp;
  /** One character any consuming atom of R can take (outside lookarounds). */
  restAtom: RegExp;
  flags: string;
}

/** The translation of Python's `\S` (unicode), as the term spells it. */
const NON_SPACE = "[^\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
/** The user-info term as pyregex.ts translates `(?:\S+(?::\S*)?@)?`. */
export const USER_INFO = `(?:${NON_SPACE}+(?::${NON_SPACE}*)?@)?`;
const SPACE = new RegExp(NON_SPACE.replace("[^", "["), "u");

/**
 * Whether a prefix whose consuming atoms are `atoms` can never take a whitespace character (the
 * scan's "no whitespace before the '@'" is then exact): every one of Python's \s tried.
 */
export function consumesNoSpace(atoms: string[], flags: string): boolean {
  if (atoms.length === 0) return true;
  const any = new RegExp(`^(?:${atoms.join("|")})$`, flags.replace(/[gy]/g, ""));
  for (let c = 0; c <= 0x3000; c++) {
    const ch = String.fromCharCode(c);
    if (SPACE.test(ch) && any.test(ch)) return false;
  }
  return true;
}

/** `re.match(P U? R, s) is not None`, linear in s apart from R's own work from each '@'. */
export function userInfoMatcher(split: UserInfoSplit): (s: string) => boolean {
  if (!split.rest.endsWith(END)) throw new Error("url_match: the user-info split needs an end anchor");
  const rest = new RegExp(split.rest, `${split.flags}y`);
  return (s) => {
    split.without.lastIndex = 0;
    if (split.without.test(s)) return true;
    // R matches up to the end (or a final newline): it must consume every character from its
    // start on, so no start at or before the last one none of its atoms takes is tried (a chunk of
    // many 'user@host/' pieces and a tab at its end would otherwise scan to the tab from each '@').
    let end = s.length;
    if (end > 0 && s.charCodeAt(end - 1) === 10) end--;
    let last = -1;
    for (let i = end; i > 0; ) {
      const lo =
        i >= 2 && isLowSurrogate(s.charCodeAt(i - 1)) && isHighSurrogate(s.charCodeAt(i - 2)) ? i - 2 : i - 1;
      if (!split.restAtom.test(s.slice(lo, i))) {
        last = lo;
        break;
      }
      i = lo;
    }
    const space = s.search(SPACE);
    const before = space === -1 ? s.length : space;
    for (let p = s.indexOf("@", Math.max(1, last)); p !== -1 && p < before; p = s.indexOf("@", p + 1)) {
      rest.lastIndex = p + 1;
      if (rest.test(s)) return true;
    }
    return false;
  };
}

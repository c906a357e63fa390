// Texts on which spaCy's tokenizer does quadratic work (its affix loop peels one mark at a time and
// searches, slices and hashes what is left each time) or its patterns backtrack: runs of one
import { elementAt } from "../checked.js";

// punctuation mark, mixed runs, one long token, URL-like and numeric runs, emoji. Generated at the
// size asked, never stored.

/** `unit` repeated to `n` code points (a surrogate pair is one). */
function run(unit: string, n: number): string {
  const points = [...unit];
  return Array.from({ length: n }, (_, i) => points[i % points.length]).join("");
}

/** Each adversarial input of `n` code points, by name. */
export function adversarialInputs(n: number, rng: (seed: number) => () => number): Record<string, string> {
  return {
    bang: run("!", n),
    dot: run(".", n),
    dash: run("-", n),
    apostrophe: run("'", n),
    quote: run('"', n),
    open: run("(", n),
    close: run(")", n),
    hash: run("#", n),
    ellipsis: run("…", n),
    mixed: run("!?.,;:()[]\"'-", n),
    dotBang: run(".!", n),
    apostropheS: run("'s", n),
    letters: run("a", n),
    letterDot: run("a.", n),
    url: `http://${run("a.", Math.max(0, n - 7))}`,
    userAt: `${run("a:", n - 1)}@`,
    // url_match's user-info part `\S+(?::\S*)?@` tried from every ':' to every '@' (seeded):
    // 10 s for 100k units before its '@' scan (@convkit/pyregex's match-userinfo.ts).
    colonAt: pick("a:@.", n, rng(0xc01a)),
    dashWords: run("a-", n),
    digitCommas: run("1,", n),
    emoji: run("😀", n),
    emojiDot: run("😀.", n),
    wrapped: `${run("(", n >> 1)}word${run(")", n >> 1)}`,
  };
}

/** A seeded mix of punctuation, letters, digits and emoji, mostly without spaces: `n` code points. */
export function adversarialMix(r: () => number, n: number): string {
  const alphabet = [...`!?.,;:()[]{}"'-–—…#*&@/\\%$+=<>_~\`´‘’“”«»aZ1 😀🇺`];
  const out: string[] = [];
  while (out.length < n) {
    // Runs of one character, as the inputs above, and short mixes between them.
    const c = elementAt(alphabet, Math.floor(r() * alphabet.length));
    const length = r() < 0.3 ? 1 + Math.floor(r() * 200) : 1;
    for (let k = 0; k < (c === " " ? 1 : length); k++) out.push(c);
  }
  return out.slice(0, n).join("");
}

/** `n` characters of `alphabet` drawn with a seeded generator (the tests' `rng`: testdata imports no test package). */
function pick(alphabet: string, n: number, r: () => number): string {
  return Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join("");
}

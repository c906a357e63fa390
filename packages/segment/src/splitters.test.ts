import { describe, expect, it } from "vitest";
import { heuristicSplitter, icuSplitter, sentencizerSplitter, spacyLikeTokens } from "./splitters.js";

const words = (text: string, starts: number[]) =>
  starts.map((s, i) => text.slice(s, starts[i + 1] ?? text.length).trim());

describe("spaCy-like tokens and the sentencizer rule", () => {
  it("peels punctuation off words, keeps abbreviations, initials and ellipses whole", () => {
    const t = 'He said "Hi." Mr. Smith (U.S.) left... e.g. now!';
    const toks = spacyLikeTokens(t);
    const out: string[] = [];
    for (let k = 0; k < toks.length; k += 2) out.push(t.slice(toks[k], toks[k + 1]));
    expect(out).toEqual([
      "He",
      "said",
      '"',
      "Hi",
      ".",
      '"',
      "Mr.",
      "Smith",
      "(",
      "U.S.",
      ")",
      "left",
      "...",
      "e.g.",
      "now",
      "!",
    ]);
  });
  it("starts a sentence at the first non-punctuation token after a sentence-final one", () => {
    const t = 'It works. "Really?" Yes! Dr. Who came at 5 p.m. today. USA. Next';
    // As in spaCy, an opening quote after the period is punctuation: it stays with the sentence before.
    expect(words(t, sentencizerSplitter(t))).toEqual([
      'It works. "',
      'Really?"',
      "Yes!",
      "Dr. Who came at 5 p.m. today.",
      "USA.",
      "Next",
    ]);
  });
  it("heuristic: an ellipsis before a capitalized word ends a sentence, before a lowercase one it does not", () => {
    const t = "Wait... Then it rained... and stopped. Done";
    expect(words(t, heuristicSplitter(t))).toEqual(["Wait...", "Then it rained... and stopped.", "Done"]);
    expect(words(t, sentencizerSplitter(t))).toEqual(["Wait... Then it rained... and stopped.", "Done"]);
  });
});

describe("ICU in pieces", () => {
  const sentence = (i: number) => `Sentence number ${i} talks about item ${i % 7} and more. `;
  it("gives the same starts fed in pieces as whole, on a 60 KB text", () => {
    const text = Array.from({ length: 1000 }, (_, i) => sentence(i))
      .join("")
      .trim();
    const whole = icuSplitter(1 << 30)(text);
    expect(whole.length).toBe(1000);
    expect(icuSplitter(4096)(text)).toEqual(whole);
    expect(icuSplitter(700)(text)).toEqual(whole);
  });
  it("splits a 1 MB document (pieces keep it linear) and cuts an endless sentence at piece ends", () => {
    const text = Array.from({ length: 21_000 }, (_, i) => sentence(i))
      .join("")
      .trim();
    expect(text.length).toBeGreaterThan(1_000_000);
    const starts = icuSplitter()(text);
    expect(starts.length).toBe(21_000);
    const endless = "word ".repeat(5000).trim();
    const cut = icuSplitter(4096)(endless);
    expect(cut[0]).toBe(0);
    expect(cut.every((s, i) => i === 0 || s > cut[i - 1]!)).toBe(true);
  });
});

describe("the chunk-wise rule splitters", () => {
  // The rule token by token over the whole token list: what the splitters compute chunk by chunk.
  const TERMS = new Set([..."!.?։؟۔܀܁܂।॥၊။።፧፨‼‽⁇⁈⁉⸮⸼꓿꘎꘏﹒﹖﹗！．？｡。"]);
  const byTokens = (text: string, ellipses: boolean): number[] => {
    const tok = spacyLikeTokens(text);
    const starts = [0];
    let seenPeriod = false;
    let seenEllipsis = false;
    for (let k = 0; k < tok.length; k += 2) {
      const t = text.slice(tok[k]!, tok[k + 1]!);
      if (!seenPeriod && !seenEllipsis && /^[A-Za-z0-9]/.test(t)) continue;
      const final = TERMS.has(t);
      const ellipsis = ellipses && !final && /^(\.{2,}|…+|[!?]{2,})$/u.test(t);
      if ((seenPeriod || seenEllipsis) && !final && !ellipsis && !/^\p{P}+$/u.test(t)) {
        if (tok[k]! > 0 && (seenPeriod || /^\p{Lu}/u.test(t))) starts.push(tok[k]!);
        seenPeriod = false;
        seenEllipsis = false;
      } else if (final) seenPeriod = true;
      else if (ellipsis) seenEllipsis = true;
    }
    return starts;
  };

  it("equal the rule applied token by token, on random texts of tricky pieces", () => {
    let seed = 11;
    const rnd = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    const pieces = [
      "word",
      "Word",
      "é",
      "Éclair",
      "3",
      ".",
      "...",
      "…",
      "?!",
      "!",
      "?",
      '"',
      "(",
      ")",
      "Mr.",
      "U.S.",
      "e.g.",
      "a.m.",
      "USA.",
      "x.",
      "5%.",
      "'",
      "。",
      "\n",
      " ",
      "  ",
      "\t",
    ];
    for (let n = 0; n < 3000; n++) {
      let t = "";
      const len = 1 + Math.floor(rnd() * 25);
      for (let k = 0; k < len; k++) t += pieces[Math.floor(rnd() * pieces.length)] + (rnd() < 0.7 ? " " : "");
      expect(sentencizerSplitter(t)).toEqual(byTokens(t, false));
      expect(heuristicSplitter(t)).toEqual(byTokens(t, true));
    }
  });
});

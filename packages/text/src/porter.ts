// NLTK 3.8's PorterStemmer in its default NLTK_EXTENSIONS mode, step for step.

const IRREGULAR: Record<string, string> = {
  sky: "sky",
  skies: "sky",
  dying: "die",
  lying: "lie",
  tying: "tie",
  news: "news",
  innings: "inning",
  inning: "inning",
  outings: "outing",
  outing: "outing",
  cannings: "canning",
  canning: "canning",
  howe: "howe",
  proceed: "proceed",
  exceed: "exceed",
  succeed: "succeed",
};

const VOWELS = new Set(["a", "e", "i", "o", "u"]);

function isConsonant(word: string, i: number): boolean {
  const c = word.charAt(i);
  if (VOWELS.has(c)) return false;
  if (c === "y") return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

/** m: the number of VC sequences in the stem. */
function measure(stem: string): number {
  let m = 0;
  let prevVowel = false;
  for (let i = 0; i < stem.length; i++) {
    const cons = isConsonant(stem, i);
    if (cons && prevVowel) m++;
    prevVowel = !cons;
  }
  return m;
}

const positive = (stem: string) => measure(stem) > 0;

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  return (
    word.length >= 2 && word[word.length - 1] === word[word.length - 2] && isConsonant(word, word.length - 1)
  );
}

/** *o, with NLTK's extension for two-letter stems (vowel, consonant). */
function endsCvc(word: string): boolean {
  const n = word.length;
  return (
    (n >= 3 &&
      isConsonant(word, n - 3) &&
      !isConsonant(word, n - 2) &&
      isConsonant(word, n - 1) &&
      !["w", "x", "y"].includes(word.charAt(n - 1))) ||
    (n === 2 && !isConsonant(word, 0) && isConsonant(word, 1))
  );
}

type Rule = [suffix: string, replacement: string, condition: ((stem: string) => boolean) | null];

/** The first rule whose suffix matches decides: applied if its condition holds, else the word stays. */
function applyRules(word: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === "*d" && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
    if (word.endsWith(suffix)) {
      const stem = suffix === "" ? word : word.slice(0, -suffix.length);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith("ies") && word.length === 4) return `${word.slice(0, -3)}ie`;
  return applyRules(word, [
    ["sses", "ss", null],
    ["ies", "i", null],
    ["ss", "ss", null],
    ["s", "", null],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith("ied")) return word.length === 4 ? `${word.slice(0, -3)}ie` : `${word.slice(0, -3)}i`;
  if (word.endsWith("eed")) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? `${stem}ee` : word;
  }
  let inter: string | undefined;
  for (const suffix of ["ed", "ing"]) {
    if (word.endsWith(suffix)) {
      const s = word.slice(0, -suffix.length);
      if (containsVowel(s)) {
        inter = s;
        break;
      }
    }
  }
  if (inter === undefined) return word;
  const last = inter[inter.length - 1]!;
  return applyRules(inter, [
    ["at", "ate", null],
    ["bl", "ble", null],
    ["iz", "ize", null],
    ["*d", last, () => !["l", "s", "z"].includes(last)],
    ["", "e", (stem) => measure(stem) === 1 && endsCvc(stem)],
  ]);
}

function step1c(word: string): string {
  return applyRules(word, [["y", "i", (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: string): string {
  if (word.endsWith("alli") && positive(word.slice(0, -4))) return step2(`${word.slice(0, -4)}al`);
  return applyRules(word, [
    ["ational", "ate", positive],
    ["tional", "tion", positive],
    ["enci", "ence", positive],
    ["anci", "ance", positive],
    ["izer", "ize", positive],
    ["bli", "ble", positive],
    ["alli", "al", positive],
    ["entli", "ent", positive],
    ["eli", "e", positive],
    ["ousli", "ous", positive],
    ["ization", "ize", positive],
    ["ation", "ate", positive],
    ["ator", "ate", positive],
    ["alism", "al", positive],
    ["iveness", "ive", positive],
    ["fulness", "ful", positive],
    ["ousness", "ous", positive],
    ["aliti", "al", positive],
    ["iviti", "ive", positive],
    ["biliti", "ble", positive],
    ["fulli", "ful", positive],
    // The 'l' of 'logi' stays with the stem, so short stems like 'geo' work like 'archaeo'.
    ["logi", "log", () => positive(word.slice(0, -3))],
  ]);
}

function step3(word: string): string {
  return applyRules(word, [
    ["icate", "ic", positive],
    ["ative", "", positive],
    ["alize", "al", positive],
    ["iciti", "ic", positive],
    ["ical", "ic", positive],
    ["ful", "", positive],
    ["ness", "", positive],
  ]);
}

const gt1 = (stem: string) => measure(stem) > 1;

function step4(word: string): string {
  return applyRules(word, [
    ["al", "", gt1],
    ["ance", "", gt1],
    ["ence", "", gt1],
    ["er", "", gt1],
    ["ic", "", gt1],
    ["able", "", gt1],
    ["ible", "", gt1],
    ["ant", "", gt1],
    ["ement", "", gt1],
    ["ment", "", gt1],
    ["ent", "", gt1],
    ["ion", "", (stem) => measure(stem) > 1 && (stem.endsWith("s") || stem.endsWith("t"))],
    ["ou", "", gt1],
    ["ism", "", gt1],
    ["ate", "", gt1],
    ["iti", "", gt1],
    ["ous", "", gt1],
    ["ive", "", gt1],
    ["ize", "", gt1],
  ]);
}

function step5a(word: string): string {
  if (word.endsWith("e")) {
    const stem = word.slice(0, -1);
    const m = measure(stem);
    if (m > 1) return stem;
    if (m === 1 && !endsCvc(stem)) return stem;
  }
  return word;
}

function step5b(word: string): string {
  return applyRules(word, [["ll", "l", () => measure(word.slice(0, -1)) > 1]]);
}

/** NLTK 3.8 `PorterStemmer().stem(word)`: lowercases, irregular forms, words of <= 2 letters kept. */
export function porterStemUncached(word: string): string {
  const lower = word.toLowerCase();
  // NLTK looks the irregular forms up by the word as given (so "Skies" is stemmed normally).
  const irregular = Object.hasOwn(IRREGULAR, word) ? IRREGULAR[word] : undefined;
  if (irregular !== undefined) return IRREGULAR[lower] ?? irregular;
  if (word.length <= 2) return lower;
  let s = step1a(lower);
  s = step1b(s);
  s = step1c(s);
  s = step2(s);
  s = step3(s);
  s = step4(s);
  s = step5a(s);
  return step5b(s);
}

const cache = new Map<string, string>();

/** {@link porterStemUncached}, cached per distinct word (texts repeat their words a lot). */
export function porterStem(word: string): string {
  let s = cache.get(word);
  if (s === undefined) {
    s = porterStemUncached(word);
    if (cache.size > 500_000) cache.clear();
    cache.set(word, s);
  }
  return s;
}

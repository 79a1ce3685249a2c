// The Porter stemmer in NLTK's default mode (NLTK_EXTENSIONS), which rouge-score stems with (Porter 1980, An
// algorithm for suffix stripping). A transcription of nltk/stem/porter.py, rule for rule: no npm stemmer has
// NLTK's extensions, and ROUGE-L with stemming must match word for word.

const IRREGULAR: Record<string, string> = {
  skies: "sky", sky: "sky", dying: "die", lying: "lie", tying: "tie", news: "news",
  innings: "inning", inning: "inning", outings: "outing", outing: "outing",
  cannings: "canning", canning: "canning", howe: "howe",
  proceed: "proceed", exceed: "exceed", succeed: "succeed",
};

type Condition = ((stem: string) => boolean) | null;
type Rule = [suffix: string, replacement: string, condition: Condition];

const isVowel = (c: string) => c === "a" || c === "e" || c === "i" || c === "o" || c === "u";

function isConsonant(word: string, i: number): boolean {
  const c = word[i]!;
  if (isVowel(c)) return false;
  if (c === "y") return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

function measure(stem: string): number {
  let m = 0;
  let prev = "";
  for (let i = 0; i < stem.length; i++) {
    const cur = isConsonant(stem, i) ? "c" : "v";
    if (prev === "v" && cur === "c") m++;
    prev = cur;
  }
  return m;
}

const positiveMeasure = (stem: string) => measure(stem) > 0;

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  return word.length >= 2 && word[word.length - 1] === word[word.length - 2] && isConsonant(word, word.length - 1);
}

function endsCvc(word: string): boolean {
  const n = word.length;
  return (
    (n >= 3 && isConsonant(word, n - 3) && !isConsonant(word, n - 2) && isConsonant(word, n - 1) && !"wxy".includes(word[n - 1]!)) ||
    (n === 2 && !isConsonant(word, 0) && isConsonant(word, 1))
  );
}

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
  if (word.endsWith("ies") && word.length === 4) return word.slice(0, -3) + "ie";
  return applyRules(word, [["sses", "ss", null], ["ies", "i", null], ["ss", "ss", null], ["s", "", null]]);
}

function step1b(word: string): string {
  if (word.endsWith("ied")) return word.slice(0, -3) + (word.length === 4 ? "ie" : "i");
  if (word.endsWith("eed")) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? stem + "ee" : word;
  }
  let inter: string | undefined;
  for (const suffix of ["ed", "ing"]) {
    if (word.endsWith(suffix)) {
      const candidate = word.slice(0, -suffix.length);
      if (containsVowel(candidate)) { inter = candidate; break; }
    }
  }
  if (inter === undefined) return word;
  const last = inter[inter.length - 1]!;
  return applyRules(inter, [
    ["at", "ate", null],
    ["bl", "ble", null],
    ["iz", "ize", null],
    ["*d", last, () => !"lsz".includes(last)],
    ["", "e", (stem) => measure(stem) === 1 && endsCvc(stem)],
  ]);
}

function step1c(word: string): string {
  return applyRules(word, [["y", "i", (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

const STEP2: readonly Rule[] = [
  ["ational", "ate", positiveMeasure], ["tional", "tion", positiveMeasure], ["enci", "ence", positiveMeasure],
  ["anci", "ance", positiveMeasure], ["izer", "ize", positiveMeasure], ["bli", "ble", positiveMeasure],
  ["alli", "al", positiveMeasure], ["entli", "ent", positiveMeasure], ["eli", "e", positiveMeasure],
  ["ousli", "ous", positiveMeasure], ["ization", "ize", positiveMeasure], ["ation", "ate", positiveMeasure],
  ["ator", "ate", positiveMeasure], ["alism", "al", positiveMeasure], ["iveness", "ive", positiveMeasure],
  ["fulness", "ful", positiveMeasure], ["ousness", "ous", positiveMeasure], ["aliti", "al", positiveMeasure],
  ["iviti", "ive", positiveMeasure], ["biliti", "ble", positiveMeasure], ["fulli", "ful", positiveMeasure],
];

function step2(word: string): string {
  if (word.endsWith("alli") && positiveMeasure(word.slice(0, -4))) return step2(word.slice(0, -4) + "al");
  return applyRules(word, [...STEP2, ["logi", "log", () => positiveMeasure(word.slice(0, -3))]]);
}

const STEP3: readonly Rule[] = [
  ["icate", "ic", positiveMeasure], ["ative", "", positiveMeasure], ["alize", "al", positiveMeasure],
  ["iciti", "ic", positiveMeasure], ["ical", "ic", positiveMeasure], ["ful", "", positiveMeasure],
  ["ness", "", positiveMeasure],
];

const gt1 = (stem: string) => measure(stem) > 1;
const STEP4: readonly Rule[] = [
  ["al", "", gt1], ["ance", "", gt1], ["ence", "", gt1], ["er", "", gt1], ["ic", "", gt1], ["able", "", gt1],
  ["ible", "", gt1], ["ant", "", gt1], ["ement", "", gt1], ["ment", "", gt1], ["ent", "", gt1],
  ["ion", "", (stem) => measure(stem) > 1 && (stem.endsWith("s") || stem.endsWith("t"))],
  ["ou", "", gt1], ["ism", "", gt1], ["ate", "", gt1], ["iti", "", gt1], ["ous", "", gt1], ["ive", "", gt1],
  ["ize", "", gt1],
];

function step5a(word: string): string {
  if (word.endsWith("e")) {
    const stem = word.slice(0, -1);
    if (measure(stem) > 1) return stem;
    if (measure(stem) === 1 && !endsCvc(stem)) return stem;
  }
  return word;
}

function step5b(word: string): string {
  return applyRules(word, [["ll", "l", () => measure(word.slice(0, -1)) > 1]]);
}

/** NLTK's PorterStemmer().stem(word). */
export function porterStem(word: string): string {
  const lower = word.toLowerCase();
  if (Object.hasOwn(IRREGULAR, word)) return IRREGULAR[lower]!;
  if (word.length <= 2) return lower;
  let s = step1a(lower);
  s = step1b(s);
  s = step1c(s);
  s = step2(s);
  s = applyRules(s, STEP3);
  s = applyRules(s, STEP4);
  s = step5a(s);
  return step5b(s);
}

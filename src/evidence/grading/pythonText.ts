// The few Python string operations lm-eval's metrics are built on, with Python's own definitions where
// JavaScript's differ: str.strip()/split() whitespace (which has U+001C–U+001F and U+0085 but not U+FEFF),
// string.punctuation, and `\b`/`\w` as Python's `re` reads them in a str pattern (Unicode letters and digits).

const PY_SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const LEADING = new RegExp(`^[${PY_SPACE}]+`);
const TRAILING = new RegExp(`[${PY_SPACE}]+$`);

/** Python's `s.strip()`. */
export const pyStrip = (s: string): string => s.replace(LEADING, "").replace(TRAILING, "");

/** Python's `s.rstrip()`. */
export const pyRstrip = (s: string): string => s.replace(TRAILING, "");

/** Python's `s.split()`: runs of whitespace separate, no empty pieces (the uncertainty scores' own). */
export { pythonSplit as pySplit } from "../../uncertainty/index.js";

/** Python's `string.punctuation`. */
export const PY_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
const PUNCT = new Set(PY_PUNCTUATION);

/** `s.translate(str.maketrans("", "", string.punctuation))`. */
export const removePunctuation = (s: string): string => [...s].filter((c) => !PUNCT.has(c)).join("");

/** A character class of what Python's `\w` matches in a str pattern (letters, digits, underscore). */
export const PY_WORD = "[\\p{L}\\p{N}_]";

// Python's str.split() and str.lower().split(), which lm-polygraph's BLEU and Jaccard similarities tokenise with:
// runs of Python's whitespace characters (JavaScript's \s differs: it lacks \x1c–\x1f and \x85, adds \ufeff).
const PY_WHITESPACE = /[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

export function pythonSplit(text: string): string[] {
  return text.split(PY_WHITESPACE).filter((t) => t.length > 0);
}

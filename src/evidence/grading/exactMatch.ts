// lm-eval's `exact_match` metric (api/metrics.py exact_match_hf_evaluate, ported from Hugging Face evaluate):
// every regex of regexes_to_ignore removed from prediction and references, then lower case, then ASCII
// punctuation removed, then string equality. numpy's fixed-width strings are kept in the comparison's
// quirks: trailing NULs dropped, and a lower-cased string cut to the width of its array (İ → i̇ → i).
import { removePunctuation } from "./pythonText.js";

export interface ExactMatchOptions {
  /** Applied in order with every match removed (Python's `re.sub(pattern, "", x)`), as JavaScript equivalents. */
  regexesToIgnore?: readonly RegExp[];
  ignoreCase?: boolean;
  ignorePunctuation?: boolean;
}

const codePoints = (s: string) => [...s].length;
const numpyStored = (s: string) => s.replace(/\u0000+$/, "");

function lowerArray(values: string[]): string[] {
  const width = Math.max(0, ...values.map(codePoints));
  return values.map((v) => numpyStored([...v.toLowerCase()].slice(0, width).join("")));
}

/**
 * 1 when the prediction equals one of the references after the options' normalisation, else 0: lm-eval's
 * score for a task with several targets ("1.0 if scores > 0.0"; one target is the one-element case).
 */
export function exactMatch(prediction: string, references: readonly string[], options: ExactMatchOptions = {}): 0 | 1 {
  let preds = references.map(() => prediction);
  let refs = [...references];
  preds = preds.map(numpyStored);
  refs = refs.map(numpyStored);
  // Each regex's result becomes a numpy array again, trailing NULs dropped before the next one runs.
  for (const re of options.regexesToIgnore ?? []) {
    const global = re.global ? re : new RegExp(re.source, `${re.flags}g`);
    preds = preds.map((p) => numpyStored(p.replace(global, "")));
    refs = refs.map((r) => numpyStored(r.replace(global, "")));
  }
  if (options.ignoreCase) {
    preds = lowerArray(preds);
    refs = lowerArray(refs);
  }
  if (options.ignorePunctuation) {
    preds = preds.map(removePunctuation);
    refs = refs.map(removePunctuation);
  }
  return refs.some((r, i) => r === preds[i]) ? 1 : 0;
}

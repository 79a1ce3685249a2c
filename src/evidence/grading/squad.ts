// SQuAD v1.1's answer comparison (Rajpurkar et al., 2016; its official evaluate-v1.1.py): lower case,
// ASCII punctuation removed, the articles a/an/the removed, whitespace collapsed; then token F1 with
// multiplicity, and the best over the references.
import { PY_WORD, pySplit, removePunctuation } from "./pythonText.js";

const ARTICLES = new RegExp(`(?<!${PY_WORD})(a|an|the)(?!${PY_WORD})`, "gu");

export function normalizeAnswer(s: string): string {
  return pySplit(removePunctuation(s.toLowerCase()).replace(ARTICLES, " ")).join(" ");
}

/** Token F1 of one prediction against one reference, in [0, 1]. */
export function squadF1(prediction: string, reference: string): number {
  const pred = pySplit(normalizeAnswer(prediction));
  const ref = pySplit(normalizeAnswer(reference));
  const counts = new Map<string, number>();
  for (const t of ref) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of pred) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / pred.length;
  const recall = same / ref.length;
  return (2 * precision * recall) / (precision + recall);
}

export const squadExactMatch = (prediction: string, reference: string): 0 | 1 => (normalizeAnswer(prediction) === normalizeAnswer(reference) ? 1 : 0);

/** The best F1 and exact match over the references (SQuAD's metric_max_over_ground_truths). */
export function squadScores(prediction: string, references: readonly string[]): { f1: number; exactMatch: 0 | 1 } {
  let f1 = 0;
  let em: 0 | 1 = 0;
  for (const r of references) {
    f1 = Math.max(f1, squadF1(prediction, r));
    if (squadExactMatch(prediction, r)) em = 1;
  }
  return { f1, exactMatch: em };
}

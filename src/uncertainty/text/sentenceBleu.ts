// Sentence BLEU with one reference as NLTK's sentence_bleu computes it with no smoothing (method0) (Papineni et al.
// 2002, BLEU): clipped n-gram precisions, a zero precision replaced by the smallest normal double, the brevity
// penalty, exp(Σ w_n log p_n). No unigram match gives 0.
import { ngramCounts } from "./ngrams.js";

const FLOAT_MIN = 2.2250738585072014e-308;

export function sentenceBleu(reference: readonly string[], hypothesis: readonly string[], weights: readonly number[]): number {
  const numerators: number[] = [];
  const denominators: number[] = [];
  for (let n = 1; n <= weights.length; n++) {
    const hyp = ngramCounts(hypothesis, n);
    const ref = ngramCounts(reference, n);
    let clipped = 0, total = 0;
    for (const [g, c] of hyp) { clipped += Math.min(c, ref.get(g) ?? 0); total += c; }
    numerators.push(clipped);
    denominators.push(Math.max(1, total));
  }
  if (numerators[0] === 0) return 0;
  const r = reference.length, h = hypothesis.length;
  const bp = h > r ? 1 : h === 0 ? 0 : Math.exp(1 - r / h);
  let s = 0;
  for (let i = 0; i < weights.length; i++) {
    const p = numerators[i] !== 0 ? numerators[i]! / denominators[i]! : FLOAT_MIN;
    if (p > 0) s += weights[i]! * Math.log(p);
  }
  return bp * Math.exp(s);
}

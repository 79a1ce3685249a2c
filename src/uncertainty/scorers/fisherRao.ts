// Fisher–Rao distance to the uniform distribution at temperature 2, averaged over tokens: (2/π)·arccos(Σ √p_v · √(1/V))
// (Darrin et al. 2023, arXiv:2212.09171; lm-polygraph estimators/fisher_rao.py).
import { defineScorer, type Scorer } from "../scorer.js";
import { softmaxRow } from "../numeric.js";

export function fisherRaoScorer({ temperature = 2 }: { temperature?: number } = {}): Scorer {
  return defineScorer({
    name: "FisherRao",
    statistics: ["greedy_log_probs"],
    settings: { temperature },
    confidence: "1-u",
    score: (s) => {
      const rows = s.greedy_log_probs!;
      // lm-polygraph raises on an empty answer (scipy's softmax of a zero-size array).
      if (rows.length === 0) return NaN;
      let total = 0;
      for (const row of rows) {
        const p = softmaxRow(row, temperature);
        let root = 0;
        for (let v = 0; v < p.length; v++) root += Math.sqrt(p[v]!);
        total += (2 / Math.PI) * Math.acos(root * Math.sqrt(1 / p.length));
      }
      return total / rows.length;
    },
  });
}

export const fisherRao = fisherRaoScorer();

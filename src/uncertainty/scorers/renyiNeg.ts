// Rényi divergence to the uniform distribution at temperature 2, α = 1/2, averaged over tokens (Darrin et al.
// 2023, Rainproof, arXiv:2212.09171; lm-polygraph estimators/renyi_neg.py, value and orientation as it computes them).
import { defineScorer, type Scorer } from "../scorer.js";
import { softmaxRow } from "../numeric.js";

export interface RenyiNegOptions {
  /** Order α of the divergence (default 0.5). */
  alpha?: number;
  /** Softmax temperature applied to the log-probabilities (default 2). */
  temperature?: number;
}

export function renyiNegScorer({ alpha = 0.5, temperature = 2 }: RenyiNegOptions = {}): Scorer {
  return defineScorer({
    name: "RenyiNeg",
    statistics: ["greedy_log_probs"],
    settings: { alpha, temperature },
    confidence: "1/(1+exp(u))",
    score: (s) => {
      const rows = s.greedy_log_probs!;
      // lm-polygraph raises on an empty answer (scipy's softmax of a zero-size array).
      if (rows.length === 0) return NaN;
      let total = 0;
      for (const row of rows) {
        const p = softmaxRow(row, temperature);
        const logV = Math.log(p.length);
        let step: number;
        if (alpha === 1) {
          step = 0;
          for (let v = 0; v < p.length; v++) step += Math.log(p[v]!) * p[v]!;
          step += logV;
        } else {
          let sa = 0;
          for (let v = 0; v < p.length; v++) sa += p[v]! ** alpha;
          step = (Math.log(sa) - (alpha - 1) * logV) * (1 / (alpha - 1));
        }
        total += step;
      }
      return total / rows.length;
    },
  });
}

export const renyiNeg = renyiNegScorer();

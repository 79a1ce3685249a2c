// Length-normalised predictive entropy: −(1/K) Σ_k log p(s_k | x) / |s_k| over the non-empty samples (Kuhn et al.
// 2023, arXiv:2302.09664; lm-polygraph estimators/monte_carlo_normalized_sequence_entropy.py).
import { defineScorer } from "../scorer.js";

export const monteCarloNormalizedSequenceEntropy = defineScorer({
  name: "MonteCarloNormalizedSequenceEntropy",
  statistics: ["sample_log_probs", "sample_tokens"],
  confidence: "exp(-u)",
  score: (s) => {
    const lp = s.sample_log_probs!;
    const tokens = s.sample_tokens!;
    let total = 0;
    let n = 0;
    for (let k = 0; k < Math.min(lp.length, tokens.length); k++) {
      const len = tokens[k]!.length;
      if (len) { total += lp[k]! / len; n++; }
    }
    return -(n === 0 ? NaN : total / n);
  },
});

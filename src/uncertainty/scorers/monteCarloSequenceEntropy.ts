// Predictive entropy by Monte Carlo: −(1/K) Σ_k log p(s_k | x) (Kuhn et al. 2023, arXiv:2302.09664;
// lm-polygraph estimators/monte_carlo_sequence_entropy.py).
import { defineScorer } from "../scorer.js";
import { mean } from "../numeric.js";

export const monteCarloSequenceEntropy = defineScorer({
  name: "MonteCarloSequenceEntropy",
  statistics: ["sample_log_probs"],
  confidence: "exp(-u)",
  score: (s) => -mean(s.sample_log_probs!),
});

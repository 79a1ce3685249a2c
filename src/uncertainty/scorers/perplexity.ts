// Perplexity as its log: −(1/T) Σ log p(y_t | y_<t, x) (lm-polygraph estimators/perplexity.py; Fomicheva et al. 2020).
import { defineScorer } from "../scorer.js";
import { mean } from "../numeric.js";

export const perplexity = defineScorer({
  name: "Perplexity",
  statistics: ["greedy_log_likelihoods"],
  confidence: "exp(-u)",
  score: (s) => -mean(s.greedy_log_likelihoods!),
});

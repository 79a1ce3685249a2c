// Maximum sequence probability: −log p(y | x) of the answer (lm-polygraph estimators/max_probability.py).
import { defineScorer } from "../scorer.js";
import { sum } from "../numeric.js";

export const maximumSequenceProbability = defineScorer({
  name: "MaximumSequenceProbability",
  statistics: ["greedy_log_likelihoods"],
  confidence: "exp(-u)",
  score: (s) => -sum(s.greedy_log_likelihoods!),
});

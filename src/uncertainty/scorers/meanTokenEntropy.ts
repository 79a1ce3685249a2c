// Mean token entropy: (1/T) Σ H(p(· | y_<t, x)) (lm-polygraph estimators/token_entropy.py; Fomicheva et al. 2020).
import { defineScorer } from "../scorer.js";
import { mean } from "../numeric.js";

export const meanTokenEntropy = defineScorer({
  name: "MeanTokenEntropy",
  statistics: ["entropy"],
  confidence: "exp(-u)",
  score: (s) => mean(s.entropy!),
});

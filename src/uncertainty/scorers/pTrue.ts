// P(True): −log p("True") after asking the model whether its own answer is true (Kadavath et al. 2022, Language
// Models (Mostly) Know What They Know, arXiv:2207.05221; lm-polygraph estimators/p_true.py).
import { defineScorer } from "../scorer.js";

export const pTrue = defineScorer({
  name: "PTrue",
  statistics: ["p_true"],
  confidence: "exp(-u)",
  score: (s) => -s.p_true!,
});

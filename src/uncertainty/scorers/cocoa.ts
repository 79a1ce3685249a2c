// CoCoA: a token-probability score times the greedy answer's mean dissimilarity to the samples, mean(1 − sim)
// (Vashurin et al. 2025, Uncertainty Quantification for LLMs through Minimum Bayes Risk, arXiv:2502.04964;
// lm-polygraph estimators/cocoa.py: CocoaMSP, CocoaPPL, CocoaMTE).
import { defineScorer } from "../scorer.js";
import { mean, sum } from "../numeric.js";
import type { ItemStatistics } from "../statistics.js";

function meanDissimilarity(s: ItemStatistics): number {
  const sim = s.greedy_sentence_similarity!;
  let total = 0;
  for (let k = 0; k < sim.length; k++) total += 1 - sim[k]!;
  return sim.length === 0 ? NaN : total / sim.length;
}

export const cocoaMSP = defineScorer({
  name: "CocoaMSP",
  statistics: ["greedy_sentence_similarity", "greedy_log_likelihoods"],
  confidence: "exp(-u)",
  score: (s) => -sum(s.greedy_log_likelihoods!) * meanDissimilarity(s),
});

export const cocoaPPL = defineScorer({
  name: "CocoaPPL",
  statistics: ["greedy_sentence_similarity", "greedy_log_likelihoods"],
  confidence: "exp(-u)",
  score: (s) => -mean(s.greedy_log_likelihoods!) * meanDissimilarity(s),
});

export const cocoaMTE = defineScorer({
  name: "CocoaMTE",
  statistics: ["greedy_sentence_similarity", "entropy"],
  confidence: "exp(-u)",
  score: (s) => mean(s.entropy!) * meanDissimilarity(s),
});

// Verbalized confidence, one stage: 1 − the probability the model states in its answer, read with a regular
// expression (Tian et al. 2023, Just Ask for Calibration, arXiv:2305.14975; lm-polygraph estimators/verbalized_1s.py).
import { defineScorer, type Scorer } from "../scorer.js";

export interface Verbalized1SOptions {
  /**
   * The first capture group is the stated probability. Default `Probability: (\d+\.\d+)`, the pattern of
   * lm-polygraph's own verbalized-1S configurations (its class default, "", has no group and raises).
   */
  confidence_regex?: string;
  /** Appended to the name, as lm-polygraph's name_postfix. */
  name_postfix?: string;
}

export function verbalized1SScorer({ confidence_regex = "Probability: (\\d+\\.\\d+)", name_postfix = "" }: Verbalized1SOptions = {}): Scorer {
  const re = new RegExp(confidence_regex);
  return defineScorer({
    name: `Verbalized1S${name_postfix}`,
    statistics: ["greedy_texts"],
    settings: { confidence_regex, name_postfix },
    confidence: "1-u",
    score: (s) => {
      const group = re.exec(s.greedy_texts!)?.[1];
      // Python's float() takes surrounding whitespace and nothing else; no match is NaN, as in lm-polygraph.
      const value = group === undefined || group.trim() === "" ? NaN : Number(group.trim());
      return 1 - value;
    },
  });
}

export const verbalized1S = verbalized1SScorer();

// Self-certainty: −mean_t KL(U ‖ p_t), KL(U ‖ p_t) = −mean(log p_t) − log V over the finite entries (Kang et al.
// 2025, Scalable Best-of-N Selection via Self-Certainty, arXiv:2502.18581; lm-polygraph estimators/self_certainty.py).
import { defineScorer } from "../scorer.js";

export const selfCertainty = defineScorer({
  name: "SelfCertainty",
  statistics: ["greedy_log_probs"],
  confidence: "1-exp(u)",
  score: (s) => {
    const rows = s.greedy_log_probs!;
    if (rows.length === 0) return NaN;
    let total = 0;
    for (const lp of rows) {
      let sum = 0;
      let n = 0;
      for (let v = 0; v < lp.length; v++) {
        const x = lp[v]!;
        if (x !== -Infinity && x !== Infinity) { sum += x; n++; }
      }
      total += n === 0 ? NaN : -(sum / n) - Math.log(n);
    }
    return -(total / rows.length);
  },
});

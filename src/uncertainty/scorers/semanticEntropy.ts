// Semantic entropy: the entropy over classes of mutually entailing samples, −(1/K) Σ_k log p(C(s_k) | x) with
// log p(C) = logsumexp of its members' log-probabilities (Kuhn et al. 2023, arXiv:2302.09664); "direct" is the
// SDLG paper's estimator (Aichberger et al. 2024, arXiv:2406.04306). lm-polygraph estimators/semantic_entropy.py.
import { defineScorer, type Scorer } from "../scorer.js";
import { logSumExpLeft } from "../numeric.js";
import type { StatisticName } from "../statistics.js";

export interface SemanticEntropyOptions {
  /** "sum": a class's probability is its members' summed probability; "frequency": its share of the K samples. */
  class_probability_estimation?: "sum" | "frequency";
  /** "mean": −(1/K) Σ_k log p(C_k); "direct": −Σ_k p(C_k) log p(C_k) over the samples k (SDLG). */
  entropy_estimation?: "mean" | "direct";
  /** "sum" only: count each distinct text once within its class. */
  use_unique_responses?: boolean;
}

export function semanticEntropyScorer(o: SemanticEntropyOptions = {}): Scorer {
  const cpe = o.class_probability_estimation ?? "sum";
  const ee = o.entropy_estimation ?? "mean";
  const unique = o.use_unique_responses ?? false;
  const direct = ee === "direct" ? " (Direct)" : "";
  const name = cpe === "sum" ? `SemanticEntropy${unique ? "Unique" : ""}${direct}` : `SemanticEntropyEmpirical${direct}`;
  const statistics: StatisticName[] = cpe === "sum"
    ? ["sample_log_probs", "sample_texts", "semantic_classes_entail"]
    : ["sample_texts", "semantic_classes_entail"];
  return defineScorer({
    name,
    statistics,
    settings: { class_probability_estimation: cpe, entropy_estimation: ee, use_unique_responses: unique },
    confidence: "exp(-u)",
    score: (s) => {
      const texts = s.sample_texts!;
      const { class_to_sample, sample_to_class } = s.semantic_classes_entail!;
      const classLp = class_to_sample.map((members) => {
        if (cpe === "frequency") return Math.log(members.length / texts.length);
        let ids = members;
        if (unique) {
          // np.unique(return_index=True): the first occurrence of each distinct text.
          const seen = new Set<string>();
          ids = members.filter((i) => !seen.has(texts[i]!) && (seen.add(texts[i]!), true));
        }
        return logSumExpLeft(ids.map((i) => s.sample_log_probs![i]!));
      });
      if (texts.length === 0) return NaN;
      let total = 0;
      for (let j = 0; j < texts.length; j++) {
        const lp = classLp[sample_to_class[j]!]!;
        total += ee === "mean" ? lp : lp * Math.exp(lp);
      }
      return ee === "mean" ? -(total / texts.length) : -total;
    },
  });
}

export const semanticEntropy = semanticEntropyScorer();

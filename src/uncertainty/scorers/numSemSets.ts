// Number of semantic sets: connected components of the graph joining samples i, j when p_entail > p_contra in
// both directions (Lin et al. 2023, Generating with Confidence, arXiv:2305.19187; lm-polygraph estimators/num_sem_sets.py).
import { defineScorer } from "../scorer.js";

export const numSemSets = defineScorer({
  name: "NumSemSets",
  statistics: ["semantic_matrix_entail", "semantic_matrix_contra", "sample_texts"],
  confidence: "1/u",
  score: (s) => {
    const e = s.semantic_matrix_entail!;
    const c = s.semantic_matrix_contra!;
    const k = e.length;
    const parent = Array.from({ length: k }, (_, i) => i);
    const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
    let components = k;
    for (let i = 0; i < k; i++) {
      for (let j = i + 1; j < k; j++) {
        if (e[i]![j]! > c[i]![j]! && e[j]![i]! > c[j]![i]!) {
          const a = root(i), b = root(j);
          if (a !== b) { parent[a] = b; components--; }
        }
      }
    }
    return components;
  },
});

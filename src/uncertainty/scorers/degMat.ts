// Degree matrix: trace(K − D) / K² = 1 − mean(W), one minus the mean similarity of the samples (Lin et al. 2023,
// arXiv:2305.19187; lm-polygraph estimators/deg_mat.py).
import { defineScorer, type Scorer } from "../scorer.js";
import { graphIdentity, similarityMatrix, type GraphOptions } from "../similarityGraph.js";

export function degMatScorer(o: GraphOptions = {}): Scorer {
  return defineScorer({
    ...graphIdentity("DegMat", o),
    settings: { similarity_score: o.similarity_score ?? "NLI_score", affinity: o.affinity ?? "entail" },
    confidence: "1-u",
    score: (s) => {
      const w = similarityMatrix(s, o);
      const k = w.length;
      let trace = 0;
      for (let i = 0; i < k; i++) {
        let d = 0;
        for (let j = 0; j < k; j++) d += w[i]![j]!;
        trace += k - d;
      }
      return trace / k ** 2;
    },
  });
}

export const degMat = degMatScorer();

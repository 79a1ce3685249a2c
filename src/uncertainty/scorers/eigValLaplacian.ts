// Sum of the eigenvalues of the graph Laplacian, Σ_k max(0, 1 − λ_k): a continuous number of semantic sets (Lin et al.
// 2023, arXiv:2305.19187; lm-polygraph estimators/eig_val_laplacian.py).
import { defineScorer, type Scorer } from "../scorer.js";
import { graphIdentity, normalizedLaplacian, similarityMatrix, symmetricEigen, type GraphOptions } from "../similarityGraph.js";

export function eigValLaplacianScorer(o: GraphOptions = {}): Scorer {
  return defineScorer({
    ...graphIdentity("EigValLaplacian", o),
    settings: { similarity_score: o.similarity_score ?? "NLI_score", affinity: o.affinity ?? "entail" },
    confidence: "1/u",
    score: (s) => {
      const l = normalizedLaplacian(similarityMatrix(s, o));
      if (!l) return NaN;
      let u = 0;
      for (const lambda of symmetricEigen(l).values) u += Math.max(0, 1 - lambda);
      return u;
    },
  });
}

export const eigValLaplacian = eigValLaplacianScorer();

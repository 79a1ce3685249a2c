// Eccentricity: the norm of the centred Laplacian eigenvectors whose eigenvalue is below 0.9, as lm-polygraph
// computes it (Lin et al. 2023, arXiv:2305.19187; estimators/eccentricity.py). The value, √(Σ_j ‖v_j − mean(v_j)‖²),
// does not depend on which orthonormal basis an eigen-solver returns for a repeated eigenvalue.
import { defineScorer, type Scorer } from "../scorer.js";
import { graphIdentity, normalizedLaplacian, similarityMatrix, symmetricEigen, type GraphOptions } from "../similarityGraph.js";

export function eccentricityScorer(o: GraphOptions & { thres?: number } = {}): Scorer {
  const thres = o.thres ?? 0.9;
  return defineScorer({
    ...graphIdentity("Eccentricity", o),
    settings: { similarity_score: o.similarity_score ?? "NLI_score", affinity: o.affinity ?? "entail", thres },
    confidence: "exp(-u)",
    score: (s) => {
      const l = normalizedLaplacian(similarityMatrix(s, o));
      if (!l) return NaN;
      const { values, vectors } = symmetricEigen(l);
      const k = l.rows;
      let squares = 0;
      for (let c = 0; c < values.length; c++) {
        if (!(values[c]! < thres)) continue;
        let m = 0;
        for (let r = 0; r < k; r++) m += vectors.get(r, c);
        m /= k;
        for (let r = 0; r < k; r++) squares += (vectors.get(r, c) - m) ** 2;
      }
      return Math.sqrt(squares);
    },
  });
}

export const eccentricity = eccentricityScorer();

// EigenScore: the mean log-eigenvalue of the regularised K×K covariance of the sample embeddings, each centred over
// its own d features, E J_d Eᵀ + αI (Chen et al. 2024, INSIDE, openreview Zj12nzlQbz; lm-polygraph estimators/eigenscore.py).
import { Matrix } from "ml-matrix";
import { defineScorer, type Scorer } from "../scorer.js";
import { symmetricEigen } from "../similarityGraph.js";

export function eigenScoreScorer({ alpha = 1e-3 }: { alpha?: number } = {}): Scorer {
  return defineScorer({
    name: "EigenScore",
    statistics: ["sample_embeddings"],
    settings: { alpha },
    confidence: "1/(1+exp(u))",
    score: (s) => {
      const e = s.sample_embeddings!;
      const k = e.length;
      if (k === 0) return NaN;
      // E J_d = each row minus its own mean over the d features.
      const centred = e.map((row) => {
        let m = 0;
        for (let v = 0; v < row.length; v++) m += row[v]!;
        m /= row.length;
        return Float64Array.from(row as ArrayLike<number>, (x) => x - m);
      });
      const cov = new Matrix(k, k);
      for (let i = 0; i < k; i++) {
        for (let j = i; j < k; j++) {
          let dot = 0;
          const a = centred[i]!, b = e[j]!;
          for (let v = 0; v < a.length; v++) dot += a[v]! * b[v]!;
          cov.set(i, j, dot + (i === j ? alpha : 0));
          cov.set(j, i, dot + (i === j ? alpha : 0));
        }
      }
      let total = 0;
      for (const val of symmetricEigen(cov).values) total += Math.log(val > 0 ? val : 1e-10);
      return total / k;
    },
  });
}

export const eigenScore = eigenScoreScorer();

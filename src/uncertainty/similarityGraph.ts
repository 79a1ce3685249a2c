// The similarity graph of K samples that lm-polygraph's graph scorers share (estimators/eig_val_laplacian.py,
// deg_mat.py, eccentricity.py, common.py; Lin et al. 2023, arXiv:2305.19187): W from NLI entailment (symmetrised),
// from 1 − contradiction, or from word-set Jaccard; and its normalised Laplacian L = I − D^−½ W D^−½.
import { EigenvalueDecomposition, Matrix } from "ml-matrix";
import type { ItemStatistics, StatisticName } from "./statistics.js";
import { pythonSplit } from "./text/whitespace.js";

export type SimilarityScore = "NLI_score" | "Jaccard_score";
export type Affinity = "entail" | "contra";

export interface GraphOptions {
  /** "NLI_score" (default) or "Jaccard_score". */
  similarity_score?: SimilarityScore;
  /** NLI only: "entail" (default), W = P(entail); "contra", W = 1 − P(contradict). */
  affinity?: Affinity;
}

/** lm-polygraph's str() suffix and stats_dependencies for the graph options. */
export function graphIdentity(prefix: string, o: GraphOptions): { name: string; statistics: StatisticName[] } {
  const score = o.similarity_score ?? "NLI_score";
  const affinity = o.affinity ?? "entail";
  if (score === "Jaccard_score") return { name: `${prefix}_Jaccard_score`, statistics: ["sample_texts"] };
  return {
    name: `${prefix}_NLI_score_${affinity}`,
    statistics: [affinity === "entail" ? "semantic_matrix_entail" : "semantic_matrix_contra", "sample_texts"],
  };
}

/** Word-set Jaccard similarity of lowercased, whitespace-split texts, 1 on the diagonal (common.py). */
export function jaccardMatrix(texts: readonly string[]): Float64Array[] {
  const sets = texts.map((t) => new Set(pythonSplit(t.toLowerCase())));
  const w = texts.map((_, i) => { const row = new Float64Array(texts.length); row[i] = 1; return row; });
  for (let i = 0; i < texts.length; i++) {
    for (let j = i + 1; j < texts.length; j++) {
      let inter = 0;
      for (const x of sets[i]!) if (sets[j]!.has(x)) inter++;
      const union = sets[i]!.size + sets[j]!.size - inter;
      w[i]![j] = w[j]![i] = union === 0 ? 0 : inter / union;
    }
  }
  return w;
}

/** The symmetric similarity matrix W the options name. */
export function similarityMatrix(s: ItemStatistics, o: GraphOptions): Float64Array[] {
  if ((o.similarity_score ?? "NLI_score") === "Jaccard_score") return jaccardMatrix(s.sample_texts!);
  const contra = o.affinity === "contra";
  const m = contra ? s.semantic_matrix_contra! : s.semantic_matrix_entail!;
  const k = m.length;
  const at = (i: number, j: number) => (contra ? 1 - m[i]![j]! : m[i]![j]!);
  return Array.from({ length: k }, (_, i) => Float64Array.from({ length: k }, (_, j) => (at(i, j) + at(j, i)) / 2));
}

/**
 * L = I − D^−½ W D^−½ with D the row sums, or undefined where a row sums to ≤ 0 (numpy's inverse of √D fails
 * there: lm-polygraph raises).
 */
export function normalizedLaplacian(w: Float64Array[]): Matrix | undefined {
  const k = w.length;
  const inv = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    let d = 0;
    for (let j = 0; j < k; j++) d += w[i]![j]!;
    if (!(d > 0)) return undefined;
    inv[i] = 1 / Math.sqrt(d);
  }
  const l = new Matrix(k, k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) l.set(i, j, (i === j ? 1 : 0) - inv[i]! * w[i]![j]! * inv[j]!);
  }
  return l;
}

/** Eigenvalues (ascending) and unit eigenvectors (columns) of a symmetric matrix: scipy.linalg.eigh's job. */
export function symmetricEigen(m: Matrix): { values: number[]; vectors: Matrix } {
  const e = new EigenvalueDecomposition(m, { assumeSymmetric: true });
  return { values: e.realEigenvalues, vectors: e.eigenvectorMatrix };
}

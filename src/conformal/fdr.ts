// Conformal selection (Jin & Candès 2023) with Benjamini–Hochberg (1995): conformal p-values of the
// null "this item fails" from the calibration fails' scores, then BH across the test batch at level q.
import { countBelow } from "./quantile.js";

/**
 * p_j = (1 + #{calibration fails with score ≥ s_j}) / (n + 1), n = all calibration examples (pass and fail).
 * `failScores` ascending. (The clipped score of Jin & Candès: passes never count against a test item.)
 */
export function selectionPValue(failScoresAscending: Float64Array, n: number, score: number): number {
  return (1 + failScoresAscending.length - countBelow(failScoresAscending, score)) / (n + 1);
}

/** Benjamini–Hochberg: which p-values are rejected (selected) at FDR level q. */
export function benjaminiHochberg(pValues: ArrayLike<number>, q: number): boolean[] {
  const m = pValues.length;
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => pValues[a]! - pValues[b]! || a - b);
  let r = 0;
  for (let i = m; i >= 1; i--) {
    if (pValues[order[i - 1]!]! <= (q * i) / m) {
      r = i;
      break;
    }
  }
  const out = new Array<boolean>(m).fill(false);
  for (let i = 0; i < r; i++) out[order[i]!] = true;
  return out;
}

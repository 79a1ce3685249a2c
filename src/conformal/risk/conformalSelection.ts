// Conformal selection (Jin & Candès 2023) with Benjamini–Hochberg (1995): conformal p-values of the
// null "this item fails" from the calibration fails' scores, then BH across the test batch at level q.
// BH compares p_(i) with q·i/m exactly: (0.05·43)/43 is 0.049999999999999996 in floating point, which once
// dropped 43 tied p-values of exactly 0.05 that each passed alone.
import { countBelow } from "../numeric/orderStatistic.js";
import { decimalFraction } from "../numeric/exactDecimal.js";

/**
 * p_j = (1 + #{calibration fails with score ≥ s_j}) / (n + 1), n = all calibration examples (pass and fail).
 * `failScores` ascending. (The clipped score of Jin & Candès: passes never count against a test item.)
 */
export function selectionPValue(failScoresAscending: Float64Array, n: number, score: number): number {
  return (1 + failScoresAscending.length - countBelow(failScoresAscending, score)) / (n + 1);
}

/** The numerator 1 + #{fails ≥ s} of selectionPValue, over the denominator n + 1. */
export function selectionPValueCount(failScoresAscending: Float64Array, score: number): number {
  return 1 + failScoresAscending.length - countBelow(failScoresAscending, score);
}

/** BH's step-up over p-values given as exact fractions num_j / den_j (BigInt), sorted by `order`. */
function stepUp(order: readonly number[], num: readonly bigint[], den: readonly bigint[], q: number): number {
  const m = order.length;
  const Q = decimalFraction(q);
  const M = BigInt(m);
  // p_(i) ≤ q·i/m  ⇔  num·m·Q.den ≤ Q.num·i·den, all integers.
  for (let i = m; i >= 1; i--) {
    const j = order[i - 1]!;
    if (num[j]! * M * Q.den <= Q.num * BigInt(i) * den[j]!) return i;
  }
  return 0;
}

function selected(order: readonly number[], r: number): boolean[] {
  const out = new Array<boolean>(order.length).fill(false);
  for (let i = 0; i < r; i++) out[order[i]!] = true;
  return out;
}

/**
 * Benjamini–Hochberg: which p-values are rejected (selected) at FDR level q. Each p-value and q are read as the
 * decimals they print as (the engine's convention, numeric/exactDecimal.ts), and compared exactly.
 */
export function benjaminiHochberg(pValues: ArrayLike<number>, q: number): boolean[] {
  const m = pValues.length;
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => pValues[a]! - pValues[b]! || a - b);
  const num: bigint[] = [];
  const den: bigint[] = [];
  for (let j = 0; j < m; j++) {
    const f = decimalFraction(pValues[j]!);
    num.push(f.num);
    den.push(f.den);
  }
  return selected(order, stepUp(order, num, den, q));
}

/** Benjamini–Hochberg on p-values counts_j / denominator (conformal p-values are such ratios), exactly. */
export function benjaminiHochbergCounts(counts: ArrayLike<number>, denominator: number, q: number): boolean[] {
  const m = counts.length;
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => counts[a]! - counts[b]! || a - b);
  const num = Array.from(counts as ArrayLike<number>, (c) => BigInt(c));
  const den = new Array<bigint>(m).fill(BigInt(denominator));
  return selected(order, stepUp(order, num, den, q));
}

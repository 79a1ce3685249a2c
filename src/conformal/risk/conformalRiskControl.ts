// Conformal risk control (Angelopoulos, Bates, Fisch, Lei & Schuster 2022): the most lenient threshold λ
// whose inflated empirical risk (n/(n+1))·R̂(λ) + B/(n+1) is ≤ target, for losses monotone in λ.
// Gate form: approve iff score ≥ λ; loss_i(λ) = ℓ_i·1{s_i ≥ λ} with ℓ_i ∈ [0, B] the loss if approved.

import { floorTimes } from "../numeric/exactDecimal.js";

/** The next double above x (so that "score ≥ nextUp(x)" means "score > x"). */
export function nextUp(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  buf.setBigUint64(0, x > 0 ? bits + 1n : bits - 1n);
  return buf.getFloat64(0);
}

export interface CrcResult {
  /** Approve iff score ≥ threshold; +∞ when even approving nothing cannot meet the bound. */
  readonly threshold: number;
  /** False when B/(n+1) > target: no threshold meets the guarantee. */
  readonly feasible: boolean;
  /** Empirical risk R̂ at the threshold. */
  readonly empiricalRisk: number;
}

/**
 * CRC threshold. `losses[i]` is the loss example i incurs if approved (default loss: 1 for a fail, 0 for a pass),
 * `bound` B the largest possible loss. Exact integer arithmetic when all losses are 0/1 and B = 1.
 */
export function crcThreshold(scores: ArrayLike<number>, losses: ArrayLike<number>, target: number, bound = 1): CrcResult {
  const n = scores.length;
  let integer = bound === 1;
  for (let i = 0; i < n && integer; i++) integer = losses[i] === 0 || losses[i] === 1;
  // Budget on the summed loss of approved examples: Σ ℓ ≤ (n+1)·target − B.
  const budget = integer ? floorTimes(n + 1, target) - 1 : (n + 1) * target - bound;
  return budgetThreshold(scores, losses, budget);
}

/**
 * The most lenient threshold whose approved examples' summed loss is ≤ `budget`, from the highest score down,
 * a tie group taken whole or not at all; infeasible when the budget is negative. (CRC's rule, and Learn then
 * Test's once its p-values are turned into a budget of approved losses, learnThenTest.ts.)
 */
export function budgetThreshold(scores: ArrayLike<number>, losses: ArrayLike<number>, budget: number): CrcResult {
  const n = scores.length;
  if (budget < 0) return { threshold: Infinity, feasible: false, empiricalRisk: 0 };
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[b]! - scores[a]!);
  let sum = 0;
  let t = 0;
  while (t < n) {
    // Take the whole tie group at this score or none of it.
    let groupLoss = 0;
    let u = t;
    const s = scores[order[t]!]!;
    while (u < n && scores[order[u]!]! === s) groupLoss += losses[order[u++]!]!;
    if (sum + groupLoss > budget) return { threshold: nextUp(s), feasible: true, empiricalRisk: n ? sum / n : 0 };
    sum += groupLoss;
    t = u;
  }
  return { threshold: -Infinity, feasible: true, empiricalRisk: n ? sum / n : 0 };
}

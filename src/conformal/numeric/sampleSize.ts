// How many calibration examples a guarantee needs. minimumN: the quantile is finite. recommendedN: the
// coverage of one fresh calibration, distributed Beta(k, n+1−k) (Vovk 2012; Angelopoulos & Bates 2021 §3.2),
// lies within ±tol of 1−α with the given probability.

import { ceilDiv, decimalFraction } from "./exactDecimal.js";
import { checkUnitOpen, invalid } from "../errors.js";
import { conformalRank } from "./orderStatistic.js";
import { regularizedBeta } from "./incompleteBeta.js";

/** Smallest n with ⌈(n+1)(1−α)⌉ ≤ n, i.e. n = ⌈(1−α)/α⌉ (α = 0.1 → 9, α = 0.05 → 19). */
export function minimumN(alpha: number): number {
  checkUnitOpen(alpha, "alpha");
  const { num, den } = decimalFraction(alpha);
  return Number(ceilDiv(den - num, num));
}

/** P(|coverage − (1−α)| ≤ tol) for a calibration of n examples. 0 when the quantile is infinite. */
export function coverageWithinProbability(n: number, alpha: number, tol: number): number {
  const k = conformalRank(n, alpha);
  if (k > n) return 0;
  const a = k;
  const b = n + 1 - k;
  const target = 1 - alpha;
  const hi = Math.min(1, target + tol);
  const lo = Math.max(0, target - tol);
  return regularizedBeta(hi, a, b) - regularizedBeta(lo, a, b);
}

/**
 * Smallest n ≥ minimumN(α) whose coverage lies within ±tol of 1−α with probability ≥ prob.
 * (The ceiling in k makes this probability saw-toothed in n; we return the first n that reaches it.)
 */
export function recommendedN(alpha: number, tol = 0.02, prob = 0.95, maxN = 10_000_000): number {
  checkUnitOpen(alpha, "alpha");
  checkUnitOpen(tol, "tol");
  checkUnitOpen(prob, "prob");
  // Normal approximation to skip most of the scan, then step down to the exact first n.
  const z = 2.5758293035489004; // generous: start below the normal answer
  let n = Math.max(minimumN(alpha), Math.floor(((z * z * alpha * (1 - alpha)) / (tol * tol)) * 0.25) - 2);
  while (n > minimumN(alpha) && coverageWithinProbability(n, alpha, tol) >= prob) n = Math.max(minimumN(alpha), n >> 1);
  for (; n <= maxN; n++) if (coverageWithinProbability(n, alpha, tol) >= prob) return n;
  throw invalid(`no n ≤ ${maxN} reaches coverage within ±${tol} with probability ${prob}`, "tol");
}

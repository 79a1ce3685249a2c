// Audits: realized coverage on fresh labelled examples with the exact Clopper–Pearson (1934) interval.

import { checkUnitOpen, invalid } from "../errors.js";
import { inverseRegularizedBeta } from "../numeric/incompleteBeta.js";

/** Two-sided exact binomial interval for `successes` of `n` at the given confidence (e.g. 0.95). */
export function clopperPearson(successes: number, n: number, confidence = 0.95): [number, number] {
  checkUnitOpen(confidence, "confidence");
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(successes) || successes < 0 || successes > n) {
    throw invalid(`need integers 0 ≤ successes ≤ n, got ${successes} of ${n}`, "successes");
  }
  if (n === 0) return [0, 1];
  const tail = (1 - confidence) / 2;
  const lower = successes === 0 ? 0 : inverseRegularizedBeta(tail, successes, n - successes + 1);
  const upper = successes === n ? 1 : inverseRegularizedBeta(1 - tail, successes + 1, n - successes);
  return [lower, upper];
}

export interface AuditResult {
  readonly result: "pass" | "fail";
  readonly realizedCoverage: number;
  readonly ci: [number, number];
  readonly sample: number;
  readonly target: number;
}

/**
 * Audit rule: fail iff the Clopper–Pearson upper bound is below 1 − α − tolerance, i.e. coverage is
 * significantly below target at the interval's level; an empty sample passes (nothing to reject on).
 */
export function auditCoverage(
  covered: ArrayLike<boolean | number>,
  alpha: number,
  options: { confidence?: number; tolerance?: number } = {},
): AuditResult {
  checkUnitOpen(alpha, "alpha");
  let hits = 0;
  for (let i = 0; i < covered.length; i++) if (covered[i] === true || covered[i] === 1) hits++;
  const n = covered.length;
  const ci = clopperPearson(hits, n, options.confidence ?? 0.95);
  const target = 1 - alpha;
  const fail = ci[1] < target - (options.tolerance ?? 0);
  return { result: fail ? "fail" : "pass", realizedCoverage: n ? hits / n : NaN, ci, sample: n, target };
}

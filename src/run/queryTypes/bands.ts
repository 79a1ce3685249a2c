// Where a measured quantity of a seeded test split should land: exact binomial quantiles for risks and
// rates, Hoeffding bounds for bounded means. Every band is at 99.9%, as the coverage band of set runs.
import { logBeta, logGamma } from "../../conformal/index.js";

export const BAND_LEVEL = 0.999;

/** The smallest k with P(Binomial(m, p) ≤ k) ≥ level. */
export function binomialUpper(m: number, p: number, level = BAND_LEVEL): number {
  if (m === 0) return 0;
  if (p <= 0) return 0;
  if (p >= 1) return m;
  let cumulative = 0;
  for (let k = 0; k <= m; k++) {
    cumulative += Math.exp(logGamma(m + 1) - logGamma(k + 1) - logGamma(m - k + 1) + k * Math.log(p) + (m - k) * Math.log1p(-p));
    if (cumulative >= level) return k;
  }
  return m;
}

/** Hoeffding's deviation of a mean of m values in a range of width `range`, exceeded with probability 1 − level. */
export const hoeffding = (m: number, range: number, level = BAND_LEVEL): number =>
  m === 0 ? Infinity : range * Math.sqrt(Math.log(1 / (1 - level)) / (2 * m));

/** Normal-approximation half-width for a sum of independent Bernoullis with variance `variance`, as a share of m. */
export const bernoulliHalfWidth = (m: number, variance: number): number => (m === 0 ? Infinity : (3.29 * Math.sqrt(variance)) / m);

/**
 * The upper end of the band of a gate's auto-approved fails among the test items, under its guarantee. Each gate
 * rule approves a test item iff its score is above the (K + 1)-th highest of the f calibration fail scores
 * (gateFailBudget). Fail scores being exchangeable, the upper-tail mass U above that order statistic is
 * Beta(K + 1, f − K) for one calibration set, and the count of the F test fails above it, mixed over calibration
 * draws, is beta-binomial(F; K + 1, f − K) (all F when f ≤ K; none when K < 0, the gate abstaining). It holds
 * for any score law given the label counts f and F (ties only lower the count: a tie group is approved whole or
 * not at all), so unlike a binomial at the target it does not assume that one calibration's risk is ≤ target,
 * which an in-expectation guarantee does not promise. Returns the smallest c with P(count ≤ c) ≥ level.
 */
export function approvedFailsUpper(testFails: number, calibrationFails: number, budget: number, level = BAND_LEVEL): number {
  if (budget < 0 || testFails === 0) return 0;
  if (calibrationFails <= budget) return testFails;
  const a = budget + 1;
  const b = calibrationFails - budget;
  const F = testFails;
  let cumulative = 0;
  for (let c = 0; c <= F; c++) {
    cumulative += Math.exp(logGamma(F + 1) - logGamma(c + 1) - logGamma(F - c + 1) + logBeta(c + a, F - c + b) - logBeta(a, b));
    if (cumulative >= level) return c;
  }
  return F;
}

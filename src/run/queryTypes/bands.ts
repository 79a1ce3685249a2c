// Where a measured quantity of a seeded test split should land: exact binomial quantiles for risks and
// rates, Hoeffding bounds for bounded means. Every band is at 99.9%, as the coverage band of set runs.
import { logGamma } from "../../conformal/index.js";

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

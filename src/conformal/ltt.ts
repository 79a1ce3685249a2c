// Learn then Test (Angelopoulos, Bates, Candès, Jordan & Lei 2021): each threshold on a fixed grid is a
// hypothesis H_λ: R(λ) > target, tested with the Hoeffding–Bentkus p-value (Bates et al. 2021, RCPS),
// and fixed-sequence testing from the strictest λ to the most lenient controls the family-wise error at δ.

import { binomialCdf } from "./beta.js";

/** h1(a, b) = a ln(a/b) + (1−a) ln((1−a)/(1−b)), the Bernoulli KL divergence. */
function klBernoulli(a: number, b: number): number {
  const t1 = a === 0 ? 0 : a * Math.log(a / b);
  const t2 = a === 1 ? 0 : (1 - a) * Math.log((1 - a) / (1 - b));
  return t1 + t2;
}

/** Hoeffding–Bentkus p-value for H: R > target given empirical risk R̂ of n losses in [0, 1]. */
export function hoeffdingBentkusPValue(riskHat: number, n: number, target: number): number {
  if (n === 0) return 1;
  const hoeffding = Math.exp(-n * klBernoulli(Math.min(riskHat, target), target));
  const bentkus = Math.E * binomialCdf(Math.ceil(n * riskHat - 1e-9), n, target);
  return Math.min(1, hoeffding, bentkus);
}

/** Number of leading hypotheses rejected by fixed-sequence testing at level δ (stops at the first p > δ). */
export function fixedSequenceRejections(pValues: ArrayLike<number>, delta: number): number {
  let r = 0;
  while (r < pValues.length && pValues[r]! <= delta) r++;
  return r;
}

/** The default LTT grid: 1001 thresholds from 1 (strict) down to 0 (lenient), for scores that are probabilities. */
export function defaultThresholdGrid(size = 1001): Float64Array {
  const g = new Float64Array(size);
  for (let i = 0; i < size; i++) g[i] = 1 - i / (size - 1);
  return g;
}

// Learn then Test (Angelopoulos, Bates, Candès, Jordan & Lei 2021): each threshold λ is a hypothesis
// H_λ: R(λ) > target, tested with the Hoeffding–Bentkus p-value (Bates et al. 2021, RCPS), and fixed-sequence
// testing from the strictest λ to the most lenient controls the family-wise error at δ. By default every λ is
// tested, as RCPS does: the empirical risk, hence the p-value, only changes at the calibration scores, so
// walking the distinct scores from the top tests the continuum, and the risk being monotone in λ, the first
// true null is one fixed λ whose p-value is valid. (A fixed grid of 1,001 points stepped from 1 to 0.999 past
// 55 calibration scores at once on the pass/fail fixture and approved nothing.)

import { binomialCdf } from "../numeric/incompleteBeta.js";

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

/**
 * With losses 0 or 1 (in units of the bound), the walk's p-values depend on the count c of approved losses only:
 * the largest c with p(c / n) ≤ δ, so that fixed-sequence testing rejects every λ approving at most c; −1 when
 * even approving nothing is not certified. The p-value rises with c, so a binary search finds it.
 */
export function lttLossBudget(n: number, target: number, delta: number): number {
  const rejected = (c: number) => hoeffdingBentkusPValue(c / n, n, target) <= delta;
  if (!rejected(0)) return -1;
  let lo = 0;
  let hi = n + 1;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (rejected(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

// Prediction–rejection ratio (Malinin et al. 2017; Malinin & Gales 2021, Uncertainty Estimation in Autoregressive
// Structured Prediction): the mean normalised quality of the kept items as the most uncertain are rejected one by one,
// averaged over rejection levels (lm-polygraph ue_metrics/pred_rej_area.py), and its normalisation between a random
// order and the oracle order (utils/manager.py).
import { argsortAscending, normalizeTarget } from "./prepare.js";

/** lm-polygraph's `prr` (higher = better), over the first max_rejection share of rejections. */
export function predictionRejectionArea(estimator: ArrayLike<number>, target: ArrayLike<number>, maxRejection = 1): number {
  const t = normalizeTarget(target);
  const n = estimator.length;
  const numRej = Math.trunc(maxRejection * n);
  const order = argsortAscending(estimator);
  let cumsum = 0;
  let total = 0;
  for (let k = 0; k < n; k++) {
    cumsum += t[order[k]!]!;
    if (k >= n - numRej) total += cumsum / (k + 1);
  }
  return total / numRej;
}

/**
 * (prr − random) / (oracle − random), the oracle ordering by the target itself. The random baseline is its exact
 * expectation, the mean normalised target (every prefix of a random order has that mean quality), where
 * lm-polygraph averages 1000 shuffles seeded with 42 — the same number up to that Monte Carlo error.
 */
export function predictionRejectionRatio(estimator: ArrayLike<number>, target: ArrayLike<number>, maxRejection = 1): number {
  const value = predictionRejectionArea(estimator, target, maxRejection);
  const oracle = predictionRejectionArea(Float64Array.from(target as ArrayLike<number>, (x) => -x), target, maxRejection);
  const t = normalizeTarget(target);
  let random = 0;
  for (const x of t) random += x;
  random /= t.length;
  return oracle === random ? value : (value - random) / (oracle - random);
}

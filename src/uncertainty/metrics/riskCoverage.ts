// The risk–coverage curve (El-Yaniv & Wiener 2010, On the Foundations of Noise-free Selective Classification): keep
// the k least uncertain items, risk = mean of 1 − normalised quality over them; its mean over k is lm-polygraph's
// `rcc-auc` (ue_metrics/risk_cov_curve.py; lower = better), and 1 − it the area under the accuracy–rejection curve.
import { argsortAscending, normalizeTarget } from "./prepare.js";

export interface RiskCoverageCurve {
  /** k / n for k = 1..n. */
  coverage: Float64Array;
  /** Mean risk of the k least uncertain items. */
  risk: Float64Array;
}

export function riskCoverageCurve(estimator: ArrayLike<number>, target: ArrayLike<number>): RiskCoverageCurve {
  const t = normalizeTarget(target);
  const order = argsortAscending(estimator);
  const n = order.length;
  const coverage = new Float64Array(n);
  const risk = new Float64Array(n);
  let cum = 0;
  for (let k = 0; k < n; k++) {
    cum += 1 - t[order[k]!]!;
    coverage[k] = (k + 1) / n;
    risk[k] = cum / (k + 1);
  }
  return { coverage, risk };
}

/** lm-polygraph's `rcc-auc`: the mean of the curve's risks (or of the cumulative risks when normalize = false). */
export function riskCoverageCurveAuc(estimator: ArrayLike<number>, target: ArrayLike<number>, normalize = true): number {
  const { risk } = riskCoverageCurve(estimator, target);
  let total = 0;
  for (let k = 0; k < risk.length; k++) total += normalize ? risk[k]! : risk[k]! * (k + 1);
  return total / risk.length;
}

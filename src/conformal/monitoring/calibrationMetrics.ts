// How calibrated forecasts of binary events are: expected calibration error over equal-width bins
// (Naeini et al. 2015; Guo et al. 2017), the Brier score (Brier 1950) and the log-loss. Each takes the
// forecast probabilities and the 0/1 outcomes as parallel typed arrays.

import { invalid } from "../errors.js";

function checkPair(p: ArrayLike<number>, y: ArrayLike<number>): void {
  if (p.length !== y.length) throw invalid(`probabilities has ${p.length} entries for ${y.length} outcomes`, "outcomes");
  for (let i = 0; i < p.length; i++) {
    if (!(p[i]! >= 0 && p[i]! <= 1)) throw invalid(`probabilities[${i}] must lie in [0, 1], got ${p[i]}`, `probabilities[${i}]`);
    if (y[i] !== 0 && y[i] !== 1) throw invalid(`outcomes[${i}] must be 0 or 1, got ${y[i]}`, `outcomes[${i}]`);
  }
}

/** Σ_b (n_b / n) |mean outcome_b − mean forecast_b| over `bins` equal-width bins of [0, 1]; NaN when empty. */
export function expectedCalibrationError(p: ArrayLike<number>, y: ArrayLike<number>, bins = 10): number {
  checkPair(p, y);
  if (!Number.isInteger(bins) || bins < 1) throw invalid(`bins must be a positive integer, got ${bins}`, "bins");
  const n = p.length;
  if (n === 0) return NaN;
  const count = new Float64Array(bins);
  const forecast = new Float64Array(bins);
  const hits = new Float64Array(bins);
  for (let i = 0; i < n; i++) {
    const b = Math.min(bins - 1, Math.floor(p[i]! * bins));
    count[b]!++;
    forecast[b]! += p[i]!;
    hits[b]! += y[i]!;
  }
  let ece = 0;
  for (let b = 0; b < bins; b++) if (count[b]! > 0) ece += Math.abs(hits[b]! - forecast[b]!) / n;
  return ece;
}

/** Mean squared difference between forecast and outcome; NaN when empty. */
export function brierScore(p: ArrayLike<number>, y: ArrayLike<number>): number {
  checkPair(p, y);
  let sum = 0;
  for (let i = 0; i < p.length; i++) sum += (p[i]! - y[i]!) ** 2;
  return p.length ? sum / p.length : NaN;
}

/** Forecasts are clipped to [eps, 1 − eps] so that one confident miss is large but finite (as scikit-learn does). */
export const LOG_LOSS_EPS = 1e-15;

/** Mean negative log-likelihood of the outcomes, in nats; NaN when empty. */
export function logLoss(p: ArrayLike<number>, y: ArrayLike<number>, eps = LOG_LOSS_EPS): number {
  checkPair(p, y);
  let sum = 0;
  for (let i = 0; i < p.length; i++) {
    const q = Math.min(1 - eps, Math.max(eps, p[i]!));
    sum -= y[i] === 1 ? Math.log(q) : Math.log(1 - q);
  }
  return p.length ? sum / p.length : NaN;
}

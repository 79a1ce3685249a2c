// Expected calibration error of the confidence −estimator in 20 equal bins over [0, 1], the first closed (Naeini et
// al. 2015; Guo et al. 2017; lm-polygraph ue_metrics/ece.py). Confidences outside [0, 1] fall in no bin.

export function expectedCalibrationError(estimator: ArrayLike<number>, target: ArrayLike<number>, { normalize = false, nBins = 20 } = {}): number {
  if (estimator.length !== target.length) throw new RangeError("Estimator and target must have the same length.");
  const n = estimator.length;
  let conf = Float64Array.from(estimator as ArrayLike<number>, (x) => -x);
  if (normalize) {
    // sklearn's MinMaxScaler: a constant column maps to 0.
    let min = Infinity, max = -Infinity;
    for (const c of conf) { min = Math.min(min, c); max = Math.max(max, c); }
    const range = max - min === 0 ? 1 : max - min;
    conf = conf.map((c) => (c - min) / range);
  }
  let ece = 0;
  for (let b = 0; b < nBins; b++) {
    const lo = b * (1 / nBins), hi = b === nBins - 1 ? 1 : (b + 1) * (1 / nBins);
    let count = 0, acc = 0, sum = 0;
    for (let i = 0; i < n; i++) {
      const c = conf[i]!;
      if ((b > 0 ? c > lo : c >= lo) && c <= hi) { count++; acc += target[i]!; sum += c; }
    }
    if (count > 0) ece += (count / n) * Math.abs(acc / count - sum / count);
  }
  return ece;
}

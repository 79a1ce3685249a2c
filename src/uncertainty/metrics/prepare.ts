// What lm-polygraph does to scores and targets before its ue_metrics see them (utils/manager.py `_delete_nans`,
// ue_metrics/ue_metric.py `normalize`): items with a NaN target are dropped, a NaN or −∞ score becomes −1e7 and +∞
// becomes 1e7; ranking metrics min–max normalise the target, widening a constant one by 1 on each side.

/** Scores and targets ready for the metrics, as lm-polygraph's manager hands them over. */
export function prepareForMetrics(estimator: ArrayLike<number>, target: ArrayLike<number>): { estimator: Float64Array; target: Float64Array } {
  const e: number[] = [];
  const t: number[] = [];
  for (let i = 0; i < target.length; i++) {
    if (Number.isNaN(target[i]!)) continue;
    const x = estimator[i]!;
    e.push(Number.isNaN(x) || x === -Infinity ? -1e7 : x === Infinity ? 1e7 : x);
    t.push(target[i]!);
  }
  return { estimator: Float64Array.from(e), target: Float64Array.from(t) };
}

/** numpy.isclose(a, b) with its default tolerances. */
const isClose = (a: number, b: number) => Math.abs(a - b) <= 1e-8 + 1e-5 * Math.abs(b);

/** lm-polygraph's `normalize(target)`: (t − min) / (max − min), with min − 1 and max + 1 when they are close. */
export function normalizeTarget(target: ArrayLike<number>): Float64Array {
  let min = Infinity, max = -Infinity;
  for (let i = 0; i < target.length; i++) { min = Math.min(min, target[i]!); max = Math.max(max, target[i]!); }
  if (isClose(min, max)) { min -= 1; max += 1; }
  return Float64Array.from(target as ArrayLike<number>, (t) => (t - min) / (max - min));
}

/** Indices sorted by value, ascending, ties in input order (numpy's argsort agrees wherever values are distinct). */
export function argsortAscending(xs: ArrayLike<number>): Int32Array {
  const idx = Int32Array.from({ length: xs.length }, (_, i) => i);
  return idx.sort((a, b) => xs[a]! - xs[b]! || a - b);
}

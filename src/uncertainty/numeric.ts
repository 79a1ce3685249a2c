// numpy's reductions as lm-polygraph calls them: a mean of nothing is NaN (np.mean([])), and
// np.logaddexp.reduce folds pairwise from the left with numpy's own logaddexp.

export function sum(xs: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  return s;
}

export function mean(xs: ArrayLike<number>): number {
  return xs.length === 0 ? NaN : sum(xs) / xs.length;
}

/** numpy's npy_logaddexp. */
export function logAddExp(x: number, y: number): number {
  if (x === y) return x + Math.LN2;
  const d = x - y;
  if (d > 0) return x + Math.log1p(Math.exp(-d));
  if (d <= 0) return y + Math.log1p(Math.exp(d));
  return x + y;
}

/** np.logaddexp.reduce: −∞ for nothing (logaddexp's identity). */
export function logSumExpLeft(xs: ArrayLike<number>): number {
  if (xs.length === 0) return -Infinity;
  let acc = xs[0]!;
  for (let i = 1; i < xs.length; i++) acc = logAddExp(acc, xs[i]!);
  return acc;
}

/** scipy.special.softmax of x / temperature over one row (max subtracted first, as scipy does). */
export function softmaxRow(row: ArrayLike<number>, temperature: number): Float64Array {
  const out = new Float64Array(row.length);
  let max = -Infinity;
  for (let v = 0; v < row.length; v++) max = Math.max(max, row[v]! / temperature);
  let s = 0;
  for (let v = 0; v < row.length; v++) s += out[v] = Math.exp(row[v]! / temperature - max);
  for (let v = 0; v < row.length; v++) out[v]! /= s;
  return out;
}

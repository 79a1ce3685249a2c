// Rank correlation of uncertainty with −quality, as lm-polygraph calls scipy.stats.spearmanr(ue, −normalize(target))
// and kendalltau(ue, −normalize(target)) (Spearman 1904; Kendall 1945, tau-b with ties). Higher = better.
import { normalizeTarget } from "./prepare.js";

/** Average ranks, 1-based (scipy.stats.rankdata, method "average"). */
export function averageRanks(xs: ArrayLike<number>): Float64Array {
  const order = Int32Array.from({ length: xs.length }, (_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
  const ranks = new Float64Array(xs.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && xs[order[j + 1]!] === xs[order[i]!]) j++;
    const r = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]!] = r;
    i = j + 1;
  }
  return ranks;
}

function pearson(x: Float64Array, y: Float64Array): number {
  const n = x.length;
  let mx = 0, my = 0;
  for (let i = 0; i < n; i++) { mx += x[i]!; my += y[i]!; }
  mx /= n; my /= n;
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx, dy = y[i]! - my;
    sxy += dx * dy; sxx += dx * dx; syy += dy * dy;
  }
  const r = sxy / Math.sqrt(sxx * syy);
  return Number.isNaN(r) ? NaN : Math.max(-1, Math.min(1, r));
}

export function spearmanCorrelation(estimator: ArrayLike<number>, target: ArrayLike<number>): number {
  const negT = normalizeTarget(target).map((t) => -t);
  return pearson(averageRanks(estimator), averageRanks(negT));
}

/** Pairs tied within each run of equal values of an ascending sequence: Σ t(t − 1)/2. */
function tiedPairs(n: number, same: (a: number, b: number) => boolean): number {
  let pairs = 0;
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && same(j - 1, j)) j++;
    pairs += ((j - i) * (j - i - 1)) / 2;
    i = j;
  }
  return pairs;
}

/** Inversions of `a` (pairs i < j with a[i] > a[j]) by merge sort; sorts `a`. */
function inversions(a: Float64Array): number {
  let count = 0;
  let src: Float64Array = a, dst: Float64Array = new Float64Array(a.length);
  for (let width = 1; width < a.length; width *= 2) {
    for (let lo = 0; lo < a.length; lo += 2 * width) {
      const mid = Math.min(lo + width, a.length), hi = Math.min(lo + 2 * width, a.length);
      let i = lo, j = mid, k = lo;
      while (i < mid && j < hi) {
        if (src[j]! < src[i]!) { count += mid - i; dst[k++] = src[j++]!; } else dst[k++] = src[i++]!;
      }
      while (i < mid) dst[k++] = src[i++]!;
      while (j < hi) dst[k++] = src[j++]!;
    }
    [src, dst] = [dst, src];
  }
  if (src !== a) a.set(src);
  return count;
}

/**
 * Kendall's tau-b in O(n log n) (Knight 1966), scipy's formula: (tot − xtie − ytie + ntie − 2·dis) / √(tot − xtie) /
 * √(tot − ytie), with the pairs tied in x, in y and in both, and the discordant pairs counted exactly.
 */
export function kendallTau(estimator: ArrayLike<number>, target: ArrayLike<number>): number {
  const y = normalizeTarget(target).map((t) => -t);
  const n = estimator.length;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => estimator[a]! - estimator[b]! || y[a]! - y[b]!);
  const xs = Float64Array.from(order, (i) => estimator[i]!);
  const ys = Float64Array.from(order, (i) => y[i]!);
  const xtie = tiedPairs(n, (a, b) => xs[a] === xs[b]);
  const ntie = tiedPairs(n, (a, b) => xs[a] === xs[b] && ys[a] === ys[b]);
  const dis = inversions(ys);
  const ytie = tiedPairs(n, (a, b) => ys[a] === ys[b]);
  const tot = (n * (n - 1)) / 2;
  if (xtie === tot || ytie === tot) return NaN;
  const tau = (tot - xtie - ytie + ntie - 2 * dis) / Math.sqrt(tot - xtie) / Math.sqrt(tot - ytie);
  return Math.min(1, Math.max(-1, tau));
}

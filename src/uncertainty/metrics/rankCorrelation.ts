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

/** Kendall's tau-b, scipy's formula: (tot − xtie − ytie + ntie − 2·dis) / √(tot − xtie) / √(tot − ytie). */
export function kendallTau(estimator: ArrayLike<number>, target: ArrayLike<number>): number {
  const y = normalizeTarget(target).map((t) => -t);
  const n = estimator.length;
  let dis = 0, xtie = 0, ytie = 0, ntie = 0;
  for (let i = 0; i < n; i++) {
    const xi = estimator[i]!, yi = y[i]!;
    for (let j = i + 1; j < n; j++) {
      const dx = estimator[j]! - xi, dy = y[j]! - yi;
      if (dx === 0) xtie++;
      if (dy === 0) ytie++;
      if (dx === 0 && dy === 0) ntie++;
      else if ((dx > 0 && dy < 0) || (dx < 0 && dy > 0)) dis++;
    }
  }
  const tot = (n * (n - 1)) / 2;
  if (xtie === tot || ytie === tot) return NaN;
  const tau = (tot - xtie - ytie + ntie - 2 * dis) / Math.sqrt(tot - xtie) / Math.sqrt(tot - ytie);
  return Math.min(1, Math.max(-1, tau));
}

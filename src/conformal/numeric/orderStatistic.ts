// The split-conformal order statistic (Vovk et al. 2005; Lei et al. 2018): the k-th smallest of n
// calibration scores with k = ⌈(n+1)(1−α)⌉, +∞ when k > n. Everything else in the engine is built on it.

import { ceilTimesComplement } from "./exactDecimal.js";
import { checkUnitOpen, invalid } from "../errors.js";
import type { Rng } from "./rng.js";
import { sortAscending } from "./sortAscending.js";

/** k = ⌈(n+1)(1−α)⌉, computed exactly on the decimal α. May exceed n (then the quantile is +∞). */
export function conformalRank(n: number, alpha: number): number {
  checkUnitOpen(alpha, "alpha");
  if (!Number.isInteger(n) || n < 0) throw invalid(`n must be a non-negative integer, got ${n}`, "n");
  return ceilTimesComplement(n + 1, alpha);
}

/** Ascending copy of the scores; NaN is refused (it would sort nowhere). −∞ and +∞ are allowed. */
export function sortScores(scores: ArrayLike<number>, field = "scores"): Float64Array {
  const out = Float64Array.from(scores as ArrayLike<number>);
  for (let i = 0; i < out.length; i++) {
    if (Number.isNaN(out[i]!)) throw invalid(`${field}[${i}] is NaN`, `${field}[${i}]`);
  }
  return sortAscending(out);
}

/** k-th smallest (1-based) of ascending scores; +∞ when k > n. */
export function orderStatistic(sorted: Float64Array, k: number): number {
  return k > sorted.length ? Infinity : k < 1 ? -Infinity : sorted[k - 1]!;
}

/**
 * The split-conformal threshold q̂ of the scores at miscoverage α. Ascending input is used as it is (one
 * O(n) check); any other order is sorted in a copy, so the answer never depends on the input's order.
 */
export function conformalQuantile(scores: ArrayLike<number>, alpha: number): number {
  const k = conformalRank(scores.length, alpha);
  let ascending = true;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i]!;
    if (Number.isNaN(s)) throw invalid(`scores[${i}] is NaN`, `scores[${i}]`);
    if (i > 0 && scores[i - 1]! > s) ascending = false;
  }
  const sorted = ascending && scores instanceof Float64Array ? scores : sortScores(scores);
  return orderStatistic(sorted, k);
}

/** Number of ascending scores < s (binary search). */
export function countBelow(sorted: Float64Array, s: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Scores per block of the coarse index countBelowIndexed keeps beside a long sorted array. */
const BLOCK = 32;
/** Arrays shorter than this are searched directly: they stay in the cache between searches anyway. */
const INDEXED_FROM = 8192;
const coarseIndexes = new WeakMap<Float64Array, Float64Array>();

/**
 * countBelow for a sorted array that is searched many times and never written again (a calibration's scores):
 * the first score of every block of 32, kept in a small array, is searched first, then one block of the long
 * one. Same answer; at 10⁵–10⁶ scores a plain binary search spent most of its time waiting on memory.
 */
export function countBelowIndexed(sorted: Float64Array, s: number): number {
  const n = sorted.length;
  if (n < INDEXED_FROM) return countBelow(sorted, s);
  let coarse = coarseIndexes.get(sorted);
  if (coarse === undefined) {
    coarse = new Float64Array(Math.ceil(n / BLOCK));
    for (let b = 0; b < coarse.length; b++) coarse[b] = sorted[b * BLOCK]!;
    coarseIndexes.set(sorted, coarse);
  }
  // c blocks start below s: the count is past the first score of block c − 1 and at most the first of block c.
  const c = countBelow(coarse, s);
  let lo = c === 0 ? 0 : (c - 1) * BLOCK + 1;
  let hi = Math.min(c * BLOCK, n);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of ascending scores ≤ s (binary search). */
export function countAtMost(sorted: Float64Array, s: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Conformal p-value of a test score against ascending calibration scores (larger = stranger).
 * Without rng: (#{s_i ≥ s} + 1)/(n + 1), so s ≤ q̂ ⇔ p > α exactly.
 * With rng (smoothed, Vovk et al. 2005): (#{s_i > s} + U·(#{s_i = s} + 1))/(n + 1), exactly uniform under exchangeability.
 */
export function conformalPValue(sorted: Float64Array, score: number, rng?: Rng): number {
  const n = sorted.length;
  const below = countBelow(sorted, score);
  if (!rng) return (n - below + 1) / (n + 1);
  const atMost = countAtMost(sorted, score);
  return (n - atMost + rng() * (atMost - below + 1)) / (n + 1);
}

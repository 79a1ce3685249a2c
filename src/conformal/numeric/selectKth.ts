// The k-th smallest of n doubles without sorting them. Large inputs: one filtering pass between two bounds
// picked from a sorted sample (Floyd & Rivest 1975, "Algorithm 489"), which leaves O(√n) candidates; small
// inputs and unlucky samples: Hoare's FIND with median-of-three pivots, whose introselect fallback sorts when
// the partitions stop shrinking, so the worst case stays O(n log n).
// Calibration needs the threshold at once but the sorted scores only for p-values, so strata sort lazily.

import { sortAscending } from "./sortAscending.js";

export const SAMPLE_FROM = 4096;
/** Reused across calls: the pass writes up to n + 1 values. */
let candidates = new Float64Array(0);

/** k-th smallest (1-based, 1 ≤ k ≤ n) of `a` (may reorder `a`). Same value as sortAscending(a)[k − 1], −0 included. */
export function selectKth(a: Float64Array, k: number): number {
  return a.length >= SAMPLE_FROM ? sampledSelect(a, k) : signedZero(a, k, hoareSelect(a, k));
}

/** `v` (the k-th of `a` by <) as sorted order has it: ±0 compare equal, and every −0 sorts first. */
function signedZero(a: Float64Array, k: number, v: number): number {
  if (v !== 0) return v;
  let below = 0;
  for (let x = 0; x < a.length; x++) if (a[x]! < 0 || Object.is(a[x], -0)) below++;
  return below >= k ? -0 : 0;
}

/** Size of the sample that bands the k-th of n values; n ≥ SAMPLE_FROM. */
export function bandSampleSize(n: number): number {
  return Math.min(n >>> 2, Math.max(1024, Math.ceil(12 * Math.sqrt(n))));
}

/**
 * The band [lo, hi] in which the k-th smallest of n values lies all but astronomically rarely (for any input
 * order), from an ascending sample of them: five binomial standard deviations either side of k's position.
 */
export function bandOfSample(sortedSample: Float64Array, n: number, k: number): { lo: number; hi: number } {
  const m = sortedSample.length;
  const at = (k / n) * m;
  const spread = 5 * Math.sqrt((at * (m - at)) / m) + 4;
  const loAt = Math.floor(at - spread);
  const hiAt = Math.ceil(at + spread);
  return { lo: loAt < 0 ? -Infinity : sortedSample[loAt]!, hi: hiAt >= m ? Infinity : sortedSample[hiAt]! };
}

/**
 * Room for the values a one-pass filter keeps (reused across calls; at least n + 1 entries): the pass writes
 * every value at the next free slot, which advances only for one in the band.
 */
export function bandScratch(n: number): Float64Array {
  if (candidates.length <= n) candidates = new Float64Array(n + 1);
  return candidates;
}

/**
 * The k-th smallest of `all` (as selectKth) after a filtering pass over it: `below` values fell under the band
 * and `kept` lie in it, copied to band[0, kept). Selects among those when the k-th is one of them, else in
 * `all` (which may then be reordered).
 */
export function selectInBand(all: Float64Array, band: Float64Array, kept: number, below: number, k: number): number {
  const v = k <= below || k > below + kept ? hoareSelect(all, k) : hoareSelect(band.subarray(0, kept), k - below);
  return signedZero(all, k, v);
}

/** One pass filtering `a` to the band of a strided sample, then selection among the few kept. */
function sampledSelect(a: Float64Array, k: number): number {
  const n = a.length;
  const m = bandSampleSize(n);
  const sample = new Float64Array(m);
  const stride = n / m;
  for (let t = 0; t < m; t++) sample[t] = a[Math.floor(t * stride)]!;
  const { lo, hi } = bandOfSample(sortAscending(sample), n, k);
  const c = bandScratch(n);
  let below = 0;
  let kept = 0;
  for (let x = 0; x < n; x++) {
    const v = a[x]!;
    const under = +(v < lo);
    below += under;
    c[kept] = v;
    kept += +(v <= hi) - under;
  }
  return selectInBand(a, c, kept, below, k);
}

/** Quickselect in place; sorts the range when it stops shrinking (introselect). */
function hoareSelect(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  const target = k - 1;
  let budget = 2 * Math.ceil(Math.log2(a.length + 1)) + 8;
  while (hi > lo) {
    if (--budget < 0) {
      sortAscending(a.subarray(lo, hi + 1));
      break;
    }
    const mid = (lo + hi) >>> 1;
    // Median of three to a[mid], then partition around it (Hoare).
    if (a[mid]! < a[lo]!) swap(a, mid, lo);
    if (a[hi]! < a[lo]!) swap(a, hi, lo);
    if (a[hi]! < a[mid]!) swap(a, hi, mid);
    const pivot = a[mid]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else break; // j < target < i: a[target] equals the pivot
  }
  return a[target]!;
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

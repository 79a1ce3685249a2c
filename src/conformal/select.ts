// The k-th smallest of n doubles without sorting them (Hoare's FIND with median-of-three pivots; an
// introselect fallback sorts when the partitions stop shrinking, so the worst case stays O(n log n)).
// Calibration needs the threshold at once but the sorted scores only for p-values, so strata sort lazily.

import { sortAscending } from "./sortFloat.js";

/** k-th smallest (1-based, 1 ≤ k ≤ n) of `a`, reordering `a` in place. Same value as sortAscending(a)[k − 1], −0 included. */
export function selectKth(a: Float64Array, k: number): number {
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
  const v = a[target]!;
  if (v !== 0) return v;
  // ±0 compare equal: sorted order puts every −0 first, so say which one the k-th is.
  let below = 0;
  for (let x = 0; x < a.length; x++) if (a[x]! < 0 || Object.is(a[x], -0)) below++;
  return below >= k ? -0 : 0;
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

// Numeric CQR calibration scores max(lo − y, y − hi) (Romano, Patterson & Candès 2019) and their k-th
// smallest in one pass over the three columns: a strided sample of scores sets the band the k-th lies in
// (Floyd & Rivest 1975, as numeric/selectKth.ts), and the pass that writes each score also copies those in the band, so
// the scores are never read again before a selection among the few kept.

import { bandOfSample, bandSampleSize, bandScratch, SAMPLE_FROM, selectInBand } from "../numeric/selectKth.js";
import { sortAscending } from "../numeric/sortAscending.js";
import type { ConformalError } from "../errors.js";

type Column = ArrayLike<number>;

/**
 * Math.max(a, b) for finite a and b, without its branch (which of the two is larger is a coin flip on real
 * data, and the mispredicted branch cost more than the rest of calibration). a·1 and b·1 are exact and a·0,
 * b·0 are zeros that change neither the other term nor, by IEEE 754's signed-zero sums, the sign of a zero
 * maximum: the result is Math.max's, bit for bit, −0 included.
 */
export function maxOfFinite(a: number, b: number): number {
  const m = +(b > a);
  return a * (1 - m) + b * m;
}

/**
 * Every row's score, and the k-th smallest of them (undefined when there was nothing to select: k > n, or
 * too few rows for a sample, or a non-finite value in the sample — the caller selects then). `bad` makes the
 * error for row i, the first row whose lower, upper or y is not finite. `into` (length n): the column the scores
 * are written to instead of a new one.
 */
export function cqrScoresAndKth(lower: Column, upper: Column, y: Column, k: number, bad: (lo: number, hi: number, i: number) => ConformalError, into?: Float64Array): { scores: Float64Array; kth: number | undefined } {
  const n = y.length;
  const scores = into ?? new Float64Array(n);
  const band = k >= 1 && k <= n && n >= SAMPLE_FROM ? sampleBand(lower, upper, y, k) : undefined;
  if (!band) {
    for (let i = 0; i < n; i++) {
      const lo = lower[i]!;
      const hi = upper[i]!;
      const v = y[i]!;
      if (!(Number.isFinite(lo) && Number.isFinite(hi) && Number.isFinite(v))) throw bad(lo, hi, i);
      scores[i] = maxOfFinite(lo - v, v - hi);
    }
    return { scores, kth: undefined };
  }
  const { lo: bandLo, hi: bandHi } = band;
  const kept = bandScratch(n);
  let below = 0;
  let at = 0;
  for (let i = 0; i < n; i++) {
    const lo = lower[i]!;
    const hi = upper[i]!;
    const v = y[i]!;
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && Number.isFinite(v))) throw bad(lo, hi, i);
    const s = maxOfFinite(lo - v, v - hi);
    scores[i] = s;
    // Branchless: s is written at the next free slot, which advances only for a score in the band.
    const under = +(s < bandLo);
    below += under;
    kept[at] = s;
    at += +(s <= bandHi) - under;
  }
  return { scores, kth: selectInBand(scores, kept, at, below, k) };
}

function sampleBand(lower: Column, upper: Column, y: Column, k: number): { lo: number; hi: number } | undefined {
  const n = y.length;
  const m = bandSampleSize(n);
  const sample = new Float64Array(m);
  const stride = n / m;
  for (let t = 0; t < m; t++) {
    const i = Math.floor(t * stride);
    const lo = lower[i]!;
    const hi = upper[i]!;
    const v = y[i]!;
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && Number.isFinite(v))) return undefined; // the full pass names the first bad row
    sample[t] = maxOfFinite(lo - v, v - hi);
  }
  return bandOfSample(sortAscending(sample), n, k);
}

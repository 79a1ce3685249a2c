// The non-conformal sets a statistician compares conformal sets with (Angelopoulos et al. 2021, RAPS
// paper, §4: "naive" sets): the top-1 answer, the smallest top-k that covers 1 − α of the calibration
// examples, and the options taken by decreasing probability until their mass reaches 1 − α. None of
// them carries a finite-sample guarantee; the report shows what they cover.

import { ceilTimesComplement } from "../numeric/exactDecimal.js";
import { checkUnitOpen, invalid } from "../errors.js";

/** 1-based rank of option `label` by decreasing probability (ties broken by option order). */
export function labelRank(p: ArrayLike<number>, label: number): number {
  if (!Number.isInteger(label) || label < 0 || label >= p.length) throw invalid(`label ${label} is outside 0..${p.length - 1}`, "label");
  const py = p[label]!;
  let rank = 1;
  for (let j = 0; j < p.length; j++) if (p[j]! > py || (p[j] === py && j < label)) rank++;
  return rank;
}

/** Smallest k with #{rank ≤ k} ≥ ⌈n(1 − α)⌉ (computed exactly on the decimal α); 0 when there are no ranks. */
export function smallestTopK(ranks: ArrayLike<number>, alpha: number): number {
  checkUnitOpen(alpha, "alpha");
  const n = ranks.length;
  if (n === 0) return 0;
  const need = ceilTimesComplement(n, alpha);
  const sorted = Float64Array.from(ranks as ArrayLike<number>).sort();
  return sorted[Math.max(0, need - 1)]!;
}

/** Indices of the k most probable options (ties by option order), ascending. */
export function topKSet(p: ArrayLike<number>, k: number): number[] {
  const order = Array.from({ length: p.length }, (_, i) => i).sort((a, b) => p[b]! - p[a]! || a - b);
  return order.slice(0, Math.max(0, Math.min(k, p.length))).sort((a, b) => a - b);
}

/** Options by decreasing probability until their mass reaches `level` (a relative 1e-12 slack for rounding), ascending. */
export function cumulativeMassSet(p: ArrayLike<number>, level: number): number[] {
  const order = Array.from({ length: p.length }, (_, i) => i).sort((a, b) => p[b]! - p[a]! || a - b);
  const out: number[] = [];
  let mass = 0;
  for (const j of order) {
    out.push(j);
    mass += p[j]!;
    if (mass >= level * (1 - 1e-12)) break;
  }
  return out.sort((a, b) => a - b);
}

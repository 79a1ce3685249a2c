// The set methods' inner loops over packed rows (rows/packedRows.ts): true-label scores for calibration, and
// per-option scores, membership and p-values for prediction. Both APIs (per row and batch) run these, so
// they agree bit for bit. Arithmetic is that of scores/*.ts: APS mass is summed in descending order of
// probability, so a test row equal to a calibration row gets exactly the calibration score.

import type { SetMethod } from "../registry.js";
import { checkPackedRow, type PackedRows } from "../rows/packedRows.js";
import { countBelow } from "../numeric/orderStatistic.js";
import type { Stratum } from "../strata/mondrianStrata.js";
import { sortedPartsOf } from "../strata/extendStrata.js";

let above = new Float64Array(16);

/**
 * Score of the true label of row i: LAC 1 − p_y; APS mass ranked strictly above y (descending, lower
 * index first on ties) + u·p_y; RAPS adds λ·max(0, rank − k_reg). O(K + r log r), r = rank of y.
 */
export function trueLabelScore(method: SetMethod, rows: PackedRows, i: number, y: number, u: number, lambda: number, kReg: number): number {
  const d = rows.data;
  const o = rows.starts ? rows.starts[i]! : i * rows.width;
  const py = d[o + y]!;
  if (method === "LAC") return 1 - py;
  const w = rows.starts ? rows.starts[i + 1]! - o : rows.width;
  if (above.length < w) above = new Float64Array(w);
  let r = 0;
  for (let j = 0; j < w; j++) {
    const p = d[o + j]!;
    if (p > py || (p === py && j < y)) {
      // Insertion into descending order: equal values are interchangeable in the sum.
      let t = r++;
      while (t > 0 && above[t - 1]! < p) {
        above[t] = above[t - 1]!;
        t--;
      }
      above[t] = p;
    }
  }
  let mass = 0;
  for (let t = 0; t < r; t++) mass += above[t]!;
  const score = mass + u * py;
  return method === "RAPS" ? score + lambda * Math.max(0, r + 1 - kReg) : score;
}

/** 1-based rank of the true label (descending probability, lower index first on ties). */
export function trueLabelRank(rows: PackedRows, i: number, y: number): number {
  const d = rows.data;
  const o = rows.starts ? rows.starts[i]! : i * rows.width;
  const w = rows.starts ? rows.starts[i + 1]! - o : rows.width;
  const py = d[o + y]!;
  let r = 1;
  for (let j = 0; j < w; j++) {
    const p = d[o + j]!;
    if (p > py || (p === py && j < y)) r++;
  }
  return r;
}

let order = new Int32Array(16);

/** Fills out[o..o+w) with every option's score of row i for one u (out is indexed like the row). */
export function optionScores(method: SetMethod, d: Float64Array, o: number, w: number, u: number, lambda: number, kReg: number, out: Float64Array, outOffset: number): void {
  if (method === "LAC") {
    for (let j = 0; j < w; j++) out[outOffset + j] = 1 - d[o + j]!;
    return;
  }
  if (order.length < w) order = new Int32Array(w);
  descending(d, o, w, order);
  const pen = method === "RAPS" ? lambda : 0;
  let mass = 0;
  for (let r = 0; r < w; r++) {
    const j = order[r]!;
    const p = d[o + j]!;
    out[outOffset + j] = mass + u * p + (pen > 0 ? pen * Math.max(0, r + 1 - kReg) : 0);
    mass += p;
  }
}

/**
 * Option indices by descending probability, the lower index first on ties. Short rows are ranked by counting
 * without branches (a mispredicted branch costs more than the K² compares); long rows by insertion sort.
 */
function descending(d: Float64Array, o: number, w: number, out: Int32Array): void {
  if (w <= 16) {
    for (let j = 0; j < w; j++) {
      const p = d[o + j]!;
      let r = 0;
      for (let x = 0; x < j; x++) r += +(d[o + x]! >= p);
      for (let x = j + 1; x < w; x++) r += +(d[o + x]! > p);
      out[r] = j;
    }
    return;
  }
  for (let j = 0; j < w; j++) {
    const p = d[o + j]!;
    let t = j;
    while (t > 0 && d[o + out[t - 1]!]! < p) {
      out[t] = out[t - 1]!;
      t--;
    }
    out[t] = j;
  }
}

/** What one prediction pass writes; the optional arrays are N × K like the membership. */
export interface SetOutputs {
  readonly membership: Uint8Array;
  readonly sizes: Int32Array;
  readonly n: Int32Array;
  readonly scores: Float64Array | undefined;
  readonly pValues: Float64Array | undefined;
  readonly thresholds: Float64Array | undefined;
}

/** Calibrated strata resolved for a pass: per slot its threshold, n and ascending scores. */
export interface ResolvedStrata {
  readonly q: Float64Array;
  readonly n: Int32Array;
  /** The strata themselves: their sorted scores are read only for p-values (sorting is lazy). */
  readonly strata: readonly Stratum[];
  /** Slot of row i (option j when per class): (slotOfRow[i] or 0) + (perClass ? j : 0). */
  readonly slotOfRow: Int32Array | undefined;
  readonly perClass: boolean;
}

/** LAC membership of fixed-width rows (1 ⇔ 1 − p ≤ q̂ of the row's stratum), checking each value as it is read. */
export function predictLacRows(rows: PackedRows, qs: Float64Array, ns: Int32Array, slotOfRow: Int32Array | undefined, membership: Uint8Array, sizes: Int32Array, n: Int32Array, thresholds: Float64Array | undefined): void {
  const d = rows.data;
  const w = rows.width;
  for (let i = 0, o = 0; i < rows.count; i++, o += w) {
    const slot = slotOfRow ? slotOfRow[i]! : 0;
    const q = qs[slot]!;
    let size = 0;
    for (let j = o; j < o + w; j++) {
      const p = d[j]!;
      if (!(p >= 0 && p < Infinity)) checkPackedRow(rows, i, "probabilities");
      const hit = +(1 - p <= q); // branchless: the comparison is unpredictable
      membership[j] = hit;
      size += hit;
    }
    sizes[i] = size;
    n[i] = ns[slot]!;
    if (thresholds) thresholds.fill(q, o, o + w);
  }
}

let rowScores = new Float64Array(16);

/**
 * Sets for rows [0, count) of fixed width K (or one ragged row via `rows.starts`): writes membership
 * (1 ⇔ s_j ≤ q̂ of its stratum), sizes, n and the asked-for extras. `uniforms[i]` is row i's u.
 */
export function predictRows(method: SetMethod, rows: PackedRows, uniforms: Float64Array | undefined, lambda: number, kReg: number, strata: ResolvedStrata, out: SetOutputs): void {
  const { data: d, count } = rows;
  const { q: qs, n: ns, slotOfRow, perClass } = strata;
  // An extended stratum's scores are counted in its base and delta apart: merging them for p-values would copy
  // all n scores at every new version (tens of ms at a million), and the base's guide table lasts until a fold.
  const sorted = out.pValues ? strata.strata.map(sortedPartsOf) : [];
  for (let i = 0; i < count; i++) {
    const o = rows.starts ? rows.starts[i]! : i * rows.width;
    const w = rows.starts ? rows.starts[i + 1]! - o : rows.width;
    const m = i * rows.width;
    const base = slotOfRow ? slotOfRow[i]! : 0;
    let size = 0;
    if (rowScores.length < w) rowScores = new Float64Array(w);
    optionScores(method, d, o, w, uniforms ? uniforms[i]! : 1, lambda, kReg, rowScores, 0);
    let nMin = 2147483647;
    for (let j = 0; j < w; j++) {
      const slot = perClass ? base + j : base;
      const s = rowScores[j]!;
      const q = qs[slot]!;
      const hit = +(s <= q);
      out.membership[m + j] = hit;
      size += hit;
      if (ns[slot]! < nMin) nMin = ns[slot]!;
      if (out.scores) out.scores[m + j] = s;
      if (out.thresholds) out.thresholds[m + j] = q;
      if (out.pValues) {
        const n = ns[slot]!;
        const { base: sortedBase, delta } = sorted[slot]!;
        const below = guidedCountBelow(sortedBase, s) + (delta.length ? countBelow(delta, s) : 0);
        out.pValues[m + j] = (n - below + 1) / (n + 1);
      }
    }
    out.sizes[i] = size;
    out.n[i] = w ? nMin : 0;
  }
}

// p-values search the n sorted calibration scores once per option; at n = 100,000 a plain binary search is 17
// dependent cache misses. A guide table of equal-width buckets over [min, max] narrows it to one bucket; the
// bounds it gives are checked against the scores, so the count is exact whatever the rounding.
const guides = new WeakMap<Float64Array, { lo: number; scale: number; at: Int32Array }>();
const GUIDE_FROM = 256;

function guideOf(sorted: Float64Array): { lo: number; scale: number; at: Int32Array } | undefined {
  let g = guides.get(sorted);
  if (g) return g;
  const n = sorted.length;
  const lo = sorted[0]!;
  const hi = sorted[n - 1]!;
  if (n < GUIDE_FROM || !(Number.isFinite(lo) && Number.isFinite(hi) && hi > lo)) return undefined;
  let buckets = 1;
  while (buckets < n / 2 && buckets < 65536) buckets *= 2;
  const scale = buckets / (hi - lo);
  const at = new Int32Array(buckets + 1);
  for (let b = 0; b < buckets; b++) at[b] = countBelow(sorted, lo + b / scale);
  at[buckets] = n;
  guides.set(sorted, (g = { lo, scale, at }));
  return g;
}

/** #{scores < s} over ascending scores: countBelow, narrowed by the guide when there is one. */
export function guidedCountBelow(sorted: Float64Array, s: number): number {
  const n = sorted.length;
  const g = n >= GUIDE_FROM ? guideOf(sorted) : undefined;
  if (!g) return countBelow(sorted, s);
  if (!(s > g.lo)) return s <= g.lo ? 0 : countBelow(sorted, s);
  const last = g.at.length - 2;
  let b = Math.floor((s - g.lo) * g.scale);
  if (!(b >= 0)) b = 0;
  if (b > last) b = last;
  let lo = g.at[b]!;
  let hi = g.at[b + 1]!;
  if (lo > 0 && !(sorted[lo - 1]! < s)) lo = 0;
  if (hi < n && !(sorted[hi]! >= s)) hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

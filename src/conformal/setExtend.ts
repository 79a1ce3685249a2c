// Extending a split-conformal set calibration (Vovk et al. 2005) with more labelled examples, as a profile
// grows by batches: the batch's scores are sorted per stratum and kept beside the calibrated ascending scores
// as a small sorted delta, the threshold read as the k-th of the two arrays (O(log n)); the delta is folded into
// the base once it outgrows a sixteenth of it, so a batch costs O(b log b + d) and the copy of n scores is
// paid once per n/16 examples. With each example's u fixed (randomized methods take `uniforms`, one per batch
// row), the result equals calibrateSet on all the examples, field by field (the merged scores are built when
// first read, for p-values).

import { ConformalError, invalid } from "./errors.js";
import { checkPackedRow, type PackedRows } from "./rowsPacked.js";
import { trueLabelScore } from "./setKernels.js";
import { conformalRank } from "./quantile.js";
import { stratumKey, type Stratum } from "./strata.js";
import { sortAscending } from "./sortFloat.js";
import { assertKind, type CalibratedSet } from "./setTypes.js";

export interface SetExtension {
  /** Row-major b × K probabilities of the new examples. */
  readonly probabilities: Float64Array;
  readonly width: number;
  /** Index of the true option per row. */
  readonly labels: ArrayLike<number>;
  /** Mondrian group per row; required exactly when the calibration had groups. */
  readonly groups?: ArrayLike<string>;
  /** Row i's u in [0, 1) (randomized calibrations only): what calibrateSet's rng would have drawn for it. */
  readonly uniforms?: ArrayLike<number>;
}

/**
 * The calibration of `cal`'s examples followed by the batch's, without touching `cal` (it stays valid for
 * whoever holds it). RAPS is extended with the calibration's λ and k_reg, i.e. as calibrateSet given them.
 */
export function extendSet(cal: CalibratedSet, batch: SetExtension): CalibratedSet {
  assertKind(cal, "set", "extendSet");
  const { probabilities: d, width: K, labels } = batch;
  if (!(d instanceof Float64Array)) throw invalid("probabilities must be a Float64Array (row-major b × K)", "probabilities");
  if (!Number.isInteger(K) || K < 1 || d.length % K !== 0) throw invalid(`probabilities has ${d.length} entries, not a multiple of width ${K}`, "width");
  const count = d.length / K;
  if (labels.length !== count) throw invalid(`labels has ${labels.length} entries for ${count} probability rows`, "labels");
  if (cal.grouped !== (batch.groups !== undefined)) {
    throw new ConformalError("GROUP_REQUIRED", `extendSet: the calibration was ${cal.grouped ? "" : "not "}made per group, so the batch ${cal.grouped ? "needs" : "must not have"} groups`, { field: "groups" });
  }
  if (batch.groups && batch.groups.length !== count) throw invalid(`groups has ${batch.groups.length} entries for ${count} rows`, "groups");
  const u = batch.uniforms;
  if (cal.randomized && (!u || u.length !== count)) throw new ConformalError("RNG_REQUIRED", `extendSet: ${cal.method} is randomized, pass one uniform per row`, { field: "uniforms" });
  if (count === 0) return cal;
  const rows: PackedRows = { data: d, count, width: K, starts: undefined };
  const buckets = new Map<string, number[]>();
  for (let i = 0; i < count; i++) {
    checkPackedRow(rows, i, "probabilities");
    const y = labels[i]!;
    if (!Number.isInteger(y) || y < 0 || y >= K) throw invalid(`labels[${i}] must be an option index in 0..${K - 1}, got ${y}`, `labels[${i}]`);
    const group = batch.groups ? batch.groups[i] : undefined;
    if (batch.groups && typeof group !== "string") throw invalid(`groups[${i}] must be a string`, `groups[${i}]`);
    const key = cal.classConditional ? stratumKey(group, y) : stratumKey(group, undefined);
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = []));
    bucket.push(trueLabelScore(cal.method, rows, i, y, cal.randomized ? u![i]! : 1, cal.lambda, cal.kReg));
  }
  const strata = new Map<string, Stratum>(cal.strata);
  for (const [key, added] of buckets) {
    const fresh = sortAscending(Float64Array.from(added));
    const old = cal.strata.get(key);
    const kept = old ? parts.get(old) : undefined;
    let base = kept ? kept.base : old ? old.scores : fresh;
    let delta = kept ? mergeAscending(kept.delta, fresh) : old ? fresh : EMPTY;
    if (delta.length > Math.max(FOLD_AT_LEAST, base.length / 16)) {
      base = mergeAscending(base, delta);
      delta = EMPTY;
    }
    strata.set(key, unionStratum(base, delta, cal.alpha));
  }
  const ordered = new Map([...strata].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  return Object.freeze({ ...cal, n: cal.n + count, strata: ordered });
}

const EMPTY = new Float64Array(0);
const FOLD_AT_LEAST = 1024;
/** The two sorted parts of an extended stratum, for the next extension. */
const parts = new WeakMap<Stratum, { base: Float64Array; delta: Float64Array }>();

/** A stratum over the union of two ascending arrays; its `scores` merge them when first read. */
function unionStratum(base: Float64Array, delta: Float64Array, alpha: number): Stratum {
  const n = base.length + delta.length;
  const k = conformalRank(n, alpha);
  const threshold = k > n ? Infinity : k < 1 ? -Infinity : kthOfTwo(base, delta, k);
  let merged: Float64Array | undefined;
  const st = { n, k, threshold } as { n: number; k: number; threshold: number; scores: Float64Array };
  Object.defineProperty(st, "scores", { enumerable: true, get: () => (merged ??= delta.length === 0 ? base : mergeAscending(base, delta)) });
  Object.freeze(st);
  parts.set(st, { base, delta });
  return st;
}

/** The k-th smallest (1-based, 1 ≤ k ≤ |a| + |b|) of the union of two ascending arrays. O(log). */
export function kthOfTwo(a: Float64Array, b: Float64Array, k: number): number {
  // i values from a and k − i from b: the largest i with a[i−1] ≤ b[k−i] (b past its end counts as +∞).
  let lo = Math.max(0, k - b.length);
  let hi = Math.min(k, a.length);
  while (lo < hi) {
    const i = (lo + hi + 1) >>> 1;
    if (k - i >= b.length || a[i - 1]! <= b[k - i]!) lo = i;
    else hi = i - 1;
  }
  const i = lo;
  const fromA = i > 0 ? a[i - 1]! : -Infinity;
  const fromB = k - i > 0 ? b[k - i - 1]! : -Infinity;
  return fromA > fromB ? fromA : fromB;
}

/** The ascending union of two ascending arrays, in a new array. */
export function mergeAscending(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let o = 0;
  // Runs of `a` below the next `b` are copied whole: a small batch merges into a large array at copy speed.
  while (j < b.length) {
    const next = b[j]!;
    let end = i;
    if (a[i]! <= next) {
      let lo = i;
      let hi = a.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (a[mid]! <= next) lo = mid + 1;
        else hi = mid;
      }
      end = lo;
    }
    if (end > i) {
      out.set(a.subarray(i, end), o);
      o += end - i;
      i = end;
    }
    out[o++] = next;
    j++;
  }
  if (i < a.length) out.set(a.subarray(i), o);
  return out;
}

// Extending calibrated strata with more scores (split conformal, Vovk et al. 2005): each stratum keeps its
// ascending scores as a base and a small sorted delta, the threshold read as the k-th of the two (O(log n)).
// The delta is folded into the base once it outgrows a sixteenth of it, so a batch of b scores costs
// O(b log b + d) and the n scores are copied once per n/16 added. The result equals a stratum built from all
// the scores at once, field by field (the merged scores are built when first read, for p-values).

import { ConformalError, invalid } from "../errors.js";
import { conformalRank } from "../numeric/orderStatistic.js";
import { sortAscending } from "../numeric/sortAscending.js";
import { sortLazyScoresSteps, stratumKey, type Stratum } from "./mondrianStrata.js";

const EMPTY = new Float64Array(0);
const FOLD_AT_LEAST = 1024;
/** The two sorted parts of an extended stratum, for the next extension and for counting. */
const parts = new WeakMap<Stratum, SortedUnion>();
/** An extended stratum's parts and their merge, once made. */
interface Union extends SortedUnion {
  merged: Float64Array | undefined;
}

/**
 * A stratum's ascending scores as the parts it keeps (an extended one: its base and delta, never merged for
 * this), so that counting scores below a value costs two binary searches, not a copy of the n scores.
 */
export function sortedPartsOf(st: Stratum): SortedUnion {
  return parts.get(st) ?? { base: st.scores, delta: EMPTY };
}

/** A batch's groups match the calibration's: present exactly when it was made per group, one per row. */
export function checkBatchGroups(grouped: boolean, groups: ArrayLike<string> | undefined, count: number, what: string): void {
  if (grouped !== (groups !== undefined)) {
    throw new ConformalError("GROUP_REQUIRED", `${what}: the calibration was ${grouped ? "" : "not "}made per group, so the batch ${grouped ? "needs" : "must not have"} groups`, { field: "groups" });
  }
  if (groups && groups.length !== count) throw invalid(`groups has ${groups.length} entries for ${count} rows`, "groups");
}

/** Row i's score into the bucket of its stratum (its group, and its label when calibrated per class). */
export function pushScore(buckets: Map<string, number[]>, groups: ArrayLike<string> | undefined, i: number, score: number, label?: number): void {
  const group = groups ? groups[i] : undefined;
  if (groups && typeof group !== "string") throw invalid(`groups[${i}] must be a string`, `groups[${i}]`);
  const key = stratumKey(group, label);
  let bucket = buckets.get(key);
  if (!bucket) buckets.set(key, (bucket = []));
  bucket.push(score);
}

/**
 * `strata` with each bucket's scores (any order) added to its stratum, new strata created; in key order.
 * Neither `strata` nor its strata are changed (whoever holds them keeps a valid calibration).
 */
export function extendStrata(strata: ReadonlyMap<string, Stratum>, buckets: ReadonlyMap<string, ArrayLike<number>>, alpha: number): Map<string, Stratum> {
  const out = new Map<string, Stratum>(strata);
  for (const [key, added] of buckets) out.set(key, extendStratum(strata.get(key), added, alpha));
  return new Map([...out].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

/** One stratum (or none yet) with `added` scores, any order. */
export function extendStratum(old: Stratum | undefined, added: ArrayLike<number>, alpha: number): Stratum {
  if (added.length === 0 && old) return old;
  const { base, delta } = addSorted(old ? (parts.get(old) ?? { base: old.scores, delta: EMPTY }) : undefined, added);
  return unionStratum(base, delta, alpha);
}

/** Ascending scores kept as a base and a small sorted delta (their union is the whole, in sorted order). */
export interface SortedUnion {
  readonly base: Float64Array;
  readonly delta: Float64Array;
}

export const EMPTY_UNION: SortedUnion = Object.freeze({ base: EMPTY, delta: EMPTY });

/** `old` (not changed) with `added` (any order); the delta folded into the base once it outgrows a sixteenth. */
export function addSorted(old: SortedUnion | undefined, added: ArrayLike<number>): SortedUnion {
  const fresh = sortAscending(Float64Array.from(added));
  if (!old || old.base.length + old.delta.length === 0) return { base: fresh, delta: EMPTY };
  let base = old.base;
  let delta = old.delta.length ? mergeAscending(old.delta, fresh) : fresh;
  if (delta.length > Math.max(FOLD_AT_LEAST, base.length / 16)) {
    base = mergeAscending(base, delta);
    delta = EMPTY;
  }
  return { base, delta };
}

/** A stratum over the union of two ascending arrays; its `scores` merge them when first read. */
function unionStratum(base: Float64Array, delta: Float64Array, alpha: number): Stratum {
  const n = base.length + delta.length;
  const k = conformalRank(n, alpha);
  const threshold = k > n ? Infinity : k < 1 ? -Infinity : kthOfTwo(base, delta, k);
  const union = { base, delta, merged: delta.length === 0 ? base : undefined } as Union;
  const st = { n, k, threshold } as { n: number; k: number; threshold: number; scores: Float64Array };
  Object.defineProperty(st, "scores", { enumerable: true, get: () => (union.merged ??= mergeAscending(base, delta)) });
  Object.freeze(st);
  parts.set(st, union);
  return st;
}

/** Output positions merged per step of mergedScoresSteps (about a millisecond). */
const MERGE_STEP = 1 << 16;

/**
 * Merges an extended stratum's base and delta in steps (a million scores take 15–50 ms in one go), for a caller
 * about to read its scores that can spread the work over turns of its event loop (a checkpoint); the stratum's
 * `scores` are then that merge. Same array as mergeAscending. Nothing to do for other strata.
 */
export function* mergedScoresSteps(st: Stratum): Generator<void, void> {
  const union = parts.get(st) as Union | undefined;
  if (!union || union.merged) return;
  const { base: a, delta: b } = union;
  const out = new Float64Array(a.length + b.length);
  const at = { i: 0, j: 0, o: 0 };
  while (at.i < a.length && at.j < b.length) {
    mergeUpTo(a, b, out, at, Math.min(out.length, at.o + MERGE_STEP));
    yield;
    if (union.merged) return; // a reader merged them meanwhile
  }
  copyRest(a, b, out, at);
  union.merged ??= out;
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

/** The ascending union of two ascending arrays, in a new array (of `a` and `b`, a's first among equals). */
export function mergeAscending(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length);
  // A delta folded into the base (a sixteenth of it or more) interleaves finely: a plain two-pointer merge is
  // 2–3× faster there than searching the runs (about 12 ms against 30 at a million scores).
  if (b.length * 64 > a.length) return mergeTwoPointer(a, b, out);
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

function mergeTwoPointer(a: Float64Array, b: Float64Array, out: Float64Array): Float64Array {
  const at = { i: 0, j: 0, o: 0 };
  mergeUpTo(a, b, out, at, out.length);
  copyRest(a, b, out, at);
  return out;
}

/** Two-pointer merge of a[at.i…] and b[at.j…] into out[at.o…] until `stop` values are out or one side ends. */
function mergeUpTo(a: Float64Array, b: Float64Array, out: Float64Array, at: { i: number; j: number; o: number }, stop: number): void {
  let { i, j, o } = at; // locals: the loop is the hot part of a fold
  while (o < stop && i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    const fromA = x <= y;
    out[o++] = fromA ? x : y;
    i += fromA ? 1 : 0;
    j += fromA ? 0 : 1;
  }
  at.i = i;
  at.j = j;
  at.o = o;
}

/** Once one side has ended: the rest of the other copied after what is out. */
function copyRest(a: Float64Array, b: Float64Array, out: Float64Array, at: { i: number; j: number; o: number }): void {
  if (at.i < a.length) out.set(a.subarray(at.i), at.o);
  else if (at.j < b.length) out.set(b.subarray(at.j), at.o);
}

/**
 * Readies, in steps, the scores of every stratum inside a calibration (in Maps, arrays and data properties,
 * never through getters) that would otherwise be merged or sorted whole when first read: for a caller that
 * is about to read them all (a checkpoint) and can spread that work over turns of its event loop.
 */
export function* settleScoresSteps(value: unknown, depth = 0): Generator<void, void> {
  if (depth > 8 || value === null || typeof value !== "object" || ArrayBuffer.isView(value)) return;
  if (parts.has(value as Stratum)) return yield* mergedScoresSteps(value as Stratum);
  yield* sortLazyScoresSteps(value as Stratum);
  const children = value instanceof Map ? [...value.values()] : Array.isArray(value) ? value : Object.values(Object.getOwnPropertyDescriptors(value)).map((d) => d.value as unknown);
  for (const child of children) yield* settleScoresSteps(child, depth + 1);
}

// Conformalized quantile regression (Romano, Patterson & Candès 2019) for numeric predictions: the signed
// score max(lo − y, y − hi), and the test interval [lo − q̂, hi + q̂] (q̂ may be negative: narrowing).

import { checkUnitOpen, invalid, type ConformalError, assertKind } from "../errors.js";
import { encodeGroups, type GroupCodes } from "../rows/groupCodes.js";
import { buildStrataBySlot, makeLazyStratum, stratumKey, stratumOrEmpty, type Stratum } from "../strata/mondrianStrata.js";
import { conformalRank } from "../numeric/orderStatistic.js";
import { cqrScoresAndKth } from "./cqrScores.js";
export { maxOfFinite } from "./cqrScores.js";

export interface NumericIntervalExamples {
  readonly lower: ArrayLike<number>;
  readonly upper: ArrayLike<number>;
  readonly y: ArrayLike<number>;
  /** Mondrian group per example; omit for marginal calibration. */
  readonly groups?: ArrayLike<string>;
}

export interface CalibratedNumericInterval {
  readonly kind: "numeric-interval";
  readonly method: "CQR";
  readonly alpha: number;
  readonly n: number;
  readonly grouped: boolean;
  readonly strata: ReadonlyMap<string, Stratum>;
}

export interface NumericIntervalPrediction {
  readonly lower: number;
  readonly upper: number;
  /** The widening q̂ applied (+∞: the whole line). */
  readonly threshold: number;
  readonly n: number;
}

/** CQR score max(lo − y, y − hi). */
export function cqrScore(lower: number, upper: number, y: number): number {
  return Math.max(lower - y, y - upper);
}

export function calibrateNumericInterval(examples: NumericIntervalExamples, options: { alpha: number }): CalibratedNumericInterval {
  const groups = examples.groups ? encodeGroups(examples.groups) : undefined;
  return calibrateNumericIntervalBatch({ lower: examples.lower, upper: examples.upper, y: examples.y, ...(groups ? { groups } : {}) }, options);
}

/** The error for row i of a CQR batch whose lower, upper or y is not finite, naming the first such field. */
export function nonFiniteCqrRow(lo: number, hi: number, i: number): ConformalError {
  const f = !Number.isFinite(lo) ? "lower" : !Number.isFinite(hi) ? "upper" : "y";
  return invalid(`${f}[${i}] must be a finite number`, `${f}[${i}]`);
}

/**
 * Columnar numeric CQR: lower / upper / y columns and optional group codes. O(n); the sorted scores (p-values,
 * persistence) only when read. `options.scores` (a Float64Array of n entries) is the column the scores go
 * into instead of a new one: the calibration keeps it (and sorts it when its scores are read), so it is the
 * caller's to reuse only once that calibration is no longer used — as a stream recalibrating per window does.
 */
export function calibrateNumericIntervalBatch(
  batch: { readonly lower: ArrayLike<number>; readonly upper: ArrayLike<number>; readonly y: ArrayLike<number>; readonly groups?: GroupCodes },
  options: { alpha: number; scores?: Float64Array },
): CalibratedNumericInterval {
  checkUnitOpen(options.alpha, "alpha");
  const n = batch.y.length;
  if (batch.lower.length !== n || batch.upper.length !== n) throw invalid("lower, upper and y must have equal lengths", "lower");
  if (batch.groups && batch.groups.codes.length !== n) throw invalid(`groups has ${batch.groups.codes.length} entries for ${n} examples`, "groups");
  checkColumn(options.scores, n, "scores");
  // Without groups the one stratum's k-th score is selected in the pass that computes the scores.
  const k = batch.groups ? 0 : conformalRank(n, options.alpha);
  const { scores, kth } = cqrScoresAndKth(batch.lower, batch.upper, batch.y, k, nonFiniteCqrRow, options.scores);
  const names = batch.groups?.names;
  const strata = batch.groups
    ? buildStrataBySlot(scores, batch.groups.codes, names!.length, (s) => stratumKey(names![s], undefined), options.alpha)
    : new Map([["", makeLazyStratum(scores, options.alpha, kth)]]);
  return Object.freeze({
    kind: "numeric-interval" as const,
    method: "CQR" as const,
    alpha: options.alpha,
    n,
    grouped: batch.groups !== undefined,
    strata,
  });
}

export function predictNumericInterval(
  cal: CalibratedNumericInterval,
  query: { lower: number; upper: number; group?: string },
): NumericIntervalPrediction {
  assertKind(cal, "numeric-interval", "predictNumericInterval");
  if (cal.grouped !== (query.group !== undefined)) throw invalid(cal.grouped ? "query needs a group" : "calibrated without groups", "group");
  if (!Number.isFinite(query.lower) || !Number.isFinite(query.upper)) throw invalid("lower and upper must be finite numbers", "lower");
  const st = stratumOrEmpty(cal.strata, stratumKey(query.group, undefined), cal.alpha);
  const q = st.threshold;
  return { lower: query.lower - q, upper: query.upper + q, threshold: q, n: st.n };
}

/** An output column given by the caller: a Float64Array of `n` entries, or absent. */
function checkColumn(c: Float64Array | undefined, n: number, field: string): void {
  if (c !== undefined && !(c instanceof Float64Array && c.length === n)) throw invalid(`${field} must be a Float64Array of ${n} entries (one per row)`, field);
}

/**
 * [lower − q̂, upper + q̂] for every row, q̂ of the row's group. `options.into`: the lower and upper columns to
 * write (Float64Arrays of one entry per row; they may be the batch's own, for an in-place update) instead of
 * new ones — new memory costs a page fault per 4 KiB on first touch, more than this loop's work. A row refused
 * (not finite) stops the call with the rows before it already written.
 */
export function predictNumericIntervalBatch(
  cal: CalibratedNumericInterval,
  batch: { readonly lower: Float64Array; readonly upper: Float64Array; readonly groups?: GroupCodes },
  options: { into?: { readonly lower: Float64Array; readonly upper: Float64Array } } = {},
): { lower: Float64Array; upper: Float64Array; threshold: Float64Array; n: Int32Array } {
  assertKind(cal, "numeric-interval", "predictNumericIntervalBatch");
  if (cal.grouped !== (batch.groups !== undefined)) throw invalid(cal.grouped ? "the batch needs groups" : "calibrated without groups", "groups");
  const m = batch.lower.length;
  if (batch.upper.length !== m) throw invalid("lower and upper must have equal lengths", "upper");
  if (batch.groups && batch.groups.codes.length !== m) throw invalid(`groups has ${batch.groups.codes.length} entries for ${m} rows`, "groups");
  const names = batch.groups ? batch.groups.names : [undefined];
  const strata = names.map((g) => stratumOrEmpty(cal.strata, stratumKey(g, undefined), cal.alpha));
  const qs = Float64Array.from(strata, (st) => st.threshold);
  const ns = Int32Array.from(strata, (st) => st.n);
  const codes = batch.groups?.codes;
  checkColumn(options.into?.lower, m, "into.lower");
  checkColumn(options.into?.upper, m, "into.upper");
  const outLower = options.into?.lower ?? new Float64Array(m);
  const outUpper = options.into?.upper ?? new Float64Array(m);
  const out = { lower: outLower, upper: outUpper } as { lower: Float64Array; upper: Float64Array; threshold: Float64Array; n: Int32Array };
  const threshold = codes ? new Float64Array(m) : undefined;
  const n = codes ? new Int32Array(m) : undefined;
  const { lower, upper } = batch;
  if (!codes) {
    // One stratum: the same q̂ for every row, so the loop is two reads and two writes.
    const q = qs[0]!;
    for (let i = 0; i < m; i++) {
      const lo = lower[i]!;
      const hi = upper[i]!;
      if (!(lo - lo === 0 && hi - hi === 0)) throw invalid(`lower[${i}] and upper[${i}] must be finite numbers`, `lower[${i}]`); // ±∞ and NaN give NaN
      outLower[i] = lo - q;
      outUpper[i] = hi + q;
    }
  }
  for (let i = 0; codes && i < m; i++) {
    const lo = lower[i]!;
    const hi = upper[i]!;
    if (!(lo - lo === 0 && hi - hi === 0)) throw invalid(`lower[${i}] and upper[${i}] must be finite numbers`, `lower[${i}]`);
    const c = codes[i]!;
    if (!(c >= 0 && c < qs.length)) throw invalid(`groups.codes[${i}] must be in 0..${qs.length - 1}, got ${c}`, `groups.codes[${i}]`);
    const q = qs[c]!;
    outLower[i] = lo - q;
    outUpper[i] = hi + q;
    threshold![i] = q;
    n![i] = ns[c]!;
  }
  if (threshold && n) {
    out.threshold = threshold;
    out.n = n;
  } else {
    // Without groups every row has the one stratum's q̂ and n: those columns are written when first read (writing
    // memory never touched before costs several times more than writing reused memory).
    lazyColumn(out, "threshold", () => new Float64Array(m).fill(qs[0]!));
    lazyColumn(out, "n", () => new Int32Array(m).fill(ns[0]!));
  }
  return out;
}

/** Defines `key` on `target` as a value made by `make` when first read (enumerable, like a data property). */
function lazyColumn<T extends object>(target: T, key: string, make: () => unknown): void {
  let value: unknown;
  Object.defineProperty(target, key, {
    enumerable: true,
    configurable: true,
    get: () => (value ??= make()),
    set: (v: unknown) => (value = v),
  });
}

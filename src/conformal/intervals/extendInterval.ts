// Extending interval calibrations (ordinal CQR / ordinal APS, numeric CQR) with more labelled examples, as
// a profile grows by batches: each new score is added to its stratum's sorted delta (strata/extendStrata.ts), so a
// batch costs O(b log b) and the threshold stays the ⌈(n+1)(1−α)⌉-th score. With each example's u fixed
// (`uniforms`, one per row), the result equals a full calibration on all the examples, field by field.

import { ConformalError, checkUniforms, invalid, assertKind } from "../errors.js";
import { trueScore } from "./intervalColumns.js";
import { cqrScore, nonFiniteCqrRow, type CalibratedNumericInterval } from "./numericCqr.js";
import type { CalibratedOrdinal } from "./ordinalTypes.js";
import { checkPackedRow, type PackedRows } from "../rows/packedRows.js";
import { checkBatchGroups, extendStrata, pushScore } from "../strata/extendStrata.js";

export interface IntervalExtension {
  /** Row-major b × L level probabilities of the new examples, levels low → high. */
  readonly probabilities: Float64Array;
  readonly width: number;
  /** Index of the true level per row. */
  readonly labels: ArrayLike<number>;
  /** Mondrian group per row; required exactly when the calibration had groups. */
  readonly groups?: ArrayLike<string>;
  /** Row i's u in [0, 1) (randomized calibrations only): what the calibrating rng would have drawn for it. */
  readonly uniforms?: ArrayLike<number>;
}

/** The calibration of `cal`'s examples followed by the batch's, without touching `cal`. */
export function extendInterval(cal: CalibratedOrdinal, batch: IntervalExtension): CalibratedOrdinal {
  assertKind(cal, "interval", "extendInterval");
  const { probabilities: d, width: L, labels } = batch;
  if (!(d instanceof Float64Array)) throw invalid("probabilities must be a Float64Array (row-major b × L)", "probabilities");
  if (!Number.isInteger(L) || L < 1 || d.length % L !== 0) throw invalid(`probabilities has ${d.length} entries, not a multiple of width ${L}`, "width");
  const count = d.length / L;
  if (labels.length !== count) throw invalid(`labels has ${labels.length} entries for ${count} rows`, "labels");
  checkBatchGroups(cal.grouped, batch.groups, count, "extendInterval");
  const u = batch.uniforms;
  if (cal.randomized && (!u || u.length !== count)) throw new ConformalError("RNG_REQUIRED", `extendInterval: ${cal.method} is randomized, pass one uniform per row`, { field: "uniforms" });
  if (cal.randomized) checkUniforms(u!, count);
  if (count === 0) return cal;
  if (cal.levels && L !== cal.levels) throw invalid(`rows have ${L} levels, calibration had ${cal.levels}`, "probabilities");
  const rows: PackedRows = { data: d, count, width: L, starts: undefined };
  const buckets = new Map<string, number[]>();
  for (let i = 0; i < count; i++) {
    checkPackedRow(rows, i, "probabilities");
    const y = labels[i]!;
    if (!Number.isInteger(y) || y < 0 || y >= L) throw invalid(`labels[${i}] must be an option index in 0..${L - 1}, got ${y}`, `labels[${i}]`);
    pushScore(buckets, batch.groups, i, trueScore(cal.method, cal.alpha, rows, i, y, cal.randomized ? u![i]! : cal.method === "CQR" ? 0 : 1));
  }
  return Object.freeze({ ...cal, levels: L, n: cal.n + count, strata: extendStrata(cal.strata, buckets, cal.alpha) });
}

/** Numeric CQR: `cal` extended with the batch's lower / upper / y rows (and groups when calibrated with them). */
export function extendNumericInterval(
  cal: CalibratedNumericInterval,
  batch: { readonly lower: ArrayLike<number>; readonly upper: ArrayLike<number>; readonly y: ArrayLike<number>; readonly groups?: ArrayLike<string> },
): CalibratedNumericInterval {
  assertKind(cal, "numeric-interval", "extendNumericInterval");
  const count = batch.y.length;
  if (batch.lower.length !== count || batch.upper.length !== count) throw invalid("lower, upper and y must have equal lengths", "lower");
  checkBatchGroups(cal.grouped, batch.groups, count, "extendNumericInterval");
  if (count === 0) return cal;
  const buckets = new Map<string, number[]>();
  for (let i = 0; i < count; i++) {
    const lo = batch.lower[i]!;
    const hi = batch.upper[i]!;
    const y = batch.y[i]!;
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && Number.isFinite(y))) {
      throw nonFiniteCqrRow(lo, hi, i);
    }
    pushScore(buckets, batch.groups, i, cqrScore(lo, hi, y));
  }
  return Object.freeze({ ...cal, n: cal.n + count, strata: extendStrata(cal.strata, buckets, cal.alpha) });
}

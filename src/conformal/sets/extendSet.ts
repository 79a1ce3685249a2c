// Extending a split-conformal set calibration (Vovk et al. 2005) with more labelled examples, as a profile
// grows by batches: the batch's scores are sorted per stratum and kept beside the calibrated ascending scores
// as a small sorted delta, the threshold read as the k-th of the two arrays (O(log n)); the delta is folded into
// the base once it outgrows a sixteenth of it, so a batch costs O(b log b + d) and the copy of n scores is
// paid once per n/16 examples. With each example's u fixed (randomized methods take `uniforms`, one per batch
// row), the result equals calibrateSet on all the examples, field by field (the merged scores are built when
// first read, for p-values).

import { ConformalError, checkUniforms, invalid, assertKind } from "../errors.js";
import { checkPackedRow, type PackedRows } from "../rows/packedRows.js";
import { trueLabelScore } from "./scoreKernels.js";
import { checkBatchGroups, extendStrata, pushScore } from "../strata/extendStrata.js";
import type { CalibratedSet } from "./setTypes.js";

export { kthOfTwo, mergeAscending } from "../strata/extendStrata.js";

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
  checkBatchGroups(cal.grouped, batch.groups, count, "extendSet");
  const u = batch.uniforms;
  if (cal.randomized && (!u || u.length !== count)) throw new ConformalError("RNG_REQUIRED", `extendSet: ${cal.method} is randomized, pass one uniform per row`, { field: "uniforms" });
  if (cal.randomized) checkUniforms(u!, count);
  if (count === 0) return cal;
  const rows: PackedRows = { data: d, count, width: K, starts: undefined };
  const buckets = new Map<string, number[]>();
  for (let i = 0; i < count; i++) {
    checkPackedRow(rows, i, "probabilities");
    const y = labels[i]!;
    if (!Number.isInteger(y) || y < 0 || y >= K) throw invalid(`labels[${i}] must be an option index in 0..${K - 1}, got ${y}`, `labels[${i}]`);
    pushScore(buckets, batch.groups, i, trueLabelScore(cal.method, rows, i, y, cal.randomized ? u![i]! : 1, cal.lambda, cal.kReg), cal.classConditional ? y : undefined);
  }
  const ordered = extendStrata(cal.strata, buckets, cal.alpha);
  return Object.freeze({ ...cal, n: cal.n + count, strata: ordered });
}


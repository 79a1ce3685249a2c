// The columnar set API: calibrate from a row-major Float64Array of N × K probabilities, Int32Array labels and
// optional group codes; predict a whole batch into a Uint8Array membership (N × K) and set sizes, with no
// object or string per row. The per-row API (rowListApi.ts) is a thin layer on the same core and kernels.

import { drain } from "../numeric/drain.js";
import { ConformalError, checkUniforms, checkUnitOpen, invalid, assertKind } from "../errors.js";
import { resolveMethod, type SetMethod } from "../registry.js";
import type { Rng } from "../numeric/rng.js";
import { checkPackedRow, type PackedRows } from "../rows/packedRows.js";
import { predictLacRows, predictRows, trueLabelScore, type ResolvedStrata, type SetOutputs } from "./scoreKernels.js";
import { apsTrueScores, badLabel, predictApsRows } from "./apsFixedWidth.js";
import { buildStrataBySlot, stratumKey, stratumOrEmpty, type Stratum } from "../strata/mondrianStrata.js";
import { fixedRaps, tuneRaps } from "./rapsTuning.js";
import { calibrateRapsRowsSteps } from "./rapsCalibration.js";
import type { CalibratedSet, SetOptions } from "./setTypes.js";
import { checkGroupCodes, rowOf, type GroupCodes } from "../rows/groupCodes.js";

export { encodeGroups, type GroupCodes } from "../rows/groupCodes.js";

export interface SetBatch {
  /** Row-major N × K probabilities: row i is probabilities[i·K .. i·K + K). */
  readonly probabilities: Float64Array;
  readonly width: number;
  /** Mondrian group per row; required exactly when the calibration had groups. */
  readonly groups?: GroupCodes;
}

export interface SetCalibrationBatch extends SetBatch {
  /** Index of the true option per row. */
  readonly labels: Int32Array;
}

export interface SetBatchOptions {
  /** One u per row, drawn in row order (randomized calibrations); or give `uniforms`. */
  readonly rng?: Rng;
  /** Row i's u in [0, 1), e.g. one per query from its own seed. Wins over `rng`. */
  readonly uniforms?: Float64Array;
  /** Also return the N × K scores, conformal p-values (#{s_i ≥ s} + 1)/(n + 1) and thresholds. Default false. */
  readonly scores?: boolean;
  readonly pValues?: boolean;
  readonly thresholds?: boolean;
}

export interface SetBatchPrediction extends SetOutputs {
  readonly count: number;
  readonly width: number;
}

/** Calibrates from packed rows; shared by calibrateSet (per row) and calibrateSetBatch. O(n K + n). */
export function calibrateSetCore(rows: PackedRows, labels: ArrayLike<number>, groups: GroupCodes | undefined, options: SetOptions): CalibratedSet {
  return drain(calibrateSetCoreSteps(rows, labels, groups, options));
}

/** calibrateSetCore in steps: RAPS with tuning yields every RAPS_STEP rows (rapsCalibration.ts); the rest runs in one piece. */
export function* calibrateSetCoreSteps(rows: PackedRows, labels: ArrayLike<number>, groups: GroupCodes | undefined, options: SetOptions): Generator<void, CalibratedSet> {
  checkUnitOpen(options.alpha, "alpha");
  const method = resolveMethod(options.method, "set").name as SetMethod;
  const classConditional = options.classConditional ?? false;
  const randomized = method !== "LAC" && (options.randomized ?? true);
  const count = rows.count;
  if (labels.length !== count) throw invalid(`labels has ${labels.length} entries for ${count} probability rows`, "labels");
  if (groups) checkGroupCodes(groups, count);
  const d = rows.data;
  let lacScores: Float64Array | undefined;
  // APS and RAPS scoring check each row as they rank it, in row order; LAC and ragged rows are checked first,
  // and so is everything when a missing rng is to be named (only for data that passes).
  const checkedWhileScoring = method !== "LAC" && !rows.starts && (options.rng !== undefined || (method === "APS" && !randomized));
  if (!rows.starts && !checkedWhileScoring) {
    if (method === "LAC") lacScores = new Float64Array(count);
    checkFixedRows(rows, labels, lacScores);
  } else if (rows.starts) {
    // One flat pass finds the first row with a bad probability; rows before it get their labels checked
    // first, so the error named is the one a row-by-row check would name.
    let badRow = count;
    for (let x = 0; x < d.length; x++) {
      const p = d[x]!;
      if (!(p >= 0 && p < Infinity)) {
        badRow = rowOf(rows.starts, x);
        break;
      }
    }
    for (let i = 0; i < count; i++) {
      const w = rows.starts[i + 1]! - rows.starts[i]!;
      if (classConditional && w !== rows.width) throw invalid(`class-conditional calibration needs equal row lengths (row ${i})`, `probabilities[${i}]`);
      if (i === badRow) checkPackedRow(rows, i, "probabilities");
      const y = labels[i]!;
      if (!Number.isInteger(y) || y < 0 || y >= w) throw invalid(`labels[${i}] must be an option index in 0..${w - 1}, got ${y}`, `labels[${i}]`);
    }
  }
  let lambda = 0;
  let kReg = 0;
  let select: Int32Array | undefined;
  let scored: Float64Array | undefined = lacScores;
  if (method === "RAPS") {
    const fixed = fixedRaps(options);
    if (fixed) ({ lambda, kReg } = fixed);
    else if (checkedWhileScoring) ({ lambda, kReg, calibrationIndices: select, scores: scored } = yield* calibrateRapsRowsSteps(rows, labels, options, randomized));
    else ({ lambda, kReg, calibrationIndices: select } = tuneRaps(rows, labels, options, randomized));
  }
  if (randomized && !options.rng) throw new ConformalError("RNG_REQUIRED", `${method} is randomized: pass rng (or randomized: false)`, { field: "rng" });
  const m = select ? select.length : count;
  const scores = scored ?? new Float64Array(m);
  const rng = options.rng;
  if (!scored && !rows.starts && !select) {
    apsTrueScores(method === "RAPS", rows, labels, randomized ? rng : undefined, lambda, kReg, scores);
  } else if (!scored) {
    for (let t = 0; t < m; t++) {
      const i = select ? select[t]! : t;
      scores[t] = trueLabelScore(method, rows, i, labels[i]!, randomized ? rng!() : 1, lambda, kReg);
    }
  }
  if (select) yield; // RAPS: its threshold is a selection among the rest, another pass over them
  const K = rows.width;
  const names = groups?.names;
  let slots: Int32Array | undefined;
  if (groups || classConditional) {
    slots = new Int32Array(m);
    for (let t = 0; t < m; t++) {
      const i = select ? select[t]! : t;
      const g = groups ? groups.codes[i]! : 0;
      slots[t] = classConditional ? g * K + labels[i]! : g;
    }
  }
  const slotCount = (names ? names.length : 1) * (classConditional ? K : 1);
  const keyOf = (s: number) =>
    classConditional ? stratumKey(names?.[Math.floor(s / K)], s % K) : stratumKey(names![s], undefined);
  return Object.freeze({
    kind: "set" as const,
    method,
    alpha: options.alpha,
    randomized,
    classConditional,
    grouped: groups !== undefined,
    lambda,
    kReg,
    n: m,
    strata: buildStrataBySlot(scores, slots, slotCount, keyOf, options.alpha),
  });
}

/**
 * Checks fixed-width rows in one pass, each row's values then its label (the order a row-by-row check names
 * errors in), taking LAC's scores on the way when `lacScores` is given.
 */
function checkFixedRows(rows: PackedRows, labels: ArrayLike<number>, lacScores: Float64Array | undefined): void {
  const d = rows.data;
  const w = rows.width;
  for (let i = 0, o = 0; i < rows.count; i++, o += w) {
    for (let x = o; x < o + w; x++) {
      const p = d[x]!;
      if (!(p >= 0 && p < Infinity)) checkPackedRow(rows, i, "probabilities");
    }
    const y = labels[i]!;
    if (!Number.isInteger(y) || y < 0 || y >= w) throw badLabel(i, y, w);
    if (lacScores) lacScores[i] = 1 - d[o + y]!; // trueLabelScore's LAC case, inlined
  }
}

/** Calibrates a set method on a columnar batch (same answers as calibrateSet on the same rows). */
export function calibrateSetBatch(batch: SetCalibrationBatch, options: SetOptions): CalibratedSet {
  const rows = batchRows(batch);
  return calibrateSetCore(rows, batch.labels, batch.groups, options);
}

function batchRows(batch: SetBatch): PackedRows {
  const { probabilities: data, width } = batch;
  if (!(data instanceof Float64Array)) throw invalid("probabilities must be a Float64Array (row-major N × K)", "probabilities");
  if (!Number.isInteger(width) || width < 1) throw invalid(`width must be a positive integer, got ${width}`, "width");
  if (data.length % width !== 0) throw invalid(`probabilities has ${data.length} entries, not a multiple of width ${width}`, "probabilities");
  return { data, count: data.length / width, width, starts: undefined };
}

/** Strata for a prediction pass: one slot per group name (per group × option when class-conditional). */
export function resolveStrata(cal: CalibratedSet, groupNames: readonly (string | undefined)[], width: number, codes: Int32Array | undefined): ResolvedStrata {
  const per = cal.classConditional ? width : 1;
  const slots = groupNames.length * per;
  const q = new Float64Array(slots);
  const n = new Int32Array(slots);
  const all: Stratum[] = new Array(slots);
  for (let g = 0; g < groupNames.length; g++) {
    for (let j = 0; j < per; j++) {
      const st: Stratum = stratumOrEmpty(cal.strata, stratumKey(groupNames[g], cal.classConditional ? j : undefined), cal.alpha);
      q[g * per + j] = st.threshold;
      n[g * per + j] = st.n;
      all[g * per + j] = st;
    }
  }
  let slotOfRow: Int32Array | undefined;
  if (codes) {
    slotOfRow = new Int32Array(codes.length);
    for (let i = 0; i < codes.length; i++) slotOfRow[i] = codes[i]! * per;
  }
  return { q, n, strata: all, slotOfRow, perClass: cal.classConditional };
}

/** Membership without per-option extras: the LAC and APS / RAPS kernels of fixed-width rows. */
function fastPath(cal: CalibratedSet, options: SetBatchOptions): boolean {
  return !cal.classConditional && !options.scores && !options.pValues;
}

/** Sets for every row of the batch: membership[i·K + j] = 1 ⇔ option j is in row i's set. O(N K log K). */
export function predictSetBatch(cal: CalibratedSet, batch: SetBatch, options: SetBatchOptions = {}): SetBatchPrediction {
  assertKind(cal, "set", "predictSetBatch");
  const rows = batchRows(batch);
  const { count, width } = rows;
  if (cal.grouped && !batch.groups) throw new ConformalError("GROUP_REQUIRED", "predictSetBatch: calibrated per group, so the batch needs groups", { field: "groups" });
  if (!cal.grouped && batch.groups) throw new ConformalError("GROUP_REQUIRED", "predictSetBatch: calibrated without groups, but the batch has groups", { field: "groups" });
  if (batch.groups) checkGroupCodes(batch.groups, count);
  let uniforms = options.uniforms;
  if (uniforms && uniforms.length !== count) throw invalid(`uniforms has ${uniforms.length} entries for ${count} rows`, "uniforms");
  if (uniforms && cal.randomized) checkUniforms(uniforms, count);
  if (cal.randomized && !uniforms && !options.rng) throw new ConformalError("RNG_REQUIRED", `predictSetBatch: ${cal.method} is randomized, pass rng or uniforms`, { field: "rng" });
  if (!cal.randomized) uniforms = undefined;
  // The fast kernels draw row i's u as they reach it (the same sequence, no N-long array); the general one reads them.
  const draw = cal.randomized && !uniforms ? options.rng : undefined;
  if (draw && !fastPath(cal, options)) {
    uniforms = new Float64Array(count);
    for (let i = 0; i < count; i++) uniforms[i] = draw();
  }
  // Without per-option extras the LAC and APS / RAPS kernels check their rows as they read them; the
  // general kernel gets them checked first.
  const fast = fastPath(cal, options);
  const d = rows.data;
  for (let i = 0; !fast && i < d.length; i++) {
    const p = d[i]!;
    if (!(p >= 0 && p < Infinity)) checkPackedRow(rows, Math.floor(i / width), "probabilities");
  }
  const strata = resolveStrata(cal, batch.groups ? batch.groups.names : [undefined], width, batch.groups?.codes);
  const size = count * width;
  const out: SetBatchPrediction = {
    count,
    width,
    membership: new Uint8Array(size),
    sizes: new Int32Array(count),
    n: new Int32Array(count),
    scores: options.scores ? new Float64Array(size) : undefined,
    pValues: options.pValues ? new Float64Array(size) : undefined,
    thresholds: options.thresholds ? new Float64Array(size) : undefined,
  };
  if (!fast) predictRows(cal.method, rows, uniforms, cal.lambda, cal.kReg, strata, out);
  else if (cal.method === "LAC") predictLacRows(rows, strata.q, strata.n, strata.slotOfRow, out.membership, out.sizes, out.n, out.thresholds);
  else predictApsRows(rows, uniforms, draw, cal.lambda, cal.kReg, strata.q, strata.n, strata.slotOfRow, out.membership, out.sizes, out.n, out.thresholds);
  return out;
}

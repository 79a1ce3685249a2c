// Columnar intervals: ordinal CQR / ordinal APS over N × L level probabilities, and numeric CQR over lower /
// upper / y columns, each with optional group codes (Mondrian). The per-row API (ordinalInterval.ts, numericCqr.ts) is
// a thin layer on these, so both give the same intervals bit for bit.

import { ConformalError, checkUniforms, checkUnitOpen, invalid, assertKind } from "../errors.js";
import { resolveMethod, type IntervalMethod } from "../registry.js";
import type { Rng } from "../numeric/rng.js";
import { checkPackedRow, type PackedRows } from "../rows/packedRows.js";
import { ordinalApsScores, ordinalCqrBounds } from "./ordinalRowScores.js";
import { buildStrataBySlot, stratumKey, stratumOrEmpty } from "../strata/mondrianStrata.js";
import type { GroupCodes } from "../rows/groupCodes.js";
import type { CalibratedOrdinal, OrdinalOptions } from "./ordinalTypes.js";

export interface IntervalBatch {
  /** Row-major N × L level probabilities, levels low → high. */
  readonly probabilities: Float64Array;
  readonly width: number;
  readonly groups?: GroupCodes;
}

export interface IntervalBatchPrediction {
  readonly count: number;
  /** Inclusive level indices per row; lower > upper is the empty interval. */
  readonly lower: Int32Array;
  readonly upper: Int32Array;
  /** Predictive median level, moved into the interval when outside it. */
  readonly point: Int32Array;
  readonly threshold: Float64Array;
  readonly n: Int32Array;
}

let scratch = new Float64Array(16);

/** Score of the true level of row i (larger = stranger); u is 0 for CQR and 1 for APS when not randomized. Shared with extendInterval. */
export function trueScore(method: IntervalMethod, alpha: number, rows: PackedRows, i: number, y: number, u: number): number {
  const o = i * rows.width;
  const w = rows.width;
  if (method === "CQR") {
    const { lo, hi } = ordinalCqrBounds(rows.data, o, w, alpha);
    return Math.max(lo - y, y - hi) + u;
  }
  if (scratch.length < w) scratch = new Float64Array(w);
  ordinalApsScores(rows.data, o, w, u, scratch);
  return scratch[y]!;
}

export function calibrateIntervalCore(rows: PackedRows, labels: ArrayLike<number>, groups: GroupCodes | undefined, options: OrdinalOptions): CalibratedOrdinal {
  checkUnitOpen(options.alpha, "alpha");
  const method = resolveMethod(options.method, "interval").name as IntervalMethod;
  const randomized = options.randomized ?? true;
  if (randomized && !options.rng) throw new ConformalError("RNG_REQUIRED", `${method} over levels is randomized by default: pass rng (or randomized: false)`, { field: "rng" });
  const n = rows.count;
  if (labels.length !== n) throw invalid(`labels has ${labels.length} entries for ${n} rows`, "labels");
  if (groups && groups.codes.length !== n) throw invalid(`groups has ${groups.codes.length} entries for ${n} rows`, "groups");
  const L = rows.width;
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (rows.starts && rows.starts[i + 1]! - rows.starts[i]! !== L) throw invalid(`row ${i} has ${rows.starts[i + 1]! - rows.starts[i]!} levels, row 0 has ${L}`, `probabilities[${i}]`);
    checkPackedRow(rows, i, "probabilities");
    const y = labels[i]!;
    if (!Number.isInteger(y) || y < 0 || y >= L) throw invalid(`labels[${i}] must be an option index in 0..${L - 1}, got ${y}`, `labels[${i}]`);
    const u = randomized ? options.rng!() : method === "CQR" ? 0 : 1;
    scores[i] = trueScore(method, options.alpha, rows, i, y, u);
  }
  const names = groups?.names;
  return Object.freeze({
    kind: "interval" as const,
    method,
    alpha: options.alpha,
    randomized,
    grouped: groups !== undefined,
    levels: n ? L : 0, // 0: no example fixed the scale (as the per-row form has always said)
    n,
    strata: buildStrataBySlot(scores, groups?.codes, names?.length ?? 1, (s) => stratumKey(names![s], undefined), options.alpha),
  });
}

function packBatch(batch: IntervalBatch): PackedRows {
  const { probabilities: data, width } = batch;
  if (!(data instanceof Float64Array)) throw invalid("probabilities must be a Float64Array (row-major N × L)", "probabilities");
  if (!Number.isInteger(width) || width < 1) throw invalid(`width must be a positive integer, got ${width}`, "width");
  if (data.length % width !== 0) throw invalid(`probabilities has ${data.length} entries, not a multiple of width ${width}`, "probabilities");
  return { data, count: data.length / width, width, starts: undefined };
}

/** Calibrates ordinal CQR / ordinal APS on a columnar batch with labels (level indices). */
export function calibrateIntervalBatch(batch: IntervalBatch & { readonly labels: Int32Array }, options: OrdinalOptions): CalibratedOrdinal {
  return calibrateIntervalCore(packBatch(batch), batch.labels, batch.groups, options);
}

/** Intervals for every row; `uniforms[i]` (or one rng draw per row, in order) is row i's u. */
export function predictIntervalBatch(cal: CalibratedOrdinal, batch: IntervalBatch, options: { rng?: Rng; uniforms?: Float64Array } = {}): IntervalBatchPrediction {
  assertKind(cal, "interval", "predictIntervalBatch");
  const rows = packBatch(batch);
  const { count, width: L } = rows;
  if (cal.grouped !== (batch.groups !== undefined)) {
    throw new ConformalError("GROUP_REQUIRED", cal.grouped ? "predictIntervalBatch: calibrated per group, the batch needs groups" : "predictIntervalBatch: calibrated without groups", { field: "groups" });
  }
  if (cal.levels && L !== cal.levels) throw invalid(`rows have ${L} levels, calibration had ${cal.levels}`, "probabilities");
  if (batch.groups && batch.groups.codes.length !== count) throw invalid(`groups has ${batch.groups.codes.length} entries for ${count} rows`, "groups");
  let uniforms = options.uniforms;
  if (cal.randomized && uniforms) checkUniforms(uniforms, count);
  if (cal.randomized && !uniforms) {
    if (!options.rng) throw new ConformalError("RNG_REQUIRED", "predictIntervalBatch: randomized calibration, pass rng or uniforms", { field: "rng" });
    uniforms = new Float64Array(count);
    for (let i = 0; i < count; i++) uniforms[i] = options.rng();
  }
  for (let i = 0; i < count; i++) {
    checkPackedRow(rows, i, "probabilities");
    const c = batch.groups ? batch.groups.codes[i]! : 0;
    if (batch.groups && !(c >= 0 && c < batch.groups.names.length)) throw invalid(`groups.codes[${i}] must be in 0..${batch.groups.names.length - 1}, got ${c}`, `groups.codes[${i}]`);
  }
  const names = batch.groups ? batch.groups.names : [undefined];
  const qs = new Float64Array(names.length);
  const ns = new Int32Array(names.length);
  names.forEach((g, c) => {
    const st = stratumOrEmpty(cal.strata, stratumKey(g, undefined), cal.alpha);
    qs[c] = st.threshold;
    ns[c] = st.n;
  });
  const out: IntervalBatchPrediction = {
    count, lower: new Int32Array(count), upper: new Int32Array(count), point: new Int32Array(count), threshold: new Float64Array(count), n: new Int32Array(count),
  };
  predictOrdinalRows(cal, rows, uniforms, qs, ns, batch.groups?.codes, out);
  return out;
}

/** The ordinal kernel shared with predictInterval: rows' intervals against their strata's thresholds. */
export function predictOrdinalRows(cal: CalibratedOrdinal, rows: PackedRows, uniforms: Float64Array | undefined, qs: Float64Array, ns: Int32Array, codes: Int32Array | undefined, out: IntervalBatchPrediction): void {
  const L = rows.width;
  const d = rows.data;
  if (scratch.length < L) scratch = new Float64Array(L);
  for (let i = 0; i < rows.count; i++) {
    const o = i * L;
    const c = codes ? codes[i]! : 0;
    const q = qs[c]!;
    const u = cal.randomized ? uniforms![i]! : cal.method === "CQR" ? 0 : 1;
    const b = ordinalCqrBounds(d, o, L, cal.method === "CQR" ? cal.alpha : 1);
    let lower: number;
    let upper: number;
    if (cal.method === "CQR") {
      // Levels ℓ with max(lo − ℓ, ℓ − hi) + u ≤ q̂: widen both ends by r = ⌊q̂ − u⌋ levels.
      const r = q === Infinity ? L : Math.floor(q - u);
      lower = Math.max(0, b.lo - r);
      upper = Math.min(L - 1, b.hi + r);
    } else {
      ordinalApsScores(d, o, L, u, scratch);
      lower = L;
      upper = -1;
      for (let l = 0; l < L; l++) {
        if (scratch[l]! <= q) {
          if (l < lower) lower = l;
          upper = l;
        }
      }
    }
    out.lower[i] = lower;
    out.upper[i] = upper;
    out.point[i] = lower > upper ? b.median : Math.min(upper, Math.max(lower, b.median));
    out.threshold[i] = q;
    out.n[i] = ns[c]!;
  }
}

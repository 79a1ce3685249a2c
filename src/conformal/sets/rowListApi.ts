// Split-conformal prediction sets (Vovk et al. 2005; Angelopoulos & Bates 2021), per row: a thin layer on the
// columnar core (columnarApi.ts) and its kernels, so both APIs give the same sets, thresholds and p-values.
// Calibrate once (sort the scores per stratum), then each test row costs O(K log K), + K log n for p-values.

import { ConformalError, invalid, assertKind } from "../errors.js";
import type { SetMethod } from "../registry.js";
import { checkProbabilities } from "../rows/probabilityRows.js";
import { packRows, type PackedRows } from "../rows/packedRows.js";
import type { Rng } from "../numeric/rng.js";
import { calibrateSetCore, calibrateSetCoreSteps, encodeGroups, resolveStrata } from "./columnarApi.js";
import { predictRows, trueLabelScore, type ResolvedStrata } from "./scoreKernels.js";
import type { CalibratedSet, SetExamples, SetOptions, SetPrediction, SetQuery } from "./setTypes.js";

export { type CalibratedSet, type SetExamples, type SetOptions, type SetPrediction, type SetQuery } from "./setTypes.js";

/** Nonconformity score of the true label of every example (u drawn in example order when randomized). */
export function setScores(
  examples: SetExamples,
  method: SetMethod,
  randomized: boolean,
  rng: Rng | undefined,
  lambda = 0,
  kReg = 0,
  select?: ArrayLike<number>,
): Float64Array {
  const rows = packRows(examples.probabilities);
  const count = select ? select.length : rows.count;
  const out = new Float64Array(count);
  for (let t = 0; t < count; t++) {
    const i = select ? select[t]! : t;
    out[t] = trueLabelScore(method, rows, i, examples.labels[i]!, randomized ? rng!() : 1, lambda, kReg);
  }
  return out;
}

/** Calibrates a set method on labelled examples. O(n K + n) (plus the RAPS tuning when λ, k_reg are not given). */
export function calibrateSet(examples: SetExamples, options: SetOptions): CalibratedSet {
  const rows = packRows(examples.probabilities);
  const groups = examples.groups ? encodeGroups(examples.groups) : undefined;
  return calibrateSetCore(rows, examples.labels, groups, options);
}

/** calibrateSet in steps (RAPS with tuning yields every few tens of thousands of rows): same result. */
export function calibrateSetSteps(examples: SetExamples, options: SetOptions): Generator<void, CalibratedSet> {
  const rows = packRows(examples.probabilities);
  const groups = examples.groups ? encodeGroups(examples.groups) : undefined;
  return calibrateSetCoreSteps(rows, examples.labels, groups, options);
}

function checkGroup(grouped: boolean, group: string | undefined, verb: string): void {
  if (grouped && group === undefined) throw new ConformalError("GROUP_REQUIRED", `${verb}: calibrated per group, so the query needs a group`, { field: "group" });
  if (!grouped && group !== undefined) throw new ConformalError("GROUP_REQUIRED", `${verb}: calibrated without groups, but the query names group "${group}"`, { field: "group" });
}

// One-row buffers, reused: small typed arrays cost microseconds to allocate in V8.
let row = new Float64Array(16);
let membership = new Uint8Array(16);
let scores = new Float64Array(16);
let pValues = new Float64Array(16);
let thresholds = new Float64Array(16);
const size1 = new Int32Array(1);
const n1 = new Int32Array(1);
const u1 = new Float64Array(1);

// Consecutive predictions mostly share the calibration and group: their resolved strata are kept.
let last: { cal: CalibratedSet; group: string | undefined; width: number; strata: ResolvedStrata } | undefined;

function strataFor(cal: CalibratedSet, group: string | undefined, width: number): ResolvedStrata {
  if (last && last.cal === cal && last.group === group && (!cal.classConditional || last.width === width)) return last.strata;
  last = { cal, group, width, strata: resolveStrata(cal, [group], width, undefined) };
  return last.strata;
}

/** The conformal set for one row: {j : s_j ≤ q̂}. `rng` is required when the calibration is randomized. */
export function predictSet(cal: CalibratedSet, query: SetQuery, rng?: Rng, opts: { pValues?: boolean } = {}): SetPrediction {
  assertKind(cal, "set", "predictSet");
  checkGroup(cal.grouped, query.group, "predictSet");
  if (cal.randomized && !rng) throw new ConformalError("RNG_REQUIRED", `predictSet: ${cal.method} is randomized, pass rng`, { field: "rng" });
  const p = query.probabilities;
  const w = p.length;
  checkProbabilities(p, 0, w, "probabilities");
  if (query.options && query.options.length !== w) throw invalid(`options has ${query.options.length} names for ${w} probabilities`, "options");
  if (row.length < w) {
    row = new Float64Array(w);
    membership = new Uint8Array(w);
    scores = new Float64Array(w);
    pValues = new Float64Array(w);
    thresholds = new Float64Array(w);
  }
  for (let j = 0; j < w; j++) row[j] = p[j]!;
  const rows: PackedRows = { data: row, count: w ? 1 : 0, width: w, starts: undefined };
  const wantP = opts.pValues ?? true;
  if (cal.randomized) u1[0] = rng!();
  const strata = strataFor(cal, query.group, w);
  predictRows(cal.method, rows, cal.randomized ? u1 : undefined, cal.lambda, cal.kReg, strata, {
    membership, sizes: size1, n: n1, scores, pValues: wantP ? pValues : undefined, thresholds,
  });
  const set: string[] = [];
  const indices: number[] = [];
  const outScores = new Array<number>(w);
  const outThresholds = new Array<number>(w);
  const outP: number[] = wantP ? new Array<number>(w) : [];
  for (let j = 0; j < w; j++) {
    outScores[j] = scores[j]!;
    outThresholds[j] = thresholds[j]!;
    if (wantP) outP[j] = pValues[j]!;
    if (membership[j]) {
      indices.push(j);
      set.push(query.options ? query.options[j]! : String(j));
    }
  }
  return { set, indices, scores: outScores, pValues: outP, thresholds: outThresholds, n: w ? n1[0]! : 0 };
}

// Prediction intervals over ordered levels from level probabilities: CQR on the predictive CDF's α/2 and
// 1−α/2 quantile levels, widened by an integer number of levels (Romano et al. 2019 on level indices), and
// ordinal APS (Lu, Angelopoulos, Bates, Jordan & Kalpathy-Cramer 2022): sets grown contiguously from the mode.
// Integer scores tie massively, so both are randomized by default (u ~ U[0,1) per example) for exact coverage.

import { ConformalError, invalid, assertKind } from "../errors.js";
import { checkProbabilities } from "../rows/probabilityRows.js";
import { packRows } from "../rows/packedRows.js";
import type { Rng } from "../numeric/rng.js";
import { encodeGroups } from "../rows/groupCodes.js";
import { stratumKey, stratumOrEmpty, type Stratum } from "../strata/mondrianStrata.js";
import { calibrateIntervalCore, predictOrdinalRows } from "./intervalColumns.js";
import type { CalibratedOrdinal, IntervalPrediction, IntervalQuery, OrdinalExamples, OrdinalOptions } from "./ordinalTypes.js";

export type { CalibratedOrdinal, IntervalPrediction, IntervalQuery, OrdinalExamples, OrdinalOptions } from "./ordinalTypes.js";

export function calibrateInterval(examples: OrdinalExamples, options: OrdinalOptions): CalibratedOrdinal {
  const rows = packRows(examples.probabilities);
  const groups = examples.groups ? encodeGroups(examples.groups) : undefined;
  return calibrateIntervalCore(rows, examples.labels, groups, options);
}

// One-row buffers for the per-row layer (reused: small typed arrays are slow to allocate).
let row = new Float64Array(16);
const u1 = new Float64Array(1);
const q1 = new Float64Array(1);
const n1 = new Int32Array(1);
const one = { count: 1, lower: new Int32Array(1), upper: new Int32Array(1), point: new Int32Array(1), threshold: new Float64Array(1), n: new Int32Array(1) };

export function predictInterval(cal: CalibratedOrdinal, query: IntervalQuery, rng?: Rng): IntervalPrediction {
  assertKind(cal, "interval", "predictInterval");
  if (cal.grouped !== (query.group !== undefined)) {
    throw new ConformalError("GROUP_REQUIRED", cal.grouped ? "predictInterval: calibrated per group, the query needs a group" : "predictInterval: calibrated without groups", { field: "group" });
  }
  if (cal.randomized && !rng) throw new ConformalError("RNG_REQUIRED", "predictInterval: randomized calibration, pass rng", { field: "rng" });
  const p = query.probabilities;
  const L = p.length;
  if (cal.levels && L !== cal.levels) throw invalid(`query has ${L} levels, calibration had ${cal.levels}`, "probabilities");
  checkProbabilities(p, 0, L, "probabilities");
  const names = query.levels ? [...query.levels] : Array.from({ length: L }, (_, i) => String(i));
  if (names.length !== L) throw invalid(`levels has ${names.length} names for ${L} probabilities`, "levels");
  const st = stratumOrEmpty(cal.strata, stratumKey(query.group, undefined), cal.alpha);
  q1[0] = st.threshold;
  n1[0] = st.n;
  if (cal.randomized) u1[0] = rng!();
  if (row.length < L) row = new Float64Array(L);
  for (let l = 0; l < L; l++) row[l] = p[l]!;
  predictOrdinalRows(cal, { data: row, count: 1, width: L, starts: undefined }, u1, q1, n1, undefined, one);
  const lower = one.lower[0]!;
  const upper = one.upper[0]!;
  const empty = lower > upper;
  const pointEstimate = one.point[0]!;
  return {
    lower,
    upper,
    empty,
    pointEstimate,
    point: names[pointEstimate]!,
    interval: empty ? null : [names[lower]!, names[upper]!],
    legend: names,
    threshold: st.threshold,
    n: st.n,
  };
}

// Prediction intervals over ordered levels from level probabilities: CQR on the predictive CDF's α/2 and
// 1−α/2 quantile levels, widened by an integer number of levels (Romano et al. 2019 on level indices), and
// ordinal APS (Lu, Angelopoulos, Bates, Jordan & Kalpathy-Cramer 2022): sets grown contiguously from the mode.
// Integer scores tie massively, so both are randomized by default (u ~ U[0,1) per example) for exact coverage.

import { ConformalError, invalid } from "./errors.js";
import type { IntervalMethod } from "./registry.js";
import { checkProbabilities, type ProbabilityRows } from "./rows.js";
import { packRows } from "./rowsPacked.js";
import type { Rng } from "./rng.js";
import { assertKind } from "./setTypes.js";
import { encodeGroups } from "./setBatch.js";
import { stratumKey, stratumOrEmpty, type Stratum } from "./strata.js";
import { calibrateIntervalCore, predictOrdinalRows } from "./intervalBatch.js";

export interface OrdinalExamples {
  /** Level probabilities per example, all rows of the same length L (levels low → high). */
  readonly probabilities: ProbabilityRows;
  /** Index of the true level. */
  readonly labels: ArrayLike<number>;
  readonly groups?: ArrayLike<string>;
}

export interface OrdinalOptions {
  /** "CQR" or "ordinal-aps", any case. */
  readonly method: string;
  readonly alpha: number;
  /** Default true: one u ~ U[0,1) per example. false: conservative (coverage ≥ 1 − α, often above). */
  readonly randomized?: boolean;
  readonly rng?: Rng;
}

export interface CalibratedOrdinal {
  readonly kind: "interval";
  readonly method: IntervalMethod;
  readonly alpha: number;
  readonly randomized: boolean;
  readonly grouped: boolean;
  readonly levels: number;
  readonly n: number;
  readonly strata: ReadonlyMap<string, Stratum>;
}

export interface IntervalQuery {
  readonly probabilities: ArrayLike<number>;
  /** Level names low → high; used for `interval`, `point` and `legend` (indices as strings without). */
  readonly levels?: readonly string[];
  readonly group?: string;
}

export interface IntervalPrediction {
  /** Inclusive level indices; lower > upper means the empty interval. */
  readonly lower: number;
  readonly upper: number;
  readonly empty: boolean;
  /** Index of the predictive median level, moved into the interval when it falls outside. */
  readonly pointEstimate: number;
  readonly point: string;
  /** [name of lower, name of upper], or null when empty. */
  readonly interval: [string, string] | null;
  /** All level names in order (the scale the interval refers to). */
  readonly legend: string[];
  readonly threshold: number;
  readonly n: number;
}

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

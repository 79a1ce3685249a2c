// Prediction intervals over ordered levels from level probabilities: CQR on the predictive CDF's α/2 and
// 1−α/2 quantile levels, widened by an integer number of levels (Romano et al. 2019 on level indices), and
// ordinal APS (Lu, Angelopoulos, Bates, Jordan & Kalpathy-Cramer 2022): sets grown contiguously from the mode.
// Integer scores tie massively, so both are randomized by default (u ~ U[0,1) per example) for exact coverage.

import { ConformalError, checkUnitOpen, invalid } from "./errors.js";
import { resolveMethod, type IntervalMethod } from "./registry.js";
import { checkLabel, checkProbabilities, rowView, type ProbabilityRows } from "./rows.js";
import type { Rng } from "./rng.js";
import { assertKind } from "./set.js";
import { buildStrata, stratumKey, stratumOrEmpty, type Stratum } from "./strata.js";
import { ordinalApsScores, ordinalCqrBounds } from "./ordinalScores.js";

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

/** Score of the true level (method-specific; larger = stranger). */
function trueScore(method: IntervalMethod, alpha: number, d: ArrayLike<number>, o: number, w: number, y: number, u: number, scratch: Float64Array): number {
  if (method === "CQR") {
    const { lo, hi } = ordinalCqrBounds(d, o, w, alpha);
    return Math.max(lo - y, y - hi) + u;
  }
  ordinalApsScores(d, o, w, u, scratch);
  return scratch[y]!;
}

export function calibrateInterval(examples: OrdinalExamples, options: OrdinalOptions): CalibratedOrdinal {
  checkUnitOpen(options.alpha, "alpha");
  const method = resolveMethod(options.method, "interval").name as IntervalMethod;
  const randomized = options.randomized ?? true;
  if (randomized && !options.rng) throw new ConformalError("RNG_REQUIRED", `${method} over levels is randomized by default: pass rng (or randomized: false)`, { field: "rng" });
  const view = rowView(examples.probabilities);
  const n = view.count;
  if (examples.labels.length !== n) throw invalid(`labels has ${examples.labels.length} entries for ${n} rows`, "labels");
  const L = n ? view.width(0) : 0;
  const scores = new Float64Array(n);
  const scratch = new Float64Array(Math.max(L, 1));
  for (let i = 0; i < n; i++) {
    if (view.width(i) !== L) throw invalid(`row ${i} has ${view.width(i)} levels, row 0 has ${L}`, `probabilities[${i}]`);
    checkProbabilities(view.data(i), view.offset(i), L, `probabilities[${i}]`);
    checkLabel(examples.labels[i]!, L, `labels[${i}]`);
    const u = randomized ? options.rng!() : method === "CQR" ? 0 : 1;
    scores[i] = trueScore(method, options.alpha, view.data(i), view.offset(i), L, examples.labels[i]!, u, scratch);
  }
  const keys = examples.groups ? Array.from(examples.groups as ArrayLike<string>, (g) => stratumKey(g, undefined)) : undefined;
  return Object.freeze({
    kind: "interval" as const,
    method,
    alpha: options.alpha,
    randomized,
    grouped: examples.groups !== undefined,
    levels: L,
    n,
    strata: buildStrata(scores, keys, options.alpha),
  });
}

let scratch = new Float64Array(16);

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
  const q = st.threshold;
  const u = cal.randomized ? rng!() : cal.method === "CQR" ? 0 : 1;
  let lower: number;
  let upper: number;
  if (cal.method === "CQR") {
    const { lo, hi } = ordinalCqrBounds(p, 0, L, cal.alpha);
    // Levels ℓ with max(lo − ℓ, ℓ − hi) + u ≤ q̂: widen both ends by r = ⌊q̂ − u⌋ levels.
    const r = q === Infinity ? L : Math.floor(q - u);
    lower = Math.max(0, lo - r);
    upper = Math.min(L - 1, hi + r);
  } else {
    if (scratch.length < L) scratch = new Float64Array(L);
    const scores = scratch;
    ordinalApsScores(p, 0, L, u, scores);
    lower = L;
    upper = -1;
    for (let l = 0; l < L; l++) {
      if (scores[l]! <= q) {
        if (l < lower) lower = l;
        upper = l;
      }
    }
  }
  const empty = lower > upper;
  const median = ordinalCqrBounds(p, 0, L, 1).median;
  const pointEstimate = empty ? median : Math.min(upper, Math.max(lower, median));
  return {
    lower,
    upper,
    empty,
    pointEstimate,
    point: names[pointEstimate]!,
    interval: empty ? null : [names[lower]!, names[upper]!],
    legend: names,
    threshold: q,
    n: st.n,
  };
}

// Split-conformal prediction sets (Vovk et al. 2005; Angelopoulos & Bates 2021): calibrate once (sort
// the scores per stratum), then each test row costs O(K log K + K log n). No n×m matrix is ever built.

import { ConformalError, checkUnitOpen, invalid } from "./errors.js";
import { resolveMethod, type SetMethod } from "./registry.js";
import { checkLabel, checkProbabilities, rowView, type ProbabilityRows } from "./rows.js";
import type { Rng } from "./rng.js";
import { lacOptionScores, lacScore } from "./scores/lac.js";
import { apsOptionScores, apsScoreAndRank } from "./scores/aps.js";
import { rapsScore } from "./scores/raps.js";
import { buildStrata, stratumKey, stratumOrEmpty, type Stratum } from "./strata.js";
import { countBelow } from "./quantile.js";
import { tuneRaps } from "./rapsTuning.js";

export interface SetExamples {
  /** p(option | example) per example; rows may differ in length unless classConditional. */
  readonly probabilities: ProbabilityRows;
  /** Index of the true option in each row. */
  readonly labels: ArrayLike<number>;
  /** Mondrian group per example (the profile's group_by value); omit for marginal calibration. */
  readonly groups?: ArrayLike<string>;
}

export interface SetOptions {
  /** "LAC", "APS" or "RAPS", any case. */
  readonly method: string;
  /** Miscoverage level α in (0, 1): sets contain the truth with probability ≥ 1 − α. */
  readonly alpha: number;
  /** Random source; required for randomized APS/RAPS and for RAPS tuning. */
  readonly rng?: Rng;
  /** APS/RAPS: draw u ~ U[0,1) per example (exact coverage). Default true for APS and RAPS; LAC ignores it. */
  readonly randomized?: boolean;
  /** Calibrate each true class on its own (class-conditional coverage). Default false. */
  readonly classConditional?: boolean;
  /** RAPS penalty λ ≥ 0; with kReg given, skips tuning and uses every example for calibration. */
  readonly lambda?: number;
  /** RAPS k_reg ≥ 0 (rank after which the penalty starts). */
  readonly kReg?: number;
  /** RAPS: fraction of the calibration examples held out for tuning λ and k_reg. Default 0.2. */
  readonly tuningFraction?: number;
}

export interface CalibratedSet {
  readonly kind: "set";
  readonly method: SetMethod;
  readonly alpha: number;
  readonly randomized: boolean;
  readonly classConditional: boolean;
  /** True when calibrated with groups: predictions must then name a group. */
  readonly grouped: boolean;
  readonly lambda: number;
  readonly kReg: number;
  /** Examples used for calibration (after any RAPS tuning split). */
  readonly n: number;
  /** Stratum key ("" | group | group + U+001F + class index) → calibrated scores. */
  readonly strata: ReadonlyMap<string, Stratum>;
}

export interface SetQuery {
  readonly probabilities: ArrayLike<number>;
  /** Option names in the row's order; the answer's `set` uses them (indices as strings without). */
  readonly options?: readonly string[];
  readonly group?: string;
}

export interface SetPrediction {
  /** Option names in the set, in input order. */
  readonly set: string[];
  /** Their indices, ascending. */
  readonly indices: number[];
  /** Nonconformity score per option (with this prediction's u when randomized). */
  readonly scores: number[];
  /** Conformal p-value per option, (#{s_i ≥ s_j} + 1)/(n + 1): option j is in the set ⇔ p_j > α. Empty when not asked for. */
  readonly pValues: number[];
  /** Threshold applied per option (equal for all options unless class-conditional). */
  readonly thresholds: number[];
  /** Calibration examples behind the threshold of each option's stratum (min over options). */
  readonly n: number;
}

// Plain switches, not per-call closures: closures created per prediction cost more than the scoring itself.
function trueLabelScore(method: SetMethod, d: ArrayLike<number>, o: number, w: number, y: number, u: number, order: Int32Array, lambda: number, kReg: number): number {
  if (method === "LAC") return lacScore(d, o, y);
  if (method === "APS") return apsScoreAndRank(d, o, w, y, u, order).score;
  return rapsScore(d, o, w, y, u, lambda, kReg, order);
}

function allOptionScores(method: SetMethod, d: ArrayLike<number>, o: number, w: number, u: number, order: Int32Array, out: Float64Array, lambda: number, kReg: number): void {
  if (method === "LAC") lacOptionScores(d, o, w, out);
  else apsOptionScores(d, o, w, u, order, out, method === "RAPS" ? lambda : 0, kReg);
}

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
  const view = rowView(examples.probabilities);
  const count = select ? select.length : view.count;
  const out = new Float64Array(count);
  let order = new Int32Array(16);
  for (let t = 0; t < count; t++) {
    const i = select ? select[t]! : t;
    const w = view.width(i);
    if (order.length < w) order = new Int32Array(w);
    const u = randomized ? rng!() : 1;
    out[t] = trueLabelScore(method, view.data(i), view.offset(i), w, examples.labels[i]!, u, order, lambda, kReg);
  }
  return out;
}

function validateExamples(examples: SetExamples, classConditional: boolean): number {
  const view = rowView(examples.probabilities);
  if (examples.labels.length !== view.count) {
    throw invalid(`labels has ${examples.labels.length} entries for ${view.count} probability rows`, "labels");
  }
  if (examples.groups && examples.groups.length !== view.count) {
    throw invalid(`groups has ${examples.groups.length} entries for ${view.count} probability rows`, "groups");
  }
  const width0 = view.count > 0 ? view.width(0) : 0;
  for (let i = 0; i < view.count; i++) {
    const w = view.width(i);
    if (classConditional && w !== width0) throw invalid(`class-conditional calibration needs equal row lengths (row ${i})`, `probabilities[${i}]`);
    checkProbabilities(view.data(i), view.offset(i), w, `probabilities[${i}]`);
    checkLabel(examples.labels[i]!, w, `labels[${i}]`);
    if (examples.groups && typeof examples.groups[i] !== "string") throw invalid(`groups[${i}] must be a string`, `groups[${i}]`);
  }
  return view.count;
}

/** Calibrates a set method on labelled examples. O(n K log K + n log n). */
export function calibrateSet(examples: SetExamples, options: SetOptions): CalibratedSet {
  checkUnitOpen(options.alpha, "alpha");
  const method = resolveMethod(options.method, "set").name as SetMethod;
  const classConditional = options.classConditional ?? false;
  const randomized = method !== "LAC" && (options.randomized ?? true);
  const total = validateExamples(examples, classConditional);
  let lambda = 0;
  let kReg = 0;
  let select: Int32Array | undefined;
  if (method === "RAPS") {
    const tuned = tuneRaps(examples, options, randomized);
    lambda = tuned.lambda;
    kReg = tuned.kReg;
    select = tuned.calibrationIndices;
  }
  if (randomized && !options.rng) throw new ConformalError("RNG_REQUIRED", `${method} is randomized: pass rng (or randomized: false)`, { field: "rng" });
  const scores = setScores(examples, method, randomized, options.rng, lambda, kReg, select);
  const index = (t: number) => (select ? select[t]! : t);
  let keys: string[] | undefined;
  if (examples.groups || classConditional) {
    keys = new Array<string>(scores.length);
    for (let t = 0; t < scores.length; t++) {
      const i = index(t);
      keys[t] = stratumKey(examples.groups?.[i], classConditional ? examples.labels[i]! : undefined);
    }
  }
  return Object.freeze({
    kind: "set" as const,
    method,
    alpha: options.alpha,
    randomized,
    classConditional,
    grouped: examples.groups !== undefined,
    lambda,
    kReg,
    n: scores.length,
    strata: buildStrata(scores, keys, options.alpha),
  });
}

export function assertKind<K extends string>(cal: unknown, kind: K, verb: string): void {
  const k = (cal as { kind?: unknown } | null | undefined)?.kind;
  if (k !== kind) {
    throw new ConformalError(
      "WRONG_KIND",
      k === undefined
        ? `${verb} needs a calibrated ${kind} object: call calibrate first`
        : `${verb} needs a calibrated ${kind} object, got a calibrated ${String(k)} object`,
      { field: "calibrated" },
    );
  }
}

function checkGroup(grouped: boolean, group: string | undefined, verb: string): void {
  if (grouped && group === undefined) throw new ConformalError("GROUP_REQUIRED", `${verb}: calibrated per group, so the query needs a group`, { field: "group" });
  if (!grouped && group !== undefined) throw new ConformalError("GROUP_REQUIRED", `${verb}: calibrated without groups, but the query names group "${group}"`, { field: "group" });
}

let scratchOrder = new Int32Array(16);
let scratchScores = new Float64Array(16);

/** The conformal set for one row: {j : s_j ≤ q̂}. `rng` is required when the calibration is randomized. */
export function predictSet(cal: CalibratedSet, query: SetQuery, rng?: Rng, opts: { pValues?: boolean } = {}): SetPrediction {
  assertKind(cal, "set", "predictSet");
  checkGroup(cal.grouped, query.group, "predictSet");
  if (cal.randomized && !rng) throw new ConformalError("RNG_REQUIRED", `predictSet: ${cal.method} is randomized, pass rng`, { field: "rng" });
  const p = query.probabilities;
  const w = p.length;
  checkProbabilities(p, 0, w, "probabilities");
  if (query.options && query.options.length !== w) throw invalid(`options has ${query.options.length} names for ${w} probabilities`, "options");
  // Small typed arrays cost microseconds to allocate in V8, so scratch space is reused and answers are plain arrays.
  if (scratchOrder.length < w) {
    scratchOrder = new Int32Array(w);
    scratchScores = new Float64Array(w);
  }
  const u = cal.randomized ? rng!() : 1;
  allOptionScores(cal.method, p, 0, w, u, scratchOrder, scratchScores, cal.lambda, cal.kReg);
  const scores = new Array<number>(w);
  for (let j = 0; j < w; j++) scores[j] = scratchScores[j]!;
  const thresholds = new Array<number>(w);
  const wantP = opts.pValues ?? true;
  const pValues: number[] = wantP ? new Array<number>(w) : [];
  const set: string[] = [];
  const indices: number[] = [];
  let nMin = Infinity;
  let shared: Stratum | undefined;
  if (!cal.classConditional) shared = stratumOrEmpty(cal.strata, stratumKey(query.group, undefined), cal.alpha);
  for (let j = 0; j < w; j++) {
    const st = shared ?? stratumOrEmpty(cal.strata, stratumKey(query.group, j), cal.alpha);
    thresholds[j] = st.threshold;
    if (st.n < nMin) nMin = st.n;
    if (wantP) pValues[j] = (st.n - countBelow(st.scores, scores[j]!) + 1) / (st.n + 1);
    if (scores[j]! <= st.threshold) {
      indices.push(j);
      set.push(query.options ? query.options[j]! : String(j));
    }
  }
  return { set, indices, scores, pValues, thresholds, n: nMin === Infinity ? 0 : nMin };
}

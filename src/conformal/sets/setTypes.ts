// Types of the set API (per row and batch).

import type { SetMethod } from "../registry.js";
import type { ProbabilityRows } from "../rows/probabilityRows.js";
import type { Rng } from "../numeric/rng.js";
import type { Stratum } from "../strata/mondrianStrata.js";

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

// The ordinal interval API's examples, options, calibration and prediction, below both the per-row API
// (ordinalInterval.ts) and the columnar core it runs on (intervalColumns.ts).

import type { Rng } from "../numeric/rng.js";
import type { IntervalMethod } from "../registry.js";
import type { ProbabilityRows } from "../rows/probabilityRows.js";
import type { Stratum } from "../strata/mondrianStrata.js";

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

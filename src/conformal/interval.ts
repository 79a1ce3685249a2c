// Conformalized quantile regression (Romano, Patterson & Candès 2019) for numeric predictions: the signed
// score max(lo − y, y − hi), and the test interval [lo − q̂, hi + q̂] (q̂ may be negative: narrowing).

import { checkUnitOpen, invalid } from "./errors.js";
import { assertKind, type SetExamples } from "./set.js";
import { buildStrata, stratumKey, stratumOrEmpty, type Stratum } from "./strata.js";

export interface NumericIntervalExamples {
  readonly lower: ArrayLike<number>;
  readonly upper: ArrayLike<number>;
  readonly y: ArrayLike<number>;
  readonly groups?: SetExamples["groups"];
}

export interface CalibratedNumericInterval {
  readonly kind: "numeric-interval";
  readonly method: "CQR";
  readonly alpha: number;
  readonly n: number;
  readonly grouped: boolean;
  readonly strata: ReadonlyMap<string, Stratum>;
}

export interface NumericIntervalPrediction {
  readonly lower: number;
  readonly upper: number;
  /** The widening q̂ applied (+∞: the whole line). */
  readonly threshold: number;
  readonly n: number;
}

/** CQR score max(lo − y, y − hi). */
export function cqrScore(lower: number, upper: number, y: number): number {
  return Math.max(lower - y, y - upper);
}

export function calibrateNumericInterval(examples: NumericIntervalExamples, options: { alpha: number }): CalibratedNumericInterval {
  checkUnitOpen(options.alpha, "alpha");
  const n = examples.y.length;
  if (examples.lower.length !== n || examples.upper.length !== n) throw invalid("lower, upper and y must have equal lengths", "lower");
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const lo = examples.lower[i]!;
    const hi = examples.upper[i]!;
    const y = examples.y[i]!;
    for (const [v, f] of [[lo, "lower"], [hi, "upper"], [y, "y"]] as const) {
      if (typeof v !== "number" || !Number.isFinite(v)) throw invalid(`${f}[${i}] must be a finite number`, `${f}[${i}]`);
    }
    scores[i] = cqrScore(lo, hi, y);
  }
  const keys = examples.groups ? Array.from(examples.groups as ArrayLike<string>, (g) => stratumKey(g, undefined)) : undefined;
  return Object.freeze({
    kind: "numeric-interval" as const,
    method: "CQR" as const,
    alpha: options.alpha,
    n,
    grouped: examples.groups !== undefined,
    strata: buildStrata(scores, keys, options.alpha),
  });
}

export function predictNumericInterval(
  cal: CalibratedNumericInterval,
  query: { lower: number; upper: number; group?: string },
): NumericIntervalPrediction {
  assertKind(cal, "numeric-interval", "predictNumericInterval");
  if (cal.grouped !== (query.group !== undefined)) throw invalid(cal.grouped ? "query needs a group" : "calibrated without groups", "group");
  if (!Number.isFinite(query.lower) || !Number.isFinite(query.upper)) throw invalid("lower and upper must be finite numbers", "lower");
  const st = stratumOrEmpty(cal.strata, stratumKey(query.group, undefined), cal.alpha);
  const q = st.threshold;
  return { lower: query.lower - q, upper: query.upper + q, threshold: q, n: st.n };
}

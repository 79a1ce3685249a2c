// The one workflow verb: calibrate(input) → an immutable calibrated object whose `kind` picks the verb
// that uses it (predictSet, predictInterval, predictBelief, decide, filterClaims, routeStep).

import { ConformalError } from "./errors.js";
import { calibrateSet, type CalibratedSet, type SetExamples, type SetOptions } from "./sets/rowListApi.js";
import { calibrateInterval, type CalibratedOrdinal, type OrdinalExamples, type OrdinalOptions } from "./intervals/ordinalInterval.js";
import { calibrateNumericInterval, type CalibratedNumericInterval, type NumericIntervalExamples } from "./intervals/numericCqr.js";
import { calibrateBelief, type CalibratedBelief } from "./beliefs/vennAbers.js";
import { calibrateGate, type CalibratedGate, type GateExamples, type GateOptions } from "./risk/gate.js";
import { calibrateClaims, type CalibratedClaims, type LabelledClaim } from "./risk/claimFiltering.js";
import { calibrateRoute, type CalibratedRoute, type RouteExamples, type RouteOptions } from "./risk/routeCascade.js";

export type CalibrateInput =
  | { readonly type: "set"; readonly examples: SetExamples; readonly options: SetOptions }
  | { readonly type: "interval"; readonly examples: OrdinalExamples; readonly options: OrdinalOptions }
  | { readonly type: "numeric-interval"; readonly examples: NumericIntervalExamples; readonly options: { alpha: number } }
  | { readonly type: "belief"; readonly examples: { scores: ArrayLike<number>; labels: ArrayLike<number | boolean> } }
  | { readonly type: "gate"; readonly examples: GateExamples; readonly options: GateOptions }
  | { readonly type: "claim"; readonly examples: readonly (readonly LabelledClaim[])[]; readonly options: { alpha: number } }
  | { readonly type: "route"; readonly examples: RouteExamples; readonly options: RouteOptions };

export type Calibrated =
  | CalibratedSet
  | CalibratedOrdinal
  | CalibratedNumericInterval
  | CalibratedBelief
  | CalibratedGate
  | CalibratedClaims
  | CalibratedRoute;

export function calibrate(input: Extract<CalibrateInput, { type: "set" }>): CalibratedSet;
export function calibrate(input: Extract<CalibrateInput, { type: "interval" }>): CalibratedOrdinal;
export function calibrate(input: Extract<CalibrateInput, { type: "numeric-interval" }>): CalibratedNumericInterval;
export function calibrate(input: Extract<CalibrateInput, { type: "belief" }>): CalibratedBelief;
export function calibrate(input: Extract<CalibrateInput, { type: "gate" }>): CalibratedGate;
export function calibrate(input: Extract<CalibrateInput, { type: "claim" }>): CalibratedClaims;
export function calibrate(input: Extract<CalibrateInput, { type: "route" }>): CalibratedRoute;
export function calibrate(input: CalibrateInput): Calibrated;
export function calibrate(input: CalibrateInput): Calibrated {
  switch (input.type) {
    case "set":
      return calibrateSet(input.examples, input.options);
    case "interval":
      return calibrateInterval(input.examples, input.options);
    case "numeric-interval":
      return calibrateNumericInterval(input.examples, input.options);
    case "belief":
      return calibrateBelief(input.examples.scores, input.examples.labels);
    case "gate":
      return calibrateGate(input.examples, input.options);
    case "claim":
      return calibrateClaims(input.examples, input.options);
    case "route":
      return calibrateRoute(input.examples, input.options);
    default:
      throw new ConformalError("INVALID_ARGUMENT", `unknown calibration type "${String((input as { type?: unknown }).type)}"`, { field: "type" });
  }
}

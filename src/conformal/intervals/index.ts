// Face of the prediction intervals: ordinal CQR and ordinal APS over level probabilities, numeric CQR.

export {
  calibrateInterval,
  predictInterval,
  type OrdinalExamples,
  type OrdinalOptions,
  type CalibratedOrdinal,
  type IntervalQuery,
  type IntervalPrediction,
} from "./ordinalInterval.js";
export { ordinalCqrBounds, ordinalApsScores } from "./ordinalRowScores.js";
export { calibrateIntervalBatch, predictIntervalBatch, type IntervalBatch, type IntervalBatchPrediction } from "./intervalColumns.js";
export {
  calibrateNumericInterval,
  predictNumericInterval,
  calibrateNumericIntervalBatch,
  predictNumericIntervalBatch,
  cqrScore,
  type NumericIntervalExamples,
  type CalibratedNumericInterval,
  type NumericIntervalPrediction,
} from "./numericCqr.js";
export { extendInterval, extendNumericInterval, type IntervalExtension } from "./extendInterval.js";

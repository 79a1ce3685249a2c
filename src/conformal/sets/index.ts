// Face of the prediction sets (LAC, APS, RAPS): scores, calibration, the batch kernels, extension.

export {
  calibrateSet,
  calibrateSetSteps,
  predictSet,
  setScores,
  type SetExamples,
  type SetOptions,
  type CalibratedSet,
  type SetQuery,
  type SetPrediction,
} from "./rowListApi.js";
export {
  calibrateSetBatch,
  predictSetBatch,
  type SetBatch,
  type SetCalibrationBatch,
  type SetBatchOptions,
  type SetBatchPrediction,
} from "./columnarApi.js";
export { extendSet, type SetExtension } from "./extendSet.js";
export { RAPS_LAMBDA_GRID, RAPS_DEFAULTS } from "./rapsTuning.js";
export { lacScore, lacOptionScores } from "./scores/lac.js";
export { apsScoreAndRank, apsOptionScores, descendingOrder } from "./scores/aps.js";
export { rapsScore } from "./scores/raps.js";
export { predictSetRows, type RowSets } from "./mixedWidthRows.js";

// Public face of the conformal engine: pure statistics, "scores in, sets out" (docs/conformal.md).
// Nothing here does I/O or imports another folder; randomness is always an injected `rng`.

export { ConformalError, type ConformalErrorCode } from "./errors.js";
export { mulberry32, seedFromString, rngFromString, permutation, type Rng } from "./rng.js";
export { decimalFraction, ceilTimesComplement, floorTimes, ceilTimes } from "./exactDecimal.js";
export {
  conformalRank,
  conformalQuantile,
  conformalPValue,
  orderStatistic,
  sortScores,
  countBelow,
  countBelowIndexed,
  countAtMost,
} from "./quantile.js";
export { minimumN, recommendedN, coverageWithinProbability } from "./sampleSize.js";
export { METHODS, resolveMethod, type MethodInfo, type MethodName, type SetMethod, type IntervalMethod } from "./registry.js";
export type { ProbabilityRows } from "./rows.js";
export type { Stratum } from "./strata.js";

// set
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
} from "./set.js";
export {
  calibrateSetBatch,
  predictSetBatch,
  encodeGroups,
  type GroupCodes,
  type SetBatch,
  type SetCalibrationBatch,
  type SetBatchOptions,
  type SetBatchPrediction,
} from "./setBatch.js";
export { extendSet, mergeAscending, type SetExtension } from "./setExtend.js";
export { settleScoresSteps } from "./strataExtend.js";
export { sortAscending } from "./sortFloat.js";
export { RAPS_LAMBDA_GRID, RAPS_DEFAULTS } from "./rapsTuning.js";
export { lacScore, lacOptionScores } from "./scores/lac.js";
export { apsScoreAndRank, apsOptionScores, descendingOrder } from "./scores/aps.js";
export { rapsScore } from "./scores/raps.js";
export { calibrateOptionBeliefsSteps } from "./vennAbersOptions.js";
export { calibrateOptionBeliefsPooled, calibrateOptionBeliefsPooledSteps } from "./vennAbersPooled.js";
export { predictSetRows, type RowSets } from "./setRows.js";
export { calibrateOptionBeliefs, predictOptionBeliefs, predictOptionBeliefsBatch, type CalibratedOptionBeliefs } from "./vennAbersOptions.js";

// interval
export {
  calibrateInterval,
  predictInterval,
  type OrdinalExamples,
  type OrdinalOptions,
  type CalibratedOrdinal,
  type IntervalQuery,
  type IntervalPrediction,
} from "./ordinal.js";
export { ordinalCqrBounds, ordinalApsScores } from "./ordinalScores.js";
export { calibrateIntervalBatch, predictIntervalBatch, type IntervalBatch, type IntervalBatchPrediction } from "./intervalBatch.js";
export {
  calibrateNumericInterval,
  predictNumericInterval,
  calibrateNumericIntervalBatch,
  predictNumericIntervalBatch,
  cqrScore,
  type NumericIntervalExamples,
  type CalibratedNumericInterval,
  type NumericIntervalPrediction,
} from "./interval.js";
export { extendInterval, extendNumericInterval, type IntervalExtension } from "./intervalExtend.js";

// belief
export { fitVennAbersSteps as calibrateBeliefSteps } from "./vennAbersFit.js";
export { calibrateBelief, predictBelief, predictBeliefBatch, vennAbersReference, type CalibratedBelief, type BeliefPrediction } from "./vennAbers.js";

// gate
export {
  calibrateGate,
  decide,
  decideBatch,
  gatePValue,
  gateLossWeights,
  gateMinimumN,
  gateFailBudget,
  type GateExamples,
  type GateOptions,
  type GateGuarantee,
  type GateDecision,
  type CalibratedGate,
} from "./gate.js";
export { calibrateGateSorted, extendGateScores, NO_GATE_SCORES, type GateScores } from "./gateSorted.js";
export { crcThreshold, budgetThreshold, nextUp, type CrcResult } from "./riskControl.js";
export { hoeffdingBentkusPValue, fixedSequenceRejections, defaultThresholdGrid, lttLossBudget } from "./ltt.js";
export { selectionPValue, selectionPValueCount, benjaminiHochberg, benjaminiHochbergCounts } from "./fdr.js";

// claim
export {
  calibrateClaims,
  extendClaims,
  filterClaims,
  claimExampleScore,
  type ScoredClaim,
  type LabelledClaim,
  type CalibratedClaims,
  type ClaimDecision,
  type ClaimFiltering,
  type ClaimTieBreak,
  type ClaimUniforms,
} from "./claim.js";
export { agreementFrequencies, normalizeClaimText, splitIntoClaims } from "./agreement.js";

// judge and route
export { judgeStage, judgeCascade, HUMAN_QUEUE, type JudgeStageInput, type JudgeStep, type JudgeOutcome } from "./judge.js";
export {
  calibrateRoute,
  routeStep,
  DEFAULT_ROUTE_GRID,
  type RouteExamples,
  type RouteOptions,
  type CalibratedRoute,
} from "./route.js";

// audit, monitor
export { clopperPearson, auditCoverage, type AuditResult } from "./audit.js";
export { createMonitor, updateMonitor, monitorEValue, type MonitorState } from "./monitor.js";

// beta-function helpers (Clopper–Pearson, Bentkus, coverage law)
export { regularizedBeta, inverseRegularizedBeta, binomialCdf, logGamma, logBeta } from "./beta.js";

// workflow verb and persistence
export { calibrate, type CalibrateInput, type Calibrated } from "./calibrate.js";
export { calibratedToJSON, calibratedFromJSON } from "./serialize.js";

// diagnostics of a calibrated run: calibration of forecasts, baseline sets, conditional coverage
export { expectedCalibrationError, brierScore, logLoss, LOG_LOSS_EPS } from "./calibrationMetrics.js";
export { labelRank, smallestTopK, topKSet, cumulativeMassSet } from "./baselineSets.js";
export { coverageByStratum, worstStratumCoverage, type StratumCoverage } from "./stratifiedCoverage.js";

// what the service and a client reproducing its answers calibrate alike: claim examples, rebuild prefixes
export { scoreClaims, claimUniforms, claimExample, type ClaimSample } from "./claimExamples.js";
export { rebuildPrefix, nextPrefix, sizeStep, WHOLE_POOL_UP_TO, MIN_STEP, VENN_ABERS_WINDOW } from "./rebuildSteps.js";

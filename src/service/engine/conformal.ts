// The one door from the service into the conformal engine: every engine file imports from here, so the
// service depends on one list of names (and an adapter, where the engine lacks one, lives beside it).
export {
  calibrateSet, calibrateSetSteps, extendSet, encodeGroups, predictSet, predictSetBatch, type CalibratedSet, type SetPrediction,
  calibrateOptionBeliefs, calibrateOptionBeliefsSteps, calibrateOptionBeliefsPooled, predictOptionBeliefs, predictOptionBeliefsBatch, type CalibratedOptionBeliefs,
  calibrateBelief, calibrateBeliefSteps, predictBelief, type CalibratedBelief,
  calibrateInterval, extendInterval, predictInterval, type CalibratedOrdinal,
  calibrateGate, calibrateGateSorted, extendGateScores, NO_GATE_SCORES, decide, decideBatch, gateLossWeights, gateMinimumN, type CalibratedGate, type GateDecision, type GateGuarantee, type GateScores,
  calibrateClaims, extendClaims, filterClaims, type CalibratedClaims, type LabelledClaim, type ScoredClaim,
  agreementFrequencies, splitIntoClaims, normalizeClaimText, scoreClaims, claimUniforms, claimExample,
  rebuildPrefix, nextPrefix, sizeStep, WHOLE_POOL_UP_TO, MIN_STEP, VENN_ABERS_WINDOW,
  judgeStage, HUMAN_QUEUE, type JudgeStageInput,
  calibrateRoute, routeStep, type CalibratedRoute,
  auditCoverage, clopperPearson,
  createMonitor, updateMonitor, monitorEValue, type MonitorState as EProcessState,
  minimumN, recommendedN,
  seedFromString, mulberry32, rngFromString, permutation, type Rng,
  ConformalError,
} from "../../conformal/index.js";

// Face of risk control: gates (CRC, Learn then Test, conformal selection with BH), claim filtering, judge and
// route cascades.

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
export { calibrateGateSorted, extendGateScores, NO_GATE_SCORES, type GateScores } from "./gateSortedScores.js";
export { crcThreshold, budgetThreshold, nextUp, type CrcResult } from "./conformalRiskControl.js";
export { hoeffdingBentkusPValue, fixedSequenceRejections, defaultThresholdGrid, lttLossBudget } from "./learnThenTest.js";
export { selectionPValue, selectionPValueCount, benjaminiHochberg, benjaminiHochbergCounts } from "./conformalSelection.js";
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
} from "./claimFiltering.js";
export { agreementFrequencies, normalizeClaimText, splitIntoClaims } from "./claimAgreement.js";
// claim examples as the service calibrates on them and a client recomputes them
export { scoreClaims, claimUniforms, claimExample, type ClaimSample } from "./claimExamples.js";
export { judgeStage, judgeCascade, HUMAN_QUEUE, type JudgeStageInput, type JudgeStep, type JudgeOutcome } from "./judgeCascade.js";
export {
  calibrateRoute,
  routeStep,
  DEFAULT_ROUTE_GRID,
  type RouteExamples,
  type RouteOptions,
  type CalibratedRoute,
} from "./routeCascade.js";

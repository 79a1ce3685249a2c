// The public face of calibkit/conformal stays what it was before the engine was split into sub-folders: every
// name src/conformal/index.ts exported at e4b9ed7, listed here as it was (runtime names by kind, type names
// checked by the compiler: `npx tsc -p tsconfig.json --noEmit` fails if one of them is no longer exported).
import { describe, expect, it } from "vitest";
import * as C from "../../src/conformal/index.js";

/** Runtime exports at e4b9ed7, by `typeof` (a class is a function). */
const BEFORE: Record<string, readonly string[]> = {
  function: [
    "ConformalError", "agreementFrequencies", "apsOptionScores", "apsScoreAndRank", "auditCoverage",
    "benjaminiHochberg", "benjaminiHochbergCounts", "binomialCdf", "brierScore", "budgetThreshold", "calibrate",
    "calibrateBelief", "calibrateBeliefSteps", "calibrateClaims", "calibrateGate", "calibrateGateSorted",
    "calibrateInterval", "calibrateIntervalBatch", "calibrateNumericInterval", "calibrateNumericIntervalBatch",
    "calibrateOptionBeliefs", "calibrateOptionBeliefsPooled", "calibrateOptionBeliefsPooledSteps",
    "calibrateOptionBeliefsSteps", "calibrateRoute", "calibrateSet", "calibrateSetBatch", "calibrateSetSteps",
    "calibratedFromJSON", "calibratedToJSON", "ceilTimes", "ceilTimesComplement", "claimExampleScore",
    "clopperPearson", "conformalPValue", "conformalQuantile", "conformalRank", "countAtMost", "countBelow",
    "countBelowIndexed", "coverageByStratum", "coverageWithinProbability", "cqrScore", "crcThreshold",
    "createMonitor", "cumulativeMassSet", "decide", "decideBatch", "decimalFraction", "defaultThresholdGrid",
    "descendingOrder", "encodeGroups", "expectedCalibrationError", "extendClaims", "extendGateScores",
    "extendInterval", "extendNumericInterval", "extendSet", "filterClaims", "fixedSequenceRejections", "floorTimes",
    "gateFailBudget", "gateLossWeights", "gateMinimumN", "gatePValue", "hoeffdingBentkusPValue",
    "inverseRegularizedBeta", "judgeCascade", "judgeStage", "labelRank", "lacOptionScores", "lacScore", "logBeta",
    "logGamma", "logLoss", "lttLossBudget", "mergeAscending", "minimumN", "monitorEValue", "mulberry32", "nextUp",
    "normalizeClaimText", "orderStatistic", "ordinalApsScores", "ordinalCqrBounds", "permutation", "predictBelief",
    "predictBeliefBatch", "predictInterval", "predictIntervalBatch", "predictNumericInterval",
    "predictNumericIntervalBatch", "predictOptionBeliefs", "predictOptionBeliefsBatch", "predictSet",
    "predictSetBatch", "predictSetRows", "rapsScore", "recommendedN", "regularizedBeta", "resolveMethod",
    "rngFromString", "routeStep", "seedFromString", "selectionPValue", "selectionPValueCount", "setScores",
    "settleScoresSteps", "smallestTopK", "sortAscending", "sortScores", "splitIntoClaims", "topKSet",
    "updateMonitor", "vennAbersReference", "worstStratumCoverage",
  ],
  object: [
    "DEFAULT_ROUTE_GRID", "METHODS", "NO_GATE_SCORES", "RAPS_DEFAULTS", "RAPS_LAMBDA_GRID",
  ],
  string: [
    "HUMAN_QUEUE",
  ],
  number: [
    "LOG_LOSS_EPS",
  ],
};

/** Type-only exports at e4b9ed7: each must still be a type of the face, or this file does not compile. */
export type TypesBefore = [
  C.AuditResult,
  C.BeliefPrediction,
  C.CalibrateInput,
  C.Calibrated,
  C.CalibratedBelief,
  C.CalibratedClaims,
  C.CalibratedGate,
  C.CalibratedNumericInterval,
  C.CalibratedOptionBeliefs,
  C.CalibratedOrdinal,
  C.CalibratedRoute,
  C.CalibratedSet,
  C.ClaimDecision,
  C.ClaimFiltering,
  C.ClaimTieBreak,
  C.ClaimUniforms,
  C.ConformalErrorCode,
  C.CrcResult,
  C.GateDecision,
  C.GateExamples,
  C.GateGuarantee,
  C.GateOptions,
  C.GateScores,
  C.GroupCodes,
  C.IntervalBatch,
  C.IntervalBatchPrediction,
  C.IntervalExtension,
  C.IntervalMethod,
  C.IntervalPrediction,
  C.IntervalQuery,
  C.JudgeOutcome,
  C.JudgeStageInput,
  C.JudgeStep,
  C.LabelledClaim,
  C.MethodInfo,
  C.MethodName,
  C.MonitorState,
  C.NumericIntervalExamples,
  C.NumericIntervalPrediction,
  C.OrdinalExamples,
  C.OrdinalOptions,
  C.ProbabilityRows,
  C.Rng,
  C.RouteExamples,
  C.RouteOptions,
  C.RowSets,
  C.ScoredClaim,
  C.SetBatch,
  C.SetBatchOptions,
  C.SetBatchPrediction,
  C.SetCalibrationBatch,
  C.SetExamples,
  C.SetExtension,
  C.SetMethod,
  C.SetOptions,
  C.SetPrediction,
  C.SetQuery,
  C.Stratum,
  C.StratumCoverage,
];

describe("calibkit/conformal's public API", () => {
  it("exports every runtime name it exported before, with the same kind", () => {
    const missing: string[] = [];
    for (const [kind, names] of Object.entries(BEFORE)) {
      for (const name of names) {
        const value = (C as Record<string, unknown>)[name];
        if (typeof value !== kind) missing.push(`${name}: ${typeof value}, was ${kind}`);
      }
    }
    expect(missing).toEqual([]);
  });

  // Added on purpose since: what the service and a client's cross-check both compute (issue 31, point 4).
  const ADDED = ["scoreClaims", "claimUniforms", "claimExample", "rebuildPrefix", "nextPrefix", "sizeStep", "WHOLE_POOL_UP_TO", "MIN_STEP", "VENN_ABERS_WINDOW"];

  it("exports nothing at run time that it did not export before, but the names added on purpose", () => {
    const before = new Set([...Object.values(BEFORE).flat(), ...ADDED]);
    expect(Object.keys(C).filter((name) => !before.has(name))).toEqual([]);
  });
});

// Face of how a calibration holds up: audits, the e-value monitor, and the diagnostics of a calibrated run.

export { clopperPearson, auditCoverage, type AuditResult } from "./coverageAudit.js";
export { createMonitor, updateMonitor, monitorEValue, type MonitorState } from "./eValueMonitor.js";
// diagnostics of a calibrated run: calibration of forecasts, baseline sets, conditional coverage
export { expectedCalibrationError, brierScore, logLoss, LOG_LOSS_EPS } from "./calibrationMetrics.js";
export { labelRank, smallestTopK, topKSet, cumulativeMassSet } from "./baselineSets.js";
export { coverageByStratum, worstStratumCoverage, type StratumCoverage } from "./stratifiedCoverage.js";

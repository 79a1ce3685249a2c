// Public face of the conformal engine: pure statistics, "scores in, sets out" (docs/conformal.md).
// Nothing here does I/O or imports another folder; randomness is always an injected `rng`. Each sub-folder
// holds one kind of computation behind its own index.ts (docs/architecture.md draws the map).

export { ConformalError, type ConformalErrorCode } from "./errors.js";
export { METHODS, resolveMethod, type MethodInfo, type MethodName, type SetMethod, type IntervalMethod } from "./registry.js";

// order statistics, exact decimals, sorting, beta function, sample sizes, seeded random sources
export * from "./numeric/index.js";
// probability rows and group codes; Mondrian strata
export * from "./rows/index.js";
export * from "./strata/index.js";
// prediction sets: LAC, APS, RAPS
export * from "./sets/index.js";
// prediction intervals: ordinal CQR, ordinal APS, numeric CQR
export * from "./intervals/index.js";
// calibrated probabilities: Venn–Abers
export * from "./beliefs/index.js";
// gates, claims, judge and route cascades
export * from "./risk/index.js";
// audits, monitors, diagnostics
export * from "./monitoring/index.js";

// workflow verb and persistence
export { calibrate, type CalibrateInput, type Calibrated } from "./calibrate.js";
export { calibratedToJSON, calibratedFromJSON } from "./serialize.js";

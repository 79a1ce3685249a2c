// The set and option-belief API alone, a second door into this folder for callers that must start fast:
// index.ts loads the whole engine (about 70 modules), which took a third of the `calibkit conformal set`
// process's start-up; this face loads the set kernels and Venn–Abers only. Same functions as index.ts's.

export { ConformalError, type ConformalErrorCode } from "./errors.js";
export { mulberry32, seedFromString, type Rng } from "./numeric/rng.js";
export { minimumN } from "./numeric/sampleSize.js";
export type { Stratum } from "./strata/mondrianStrata.js";
export { calibrateSet, predictSet, type SetOptions, type CalibratedSet } from "./sets/rowListApi.js";
export { calibrateSetBatch, predictSetBatch, type GroupCodes } from "./sets/columnarApi.js";
export { calibrateOptionBeliefs, predictOptionBeliefs, predictOptionBeliefsBatch } from "./beliefs/optionBeliefs.js";

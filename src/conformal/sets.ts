// The set and option-belief API alone, a second door into this folder for callers that must start fast:
// index.ts loads the whole engine (about 50 modules), which took a third of the `calibkit conformal set`
// process's start-up; this face loads the set kernels and Venn–Abers only. Same functions as index.ts's.

export { ConformalError, type ConformalErrorCode } from "./errors.js";
export { mulberry32, seedFromString, type Rng } from "./rng.js";
export { minimumN } from "./sampleSize.js";
export type { Stratum } from "./strata.js";
export { calibrateSet, predictSet, type SetOptions, type CalibratedSet } from "./set.js";
export { calibrateSetBatch, predictSetBatch, type GroupCodes } from "./setBatch.js";
export { calibrateOptionBeliefs, predictOptionBeliefs, predictOptionBeliefsBatch } from "./vennAbersOptions.js";

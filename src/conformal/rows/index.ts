// Face of the engine's inputs: probability rows (a list of rows or one flat strided array) and group codes.

export type { ProbabilityRows } from "./probabilityRows.js";
export { encodeGroups, type GroupCodes } from "./groupCodes.js";
// the rows of a growing pool a rebuilt calibration uses, the same for every service instance and client
export { rebuildPrefix, nextPrefix, sizeStep, WHOLE_POOL_UP_TO, MIN_STEP, VENN_ABERS_WINDOW } from "./rebuildPrefix.js";

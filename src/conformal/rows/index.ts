// Face of the engine's inputs: probability rows (a list of rows or one flat strided array) and group codes.

export type { ProbabilityRows } from "./probabilityRows.js";
export { encodeGroups, type GroupCodes } from "./groupCodes.js";

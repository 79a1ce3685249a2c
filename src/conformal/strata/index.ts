// Face of Mondrian strata: each group's sorted calibration scores, and their extension by later batches.

export type { Stratum } from "./mondrianStrata.js";
export { settleScoresSteps, mergeAscending } from "./extendStrata.js";

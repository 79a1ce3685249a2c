// Face of the numeric helpers every method stands on: the split-conformal order statistic, exact decimals,
// selection and sorting of doubles, the incomplete beta function, sample-size rules and seeded random sources.

export { mulberry32, seedFromString, rngFromString, permutation, type Rng } from "./rng.js";
export { decimalFraction, ceilTimesComplement, floorTimes, ceilTimes } from "./exactDecimal.js";
export {
  conformalRank,
  conformalQuantile,
  conformalPValue,
  orderStatistic,
  sortScores,
  countBelow,
  countBelowIndexed,
  countAtMost,
} from "./orderStatistic.js";
export { minimumN, recommendedN, coverageWithinProbability } from "./sampleSize.js";
export { sortAscending } from "./sortAscending.js";
// beta-function helpers (Clopper–Pearson, Bentkus, coverage law)
export { regularizedBeta, inverseRegularizedBeta, binomialCdf, logGamma, logBeta } from "./incompleteBeta.js";

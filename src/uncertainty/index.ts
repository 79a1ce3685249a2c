// Public face of the uncertainty scores for free-form answers (docs/uncertainty.md): lm-polygraph's estimators as
// pure functions of one item's statistics, semantic classes, the confidence maps, and the metrics that rank scores.
// Nothing here does I/O or calls a model; ml-matrix is the one package (symmetric eigen-decomposition).

export {
  ACCESS_LEVELS, STATISTIC_LEVEL, STATISTIC_NAMES, levelOf,
  type AccessLevel, type ItemStatistics, type SemanticClasses, type SquareMatrix, type StatisticName,
} from "./statistics.js";
export { DERIVATIONS, available, withDerived, tokenEntropies } from "./derived.js";
export { semanticClasses, entailmentJudge, isEntailment, type EquivalenceJudge } from "./semanticClasses.js";
export { CONFIDENCE_MAPS, type ConfidenceMap, type ConfidenceMapName } from "./confidence.js";
export { defineScorer, scorerKey, scoreEvidence, type Scorer, type ScorerDefinition, type ScorerSettings } from "./scorer.js";
export { SCORERS, scorerByName } from "./registry.js";
export { scoreItem, type ItemScores } from "./scoreItem.js";

export { maximumSequenceProbability } from "./scorers/maximumSequenceProbability.js";
export { perplexity } from "./scorers/perplexity.js";
export { meanTokenEntropy } from "./scorers/meanTokenEntropy.js";
export { selfCertainty } from "./scorers/selfCertainty.js";
export { renyiNeg, renyiNegScorer, type RenyiNegOptions } from "./scorers/renyiNeg.js";
export { fisherRao, fisherRaoScorer } from "./scorers/fisherRao.js";
export { monteCarloSequenceEntropy } from "./scorers/monteCarloSequenceEntropy.js";
export { monteCarloNormalizedSequenceEntropy } from "./scorers/monteCarloNormalizedSequenceEntropy.js";
export { semanticEntropy, semanticEntropyScorer, type SemanticEntropyOptions } from "./scorers/semanticEntropy.js";
export { lexicalSimilarity, lexicalSimilarityScorer, type LexicalMetric } from "./scorers/lexicalSimilarity.js";
export { numSemSets } from "./scorers/numSemSets.js";
export { eigValLaplacian, eigValLaplacianScorer } from "./scorers/eigValLaplacian.js";
export { degMat, degMatScorer } from "./scorers/degMat.js";
export { eccentricity, eccentricityScorer } from "./scorers/eccentricity.js";
export { pTrue } from "./scorers/pTrue.js";
export { eigenScore, eigenScoreScorer } from "./scorers/eigenScore.js";
export { verbalized1S, verbalized1SScorer, type Verbalized1SOptions } from "./scorers/verbalized1S.js";
export { cocoaMSP, cocoaPPL, cocoaMTE } from "./scorers/cocoa.js";
export { jaccardMatrix, similarityMatrix, normalizedLaplacian, type GraphOptions, type SimilarityScore, type Affinity } from "./similarityGraph.js";

export { rougeScore, rougeTokens, type RougeType } from "./text/rougeScore.js";
export { porterStem } from "./text/porterStemmer.js";
export { sentenceBleu } from "./text/sentenceBleu.js";

export { prepareForMetrics, normalizeTarget } from "./metrics/prepare.js";
export { rocAuc, prAuc } from "./metrics/rocAuc.js";
export { predictionRejectionArea, predictionRejectionRatio } from "./metrics/predictionRejection.js";
export { riskCoverageCurve, riskCoverageCurveAuc, type RiskCoverageCurve } from "./metrics/riskCoverage.js";
export { expectedCalibrationError } from "./metrics/ece.js";
export { spearmanCorrelation, kendallTau, averageRanks } from "./metrics/rankCorrelation.js";

// Every scorer under its lm-polygraph name, with lm-polygraph's defaults; the option variants lm-polygraph names
// apart (ROUGE/BLEU, NLI entail/contra/Jaccard, empirical semantic entropy) are entries of their own.
import type { Scorer } from "./scorer.js";
import { maximumSequenceProbability } from "./scorers/maximumSequenceProbability.js";
import { perplexity } from "./scorers/perplexity.js";
import { meanTokenEntropy } from "./scorers/meanTokenEntropy.js";
import { selfCertainty } from "./scorers/selfCertainty.js";
import { renyiNeg } from "./scorers/renyiNeg.js";
import { fisherRao } from "./scorers/fisherRao.js";
import { monteCarloSequenceEntropy } from "./scorers/monteCarloSequenceEntropy.js";
import { monteCarloNormalizedSequenceEntropy } from "./scorers/monteCarloNormalizedSequenceEntropy.js";
import { semanticEntropyScorer } from "./scorers/semanticEntropy.js";
import { lexicalSimilarityScorer } from "./scorers/lexicalSimilarity.js";
import { numSemSets } from "./scorers/numSemSets.js";
import { eigValLaplacianScorer } from "./scorers/eigValLaplacian.js";
import { degMatScorer } from "./scorers/degMat.js";
import { eccentricityScorer } from "./scorers/eccentricity.js";
import { pTrue } from "./scorers/pTrue.js";
import { eigenScore } from "./scorers/eigenScore.js";
import { verbalized1S } from "./scorers/verbalized1S.js";
import { cocoaMSP, cocoaPPL, cocoaMTE } from "./scorers/cocoa.js";
import type { GraphOptions } from "./similarityGraph.js";

const GRAPHS: GraphOptions[] = [
  { similarity_score: "NLI_score", affinity: "entail" },
  { similarity_score: "NLI_score", affinity: "contra" },
  { similarity_score: "Jaccard_score" },
];

/** The scorers in the order `calibkit scores` prints them. */
export const SCORERS: readonly Scorer[] = Object.freeze([
  maximumSequenceProbability,
  perplexity,
  meanTokenEntropy,
  selfCertainty,
  renyiNeg,
  fisherRao,
  monteCarloSequenceEntropy,
  monteCarloNormalizedSequenceEntropy,
  semanticEntropyScorer(),
  semanticEntropyScorer({ class_probability_estimation: "frequency" }),
  ...(["rougeL", "rouge1", "rouge2", "BLEU"] as const).map((metric) => lexicalSimilarityScorer({ metric })),
  numSemSets,
  ...GRAPHS.map(eigValLaplacianScorer),
  ...GRAPHS.map(degMatScorer),
  ...GRAPHS.map(eccentricityScorer),
  pTrue,
  eigenScore,
  verbalized1S,
  cocoaMSP,
  cocoaPPL,
  cocoaMTE,
]);

const BY_NAME = new Map(SCORERS.map((s) => [s.name, s]));

/** The registered scorer of that lm-polygraph name, or undefined. */
export function scorerByName(name: string): Scorer | undefined {
  return BY_NAME.get(name);
}

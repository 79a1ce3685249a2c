// lm-polygraph's statistics that come straight out of the generation (its GreedyProbsCalculator,
// SamplingGenerationCalculator, EntropyCalculator and embeddings), under its names, for one item.
import type { ItemStatistics } from "../../uncertainty/index.js";
import { fromBase64, type StoredGeneration, type StoredSequence } from "./storedGeneration.js";

/** Entropy (nats) of the top-k alternatives as given: the L1 stand-in for the full distribution's. */
export function topKEntropy(top: Record<string, number>): number {
  let h = 0;
  for (const lp of Object.values(top)) if (Number.isFinite(lp)) h -= lp * Math.exp(lp);
  return h;
}

function greedyEntropy(g: StoredSequence): number[] | undefined {
  if (g.entropies) return g.entropies;
  if (g.topLogProbs && g.topLogProbs.length === g.tokens.length) return g.topLogProbs.map(topKEntropy);
  return undefined;
}

const allHave = <K extends keyof StoredSequence>(list: readonly StoredSequence[], key: K): boolean =>
  list.length > 0 && list.every((s) => s[key] !== undefined);

/** Every statistic the generation itself carries; the judged ones (judgedStatistics.ts) are added beside. */
export function sequenceStatistics(g: StoredGeneration): ItemStatistics {
  const stats: ItemStatistics = {
    greedy_texts: g.greedy.text,
    sample_texts: g.samples.map((s) => s.text),
    sample_tokens: g.samples.map((s) => new Float64Array(s.tokens.length)),
  };
  if (g.greedy.logProbs) stats.greedy_log_likelihoods = Float64Array.from(g.greedy.logProbs);
  const entropy = greedyEntropy(g.greedy);
  if (entropy) stats.entropy = Float64Array.from(entropy);
  if (g.greedy.distributions) stats.greedy_log_probs = g.greedy.distributions.map(fromBase64);
  if (allHave(g.samples, "logProbs")) stats.sample_log_likelihoods = g.samples.map((s) => Float64Array.from(s.logProbs!));
  if (allHave(g.samples, "embedding")) stats.sample_embeddings = g.samples.map((s) => Float64Array.from(s.embedding!));
  return stats;
}

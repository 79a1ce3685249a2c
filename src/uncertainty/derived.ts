// Statistics that follow from others, each computed once per item whatever number of scorers read it
// (lm-polygraph's stat calculators that need no model: EntropyCalculator, SemanticClassesCalculator, and the
// sums its SamplingGenerationCalculator returns beside the per-token values).
import { entailmentJudge, semanticClasses } from "./semanticClasses.js";
import type { ItemStatistics, StatisticName } from "./statistics.js";

interface Derivation {
  from: readonly StatisticName[];
  compute(stats: ItemStatistics): ItemStatistics[StatisticName];
}

/** Entropy of each next-token distribution over its finite entries (lm-polygraph's EntropyCalculator). */
export function tokenEntropies(logProbs: readonly ArrayLike<number>[]): Float64Array {
  const out = new Float64Array(logProbs.length);
  for (let t = 0; t < logProbs.length; t++) {
    const lp = logProbs[t]!;
    let h = 0;
    for (let v = 0; v < lp.length; v++) {
      const x = lp[v]!;
      if (x !== -Infinity && x !== Infinity) h -= x * Math.exp(x);
    }
    out[t] = h;
  }
  return out;
}

/**
 * Each derived statistic and what it is derived from. `sample_log_probs` as the sum of the per-token values
 * leaves out the end-of-sequence token that lm-polygraph's sampler also counts: give it to match exactly.
 */
export const DERIVATIONS: Partial<Record<StatisticName, Derivation>> = {
  entropy: { from: ["greedy_log_probs"], compute: (s) => tokenEntropies(s.greedy_log_probs!) },
  sample_log_probs: {
    from: ["sample_log_likelihoods"],
    compute: (s) => Float64Array.from(s.sample_log_likelihoods!, (ll) => {
      let sum = 0;
      for (let t = 0; t < ll.length; t++) sum += ll[t]!;
      return sum;
    }),
  },
  sample_tokens: { from: ["sample_log_likelihoods"], compute: (s) => s.sample_log_likelihoods! },
  semantic_classes_entail: {
    from: ["semantic_matrix_entail", "semantic_matrix_contra"],
    compute: (s) => semanticClasses(s.semantic_matrix_entail!.length, entailmentJudge(s.semantic_matrix_entail!, s.semantic_matrix_contra!)),
  },
};

/** Whether `name` is present in `stats` or derivable from what is. */
export function available(stats: ItemStatistics, name: StatisticName): boolean {
  if (stats[name] !== undefined) return true;
  const d = DERIVATIONS[name];
  return d !== undefined && d.from.every((f) => available(stats, f));
}

/** `stats` with every statistic in `names` that is absent but derivable filled in (a new object; input untouched). */
export function withDerived(stats: ItemStatistics, names: Iterable<StatisticName>): ItemStatistics {
  let out: ItemStatistics | undefined;
  const fill = (name: StatisticName): void => {
    const cur = out ?? stats;
    if (cur[name] !== undefined) return;
    const d = DERIVATIONS[name];
    if (!d || !d.from.every((f) => available(cur, f))) return;
    for (const f of d.from) fill(f);
    out ??= { ...stats };
    (out as Record<string, unknown>)[name] = d.compute(out);
  };
  for (const n of names) fill(n);
  return out ?? stats;
}

// The statistics a scorer reads, under lm-polygraph's own names (its stat_calculators/), each with the lowest
// access level at which a backend yields it. A scorer's level is the highest level among its statistics.

/** Access levels of the evaluation spec, lowest first (L0 = text only … L4 = hidden states). */
export const ACCESS_LEVELS = ["L0", "L1", "L2", "L3", "L4"] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** A K×K matrix as its rows (row i, column j: sample i against sample j). */
export type SquareMatrix = readonly ArrayLike<number>[];

/** lm-polygraph's `semantic_classes_entail`: each sample's class and each class's samples, first member first. */
export interface SemanticClasses {
  sample_to_class: readonly number[];
  class_to_sample: readonly (readonly number[])[];
}

/**
 * One item's statistics (lm-polygraph keeps a batch; here each field is one item's entry of it). Every field is
 * optional: a scorer runs when the statistics it declares are present or derivable (derived.ts).
 */
export interface ItemStatistics {
  /** The greedy (or chosen) answer's text; Verbalized1S reads the stated confidence from it. */
  greedy_texts?: string;
  /** log p(y_t | y_<t, x) of each generated token of the greedy answer. */
  greedy_log_likelihoods?: ArrayLike<number>;
  /** Entropy of the next-token distribution at each generated token (exact from greedy_log_probs, else top-k). */
  entropy?: ArrayLike<number>;
  /** The full next-token log-distribution at each generated token (T rows of V entries; −∞ allowed). */
  greedy_log_probs?: readonly ArrayLike<number>[];
  /** K sampled answers. */
  sample_texts?: readonly string[];
  /** log p(sample k | x): each sample's summed token log-probabilities. */
  sample_log_probs?: ArrayLike<number>;
  /** Each sample's per-token log-probabilities. */
  sample_log_likelihoods?: readonly ArrayLike<number>[];
  /** Each sample's token ids (only their count is read). */
  sample_tokens?: readonly ArrayLike<number>[];
  /** P(sample i entails sample j) from an NLI model, K×K. */
  semantic_matrix_entail?: SquareMatrix;
  /** P(sample i contradicts sample j) from an NLI model, K×K. */
  semantic_matrix_contra?: SquareMatrix;
  /** Classes of mutually entailing samples (derived from the two matrices when absent). */
  semantic_classes_entail?: SemanticClasses;
  /** Similarity of the greedy answer to each of the K samples (CoCoA; lm-polygraph: a cross-encoder). */
  greedy_sentence_similarity?: ArrayLike<number>;
  /** log p("True") after the P(True) prompt (lm-polygraph's `p_true` is this log-probability). */
  p_true?: number;
  /** One embedding per sample, K×d (lm-polygraph: the middle layer at the last generated token). */
  sample_embeddings?: readonly ArrayLike<number>[];
}

export type StatisticName = keyof ItemStatistics;

/** The lowest access level at which each statistic is available (a text-only NLI or similarity model is L0). */
export const STATISTIC_LEVEL: Readonly<Record<StatisticName, AccessLevel>> = {
  greedy_texts: "L0",
  sample_texts: "L0",
  sample_tokens: "L0",
  semantic_matrix_entail: "L0",
  semantic_matrix_contra: "L0",
  semantic_classes_entail: "L0",
  greedy_sentence_similarity: "L0",
  greedy_log_likelihoods: "L1",
  entropy: "L1",
  sample_log_probs: "L1",
  sample_log_likelihoods: "L1",
  p_true: "L1",
  greedy_log_probs: "L3",
  sample_embeddings: "L4",
};

export const STATISTIC_NAMES = Object.keys(STATISTIC_LEVEL) as StatisticName[];

/** The lowest level at which every one of `statistics` is available. */
export function levelOf(statistics: readonly StatisticName[]): AccessLevel {
  let rank = 0;
  for (const s of statistics) rank = Math.max(rank, ACCESS_LEVELS.indexOf(STATISTIC_LEVEL[s]));
  return ACCESS_LEVELS[rank]!;
}

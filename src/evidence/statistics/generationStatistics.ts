// One item's statistics for every requested scorer, computed once (lm-polygraph's stat calculators run once per
// batch for all estimators): the scorers the adapter's level allows decide what is generated (top-k alternatives,
// full distributions, embeddings) and what is judged; the result is plain JSON for the evidence cache.
import type { GenerateOptions, ModelAdapter } from "../../adapters/index.js";
import { EvidenceError } from "../errors.js";
import { levelRank, type AccessLevel } from "../../api/index.js";
import { available, DERIVATIONS, type ItemStatistics, type Scorer, type StatisticName } from "../../uncertainty/index.js";
import { judgedStatistics, JUDGED_STATISTICS, type JudgedStatistics, type JudgeOptions } from "./judgedStatistics.js";
import { sequenceStatistics } from "./sequenceStatistics.js";
import { storeGeneration, type StoredGeneration } from "./storedGeneration.js";

/** The sampling settings of a generation run (all part of the evidence cache key). */
export type SamplingSettings = Pick<GenerateOptions, "samples" | "temperature" | "topP" | "topK" | "seed" | "maxTokens">;

/** Top-k alternatives kept per token below L3, where the entropy is taken over them. */
export const TOP_LOGPROBS = 10;

/** The level the judge needs (the model scores its own yes/no prompts). */
const JUDGED_LEVEL: AccessLevel = "L1";

/** The scorers whose statistics a backend at `level` can give (their own level, and L1+ where they are judged). */
export function scorersAt(level: AccessLevel, scorers: readonly Scorer[]): Scorer[] {
  const rank = levelRank(level);
  return scorers.filter((s) => levelRank(s.level) <= rank && s.statistics.every((n) => !needsJudge(n) || rank >= levelRank(JUDGED_LEVEL)));
}

function needsJudge(name: StatisticName): boolean {
  if (JUDGED_STATISTICS.includes(name)) return true;
  const d = DERIVATIONS[name];
  return d !== undefined && d.from.every(needsJudge);
}

/**
 * Every statistic the scorers declare. What could be derived from others is not added: the generation gives
 * entropies and sample log-probabilities itself, and classes are judged by representatives unless a scorer
 * reads the whole entailment matrix.
 */
export function neededStatistics(scorers: readonly Scorer[]): Set<StatisticName> {
  const out = new Set<StatisticName>();
  for (const s of scorers) for (const n of s.statistics) out.add(n);
  return out;
}

/** What generate is asked for, from the statistics needed and the level. */
export function generateOptionsFor(level: AccessLevel, needed: ReadonlySet<StatisticName>, sampling: SamplingSettings, stop: readonly string[]): GenerateOptions {
  const rank = levelRank(level);
  return {
    ...sampling, stop: [...stop],
    ...(rank >= 1 && rank < 3 && needed.has("entropy") ? { topLogprobs: TOP_LOGPROBS } : {}),
    ...(rank >= 3 && needed.has("greedy_log_probs") ? { fullDistribution: true } : {}),
    ...(rank >= 4 && needed.has("sample_embeddings") ? { embedding: true } : {}),
  };
}

/** One item's cached statistics: the generation and what the model judged about it. */
export interface StoredStatistics {
  generation: StoredGeneration;
  judged: JudgedStatistics;
}

export interface ItemInput {
  /** Exactly the text the model is given. */
  prompt: string;
  rendered: boolean;
  /** The question the judge and P(True) prompts name (lm-polygraph's input text): the task's prompt before chat. */
  question: string;
  until: readonly string[];
}

export async function generationStatistics(
  adapter: ModelAdapter, item: ItemInput, scorers: readonly Scorer[], sampling: SamplingSettings, judge: JudgeOptions = {},
): Promise<StoredStatistics> {
  if (!adapter.generate) throw new EvidenceError(`the ${adapter.provider} adapter (${adapter.model}) cannot generate free-form answers`, "model");
  const needed = neededStatistics(scorersAt(adapter.accessLevel, scorers));
  const options = generateOptionsFor(adapter.accessLevel, needed, sampling, item.until);
  const result = await adapter.generate(item.prompt, { ...options, rendered: item.rendered, ...(judge.signal ? { signal: judge.signal } : {}) });
  const generation = storeGeneration(result);
  const judged = await judgedStatistics(adapter, item.question, generation, needed, judge);
  return { generation, judged };
}

/** The statistics of a cached row, under lm-polygraph's names. */
export function itemStatistics(row: StoredStatistics): ItemStatistics {
  const { judgeCalls: _calls, ...judged } = row.judged;
  return { ...sequenceStatistics(row.generation), ...judged };
}

/** Of `names`, those the row's statistics hold or derive. */
export const statisticsPresent = (row: StoredStatistics, names: readonly StatisticName[]): StatisticName[] =>
  names.filter((n) => available(itemStatistics(row), n));

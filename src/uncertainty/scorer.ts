// A scorer is lm-polygraph's Estimator(stats_dependencies, level) made a value: its `str()` name, the statistics
// it declares, the access level that follows from them, its settings, its confidence map and a pure function
// from one item's statistics to an uncertainty (higher = more uncertain).
import { CONFIDENCE_MAPS, type ConfidenceMap, type ConfidenceMapName } from "./confidence.js";
import { levelOf, type AccessLevel, type ItemStatistics, type StatisticName } from "./statistics.js";

export type ScorerSettings = Readonly<Record<string, string | number | boolean>>;

export interface Scorer {
  /** lm-polygraph's `str(estimator)`, settings included where it includes them. */
  readonly name: string;
  /** The statistics it reads (lm-polygraph's stats_dependencies, same names and order). */
  readonly statistics: readonly StatisticName[];
  /** The lowest access level its statistics allow. */
  readonly level: AccessLevel;
  /** Every setting that changes its value, defaults included (part of a profile's prompt_template_hash). */
  readonly settings: ScorerSettings;
  /** The monotone map from its value to a confidence in [0, 1]. */
  readonly confidence: ConfidenceMap;
  /** The uncertainty of one item; NaN where lm-polygraph's value is undefined (a mean of nothing). */
  score(stats: ItemStatistics): number;
}

export interface ScorerDefinition {
  name: string;
  statistics: readonly StatisticName[];
  settings?: ScorerSettings;
  confidence: ConfidenceMapName;
  score(stats: ItemStatistics): number;
}

export function defineScorer(d: ScorerDefinition): Scorer {
  return Object.freeze({
    name: d.name,
    statistics: Object.freeze([...d.statistics]),
    level: levelOf(d.statistics),
    settings: Object.freeze({ ...(d.settings ?? {}) }),
    confidence: CONFIDENCE_MAPS[d.confidence],
    score: d.score,
  });
}

/** The scorer's identity for hashing: name and settings in a fixed order, so a mix of scorers never matches. */
export function scorerKey(s: Scorer): string {
  const keys = Object.keys(s.settings).sort();
  return JSON.stringify([s.name, keys.map((k) => [k, s.settings[k]])]);
}

/** A score as belief / gate evidence: the confidence as p(yes), its complement as p(no). */
export function scoreEvidence(s: Scorer, value: number): { option_probabilities: { yes: number; no: number } } {
  const c = s.confidence(value);
  return { option_probabilities: { yes: c, no: 1 - c } };
}

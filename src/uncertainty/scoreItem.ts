// One item through many scorers: the derived statistics they need are computed once, then each scorer whose
// statistics are all there gives its value; the others are named, never dropped in silence.
import { available, withDerived } from "./derived.js";
import type { Scorer } from "./scorer.js";
import type { ItemStatistics, StatisticName } from "./statistics.js";

export interface ItemScores {
  /** Scorer name → uncertainty, for every scorer whose statistics were present or derivable. */
  scores: Record<string, number>;
  /** Scorer name → the statistics it lacked. */
  missing: Record<string, StatisticName[]>;
}

export function scoreItem(stats: ItemStatistics, scorers: readonly Scorer[]): ItemScores {
  const needed = new Set<StatisticName>();
  for (const s of scorers) for (const n of s.statistics) needed.add(n);
  const full = withDerived(stats, needed);
  const scores: Record<string, number> = {};
  const missing: Record<string, StatisticName[]> = {};
  for (const s of scorers) {
    const absent = s.statistics.filter((n) => !available(full, n));
    if (absent.length > 0) missing[s.name] = absent;
    else scores[s.name] = s.score(full);
  }
  return { scores, missing };
}

// Coverage conditional on a stratum — the true class, a group, the set size (size-stratified coverage,
// Angelopoulos et al. 2021, §4) — each with its Clopper–Pearson interval, so that an under-covered class
// is told from a small one. Marginal validity says nothing about any of them.

import { clopperPearson } from "./coverageAudit.js";
import { invalid } from "../errors.js";

export interface StratumCoverage {
  key: string;
  n: number;
  covered: number;
  coverage: number;
  averageSize: number;
  /** Clopper–Pearson interval of the stratum's coverage at `confidence`. */
  ci: [number, number];
}

/** Strata in key order (numeric keys numerically); `covered[i]` is 1 when item i's set held its label. */
export function coverageByStratum(
  keys: readonly string[], covered: ArrayLike<number>, sizes: ArrayLike<number>, confidence = 0.95,
): StratumCoverage[] {
  if (keys.length !== covered.length || keys.length !== sizes.length) {
    throw invalid(`keys, covered and sizes must have one entry per item (${keys.length}, ${covered.length}, ${sizes.length})`, "keys");
  }
  const acc = new Map<string, { n: number; covered: number; size: number }>();
  for (let i = 0; i < keys.length; i++) {
    const a = acc.get(keys[i]!) ?? { n: 0, covered: 0, size: 0 };
    a.n++;
    a.covered += covered[i] ? 1 : 0;
    a.size += sizes[i]!;
    acc.set(keys[i]!, a);
  }
  const numeric = [...acc.keys()].every((k) => /^-?\d+$/.test(k));
  return [...acc]
    .sort(([a], [b]) => (numeric ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0))
    .map(([key, a]) => ({ key, n: a.n, covered: a.covered, coverage: a.covered / a.n, averageSize: a.size / a.n, ci: clopperPearson(a.covered, a.n, confidence) }));
}

/** The smallest coverage over strata with at least `minCount` items (SSC when the strata are set sizes); NaN when none. */
export function worstStratumCoverage(strata: readonly StratumCoverage[], minCount = 1): number {
  const kept = strata.filter((s) => s.n >= minCount);
  return kept.length ? Math.min(...kept.map((s) => s.coverage)) : NaN;
}

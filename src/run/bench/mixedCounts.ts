// One repeat of a suite cell over a set task whose items differ in option count: one calibration across
// counts (or one per count, Mondrian, when the task asks), each test item's set over its own options, and
// Venn–Abers beliefs fitted over every option of every calibration item (metrics.ts does the rest).
import {
  calibrateOptionBeliefsPooled, calibrateSet, labelRank, minimumN, predictOptionBeliefs, predictSetRows, recommendedN, rngFromString,
} from "../../conformal/index.js";
import type { RunStatistics } from "../../report/index.js";
import type { BeliefPair } from "../analysis.js";
import { runStatistics, type AnsweredItem } from "../statistics.js";

export type RepeatOutcome = { stats: RunStatistics; covered: number; sizes: Int32Array; correct: number };

/** What a repeat reads of its cell (metrics.ts CellInput). */
interface MixedCell {
  task: string;
  method: string;
  alpha: number;
  seed: number;
  labels: Int32Array;
  names: readonly (readonly string[])[];
  groups: readonly (string | undefined)[];
  byOptionCount?: boolean;
}

export function mixedRepeat(x: MixedCell, rows: readonly Float64Array[], r: number, split: { cal: Int32Array; test: Int32Array }): RepeatOutcome {
  const calRows = Array.from(split.cal, (i) => rows[i]!);
  const calLabels = Array.from(split.cal, (i) => x.labels[i]!);
  const testRows = Array.from(split.test, (i) => rows[i]!);
  const countOf = (row: Float64Array) => String(row.length);
  const rng = rngFromString(`${x.seed}/${x.task}/repeat-${r}/${x.method}/${x.alpha}`);
  const c = calibrateSet({ probabilities: calRows, labels: calLabels, ...(x.byOptionCount ? { groups: calRows.map(countOf) } : {}) }, { method: x.method, alpha: x.alpha, rng });
  const p = predictSetRows(c, testRows, { rng, ...(x.byOptionCount ? { groups: testRows.map(countOf) } : {}) });
  // Mondrian: the largest per-count threshold stands for the cell (each count has its own).
  const strata = [...c.strata.values()].sort((a, b) => b.threshold - a.threshold);
  const fitted = { score: strata[0]?.threshold ?? Infinity, k: strata[0]?.k ?? 0 };
  const m = testRows.length;
  const hit = Uint8Array.from(split.test, (item, i) => p.membership[i]![x.labels[item]!]!);
  const answered: AnsweredItem[] = Array.from(split.test, (item, i) => ({
    probabilities: Array.from(testRows[i]!), label: x.labels[item]!, names: x.names[item]!, size: p.sizes[i]!, covered: hit[i] === 1,
    ...(x.groups[item] !== undefined ? { group: x.groups[item] } : {}),
  }));
  const beliefs = calibrateOptionBeliefsPooled({ probabilities: calRows, labels: calLabels });
  const pairs: BeliefPair[] = [];
  testRows.forEach((row, i) => predictOptionBeliefs(beliefs, row).forEach((b, j) => pairs.push({ p0: b.p0, p1: b.p1, gold: answered[i]!.label === j })));
  const stats = runStatistics({
    type: "set", method: x.method, alpha: x.alpha, seed: `${x.seed}/${x.task}/repeat-${r}`, fitted,
    calibration: calRows.map((row, i) => ({ probabilities: Array.from(row), label: calLabels[i]! })),
    test: answered, pairs, profile: { n: calRows.length, minimumN: minimumN(x.alpha), recommendedN: recommendedN(x.alpha) },
  });
  let correct = 0;
  for (const t of answered) if (labelRank(t.probabilities, t.label) === 1) correct++;
  return { stats, covered: hit.reduce((a, b) => a + b, 0), sizes: p.sizes.slice(0, m), correct };
}

// Gate calibrations from scores kept sorted by label, so that a profile's next batch is merged in
// (strata/extendStrata.ts) instead of re-sorting every score: with per-label losses whose sums are exact in floating
// point (whole numbers; for Learn then Test, 0 or the bound), CRC's threshold is the largest score whose
// approved loss L(≥ s) exceeds the budget (a search over the sorted scores), Learn then Test's the same search
// with the budget of approved losses its p-values allow (learnThenTest.ts; on a caller's grid, a count per point), and conformal selection's threshold an order statistic of the fails. Each equals calibrateGate on
// the same examples, field by field; other losses are left to calibrateGate.

import { checkUnitOpen, invalid } from "../errors.js";
import { floorTimes } from "../numeric/exactDecimal.js";
import type { CalibratedGate, GateOptions } from "./gateTypes.js";
import { fixedSequenceRejections, hoeffdingBentkusPValue, lttLossBudget } from "./learnThenTest.js";
import { countAtMost, countBelow } from "../numeric/orderStatistic.js";
import { nextUp } from "./conformalRiskControl.js";
import { addSorted, EMPTY_UNION, kthOfTwo, mergeAscending, type SortedUnion } from "../strata/extendStrata.js";

/** A gate's calibration examples: their scores, ascending, by label. */
export interface GateScores {
  readonly n: number;
  readonly fails: SortedUnion;
  readonly passes: SortedUnion;
}

export const NO_GATE_SCORES: GateScores = Object.freeze({ n: 0, fails: EMPTY_UNION, passes: EMPTY_UNION });

/** `data` (not changed) with more examples: score and label (1 / true = pass) per example. */
export function extendGateScores(data: GateScores, examples: { readonly scores: ArrayLike<number>; readonly labels: ArrayLike<number | boolean> }): GateScores {
  const n = examples.scores.length;
  if (examples.labels.length !== n) throw invalid(`labels has ${examples.labels.length} entries for ${n} scores`, "labels");
  const fails: number[] = [];
  const passes: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = examples.scores[i]!;
    if (Number.isNaN(s)) throw invalid(`scores[${i}] is NaN`, `scores[${i}]`);
    const v = examples.labels[i]!;
    if (v === true || v === 1) passes.push(s);
    else if (v === false || v === 0) fails.push(s);
    else throw invalid(`labels[${i}] must be pass (1/true) or fail (0/false)`, `labels[${i}]`);
  }
  if (n === 0) return data;
  return Object.freeze({
    n: data.n + n,
    fails: fails.length ? addSorted(data.fails, fails) : data.fails,
    passes: passes.length ? addSorted(data.passes, passes) : data.passes,
  });
}

const arrays = (u: SortedUnion): Float64Array[] => (u.delta.length ? [u.base, u.delta] : [u.base]);
const size = (u: SortedUnion): number => u.base.length + u.delta.length;
const atLeast = (u: SortedUnion, s: number): number => size(u) - countBelow(u.base, s) - (u.delta.length ? countBelow(u.delta, s) : 0);
const above = (u: SortedUnion, s: number): number => size(u) - countAtMost(u.base, s) - (u.delta.length ? countAtMost(u.delta, s) : 0);

/** Registered sorted fails of fdr gates built here: p-values count them without merging the two parts. */
const sortedFails = new WeakMap<CalibratedGate, SortedUnion>();

/** 1 + #{fails ≥ s} (selectionPValueCount) of an fdr gate built here, counted on the two sorted parts (no merge); else undefined. */
export function sortedSelectionCount(cal: CalibratedGate, s: number): number | undefined {
  const u = sortedFails.get(cal);
  if (!u) return undefined;
  return 1 + size(u) - countBelow(u.base, s) - (u.delta.length ? countBelow(u.delta, s) : 0);
}

/**
 * calibrateGate's result on the examples of `data`, loss `weights.fail` / `weights.pass` when approving a fail /
 * a pass; undefined when those losses are not ones this computes exactly (call calibrateGate instead).
 */
export function calibrateGateSorted(data: GateScores, weights: { fail: number; pass: number }, options: GateOptions): CalibratedGate | undefined {
  checkUnitOpen(options.target, "target");
  const B = options.lossBound ?? 1;
  if (!(B > 0 && Number.isFinite(B))) throw invalid(`lossBound must be a positive number`, "lossBound");
  // Only the losses that occur matter (as in calibrateGate, which sees one loss per example).
  const present = [size(data.fails) ? weights.fail : 0, size(data.passes) ? weights.pass : 0];
  if (present.some((l) => !(l >= 0 && l <= B))) return undefined;
  const n = data.n;
  const base = { kind: "gate" as const, guarantee: options.guarantee, target: options.target, n };
  // The threshold whose approved loss L(≥ s) stays within `budget`, for whole-number losses `w` (exact sums).
  const withinBudget = (w: { fail: number; pass: number }, budget: number) => {
    // L(≥ s), exact: whole-number losses summed in any order give the same double.
    const loss = (s: number, count: (u: SortedUnion, s: number) => number) => w.fail * count(data.fails, s) + w.pass * count(data.passes, s);
    let cross = -Infinity;
    let found = false;
    for (const [u, wu] of [[data.fails, w.fail], [data.passes, w.pass]] as const) {
      if (wu === 0) continue;
      for (const a of arrays(u)) {
        // The largest a[j] with L(≥ a[j]) > budget (L falls as s rises).
        let lo = 0;
        let hi = a.length;
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          if (loss(a[mid]!, atLeast) > budget) lo = mid + 1;
          else hi = mid;
        }
        if (lo > 0 && (!found || a[lo - 1]! > cross)) {
          cross = a[lo - 1]!;
          found = true;
        }
      }
    }
    if (!found) return { threshold: -Infinity, feasible: true, empiricalRisk: n ? loss(-Infinity, atLeast) / n : 0 };
    return { threshold: nextUp(cross), feasible: true, empiricalRisk: n ? loss(cross, above) / n : 0 };
  };
  if (options.guarantee === "risk") {
    if (!present.every(Number.isInteger)) return undefined;
    const integer = B === 1 && present.every((l) => l === 0 || l === 1);
    const budget = integer ? floorTimes(n + 1, options.target) - 1 : (n + 1) * options.target - B;
    if (budget < 0) return Object.freeze({ ...base, threshold: Infinity, feasible: false, empiricalRisk: 0 });
    return Object.freeze({ ...base, ...withinBudget(weights, budget) });
  }
  if (options.guarantee === "risk_high_probability") {
    if (options.delta === undefined) throw invalid("risk_high_probability needs delta", "delta");
    checkUnitOpen(options.delta, "delta");
    if (!present.every((l) => l === 0 || l / B === 1)) return undefined;
    if (!options.grid) {
      // Every threshold tested (learnThenTest.ts): counts of approved losses within lttLossBudget, as calibrateGate.
      const budget = lttLossBudget(n, options.target / B, options.delta);
      if (budget < 0) return Object.freeze({ ...base, delta: options.delta, threshold: Infinity, feasible: false, empiricalRisk: 0 });
      const counts = { fail: weights.fail === 0 ? 0 : 1, pass: weights.pass === 0 ? 0 : 1 };
      const r = withinBudget(counts, budget);
      return Object.freeze({ ...base, delta: options.delta, ...r, empiricalRisk: r.empiricalRisk * B });
    }
    const grid = Float64Array.from(options.grid);
    for (let j = 1; j < grid.length; j++) if (!(grid[j]! < grid[j - 1]!)) throw invalid("grid must be strictly decreasing (strict to lenient)", "grid");
    const risk = (j: number) => {
      const sum = (weights.fail ? atLeast(data.fails, grid[j]!) : 0) + (weights.pass ? atLeast(data.passes, grid[j]!) : 0);
      return n ? sum / n : 0;
    };
    // Fixed-sequence testing stops at the first p-value above δ: later ones are never read.
    let r = 0;
    while (r < grid.length && fixedSequenceRejections([hoeffdingBentkusPValue(risk(r), n, options.target / B)], options.delta) === 1) r++;
    const ltt = r === 0 ? { threshold: Infinity, feasible: false, empiricalRisk: 0 } : { threshold: grid[r - 1]!, feasible: true, empiricalRisk: risk(r - 1) * B };
    return Object.freeze({ ...base, delta: options.delta, ...ltt });
  }
  if (options.guarantee === "fdr") {
    const allowed = floorTimes(n + 1, options.target) - 1;
    const feasible = allowed >= 0;
    const m = size(data.fails);
    const threshold = !feasible ? Infinity : allowed >= m ? -Infinity : nextUp(kthOfTwo(data.fails.base, data.fails.delta, m - allowed));
    let merged: Float64Array | undefined;
    const cal = { ...base, threshold, feasible, empiricalRisk: NaN } as CalibratedGate;
    const fails = data.fails;
    Object.defineProperty(cal, "failScores", { enumerable: true, get: () => (merged ??= fails.delta.length ? mergeAscending(fails.base, fails.delta) : fails.base) });
    Object.freeze(cal);
    sortedFails.set(cal, fails);
    return cal;
  }
  return undefined;
}

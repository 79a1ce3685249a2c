// What the report shows beyond the service's answers, computed locally with the conformal engine on the
// same scores: coverage and set size over a sweep of α, the Venn-Abers reliability bins, the monitor's
// e-value path, and the set-size histogram of the service's sets.
import {
  calibrateInterval, calibrateSet, createMonitor, predictIntervalBatch, monitorEValue, predictSetBatch, predictSetRows, rngFromString, updateMonitor,
} from "../conformal/index.js";
import type { RunSummary } from "../report/index.js";
import { coverageBand } from "./coverageBand.js";

/** Probabilities over the options in one fixed order, and the index of the gold option. */
export interface ScoredItem {
  probabilities: number[];
  label: number;
}

export const SWEEP_ALPHAS = [0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5];

/** Covered test items and summed answer sizes at one α: the whole test set is one batch through the engine. */
function sweepOne(type: "set" | "interval", rows: Float64Array, labels: Int32Array, width: number, test: Float64Array, testLabels: Int32Array, method: string, alpha: number, seed: string): { covered: number; size: number } {
  const rng = rngFromString(`${seed}@sweep/${alpha}/test`);
  const examples = { probabilities: { data: rows, width }, labels };
  const batch = { probabilities: test, width };
  let covered = 0;
  let size = 0;
  if (type === "set") {
    const cal = calibrateSet(examples, { method, alpha, rng: rngFromString(`${seed}@sweep/${alpha}`) });
    const p = predictSetBatch(cal, batch, { rng });
    for (let i = 0; i < testLabels.length; i++) {
      size += p.sizes[i]!;
      covered += p.membership[i * width + testLabels[i]!]!;
    }
    return { covered, size };
  }
  const cal = calibrateInterval(examples, { method, alpha, rng: rngFromString(`${seed}@sweep/${alpha}`) });
  const p = predictIntervalBatch(cal, batch, { rng });
  for (let i = 0; i < testLabels.length; i++) {
    const lo = p.lower[i]!;
    const hi = p.upper[i]!;
    if (lo > hi) continue; // empty: size 0, not covered
    size += hi - lo + 1;
    if (lo <= testLabels[i]! && testLabels[i]! <= hi) covered++;
  }
  return { covered, size };
}

export function sweepCoverage(
  calibration: readonly ScoredItem[], test: readonly ScoredItem[], type: "set" | "interval", method: string, seed: string, alphas = SWEEP_ALPHAS,
): RunSummary["sweep"] {
  const width = calibration[0]?.probabilities.length ?? 0;
  if (type === "set" && [...calibration, ...test].some((c) => c.probabilities.length !== width)) return sweepMixed(calibration, test, method, seed, alphas);
  const rows = Float64Array.from(calibration.flatMap((c) => c.probabilities));
  const labels = Int32Array.from(calibration.map((c) => c.label));
  for (const t of test) if (t.probabilities.length !== width) throw new RangeError(`sweepCoverage: a test item has ${t.probabilities.length} probabilities, calibration items have ${width}`);
  const testRows = Float64Array.from(test.flatMap((t) => t.probabilities));
  const testLabels = Int32Array.from(test.map((t) => t.label));
  return alphas.map((alpha) => {
    const { covered, size } = sweepOne(type, rows, labels, width, testRows, testLabels, method, alpha, seed);
    const m = test.length;
    return { alpha, target: 1 - alpha, coverage: m ? covered / m : NaN, averageSetSize: m ? size / m : NaN, band: coverageBand(m, calibration.length, alpha) };
  });
}

/** sweepCoverage over items of different option counts: one calibration across counts, each test row over its own options. */
function sweepMixed(calibration: readonly ScoredItem[], test: readonly ScoredItem[], method: string, seed: string, alphas: readonly number[]): RunSummary["sweep"] {
  const examples = { probabilities: calibration.map((c) => c.probabilities), labels: calibration.map((c) => c.label) };
  const m = test.length;
  return alphas.map((alpha) => {
    const cal = calibrateSet(examples, { method, alpha, rng: rngFromString(`${seed}@sweep/${alpha}`) });
    const p = predictSetRows(cal, test.map((t) => t.probabilities), { rng: rngFromString(`${seed}@sweep/${alpha}/test`) });
    let covered = 0;
    let size = 0;
    test.forEach((t, i) => {
      covered += p.membership[i]![t.label]!;
      size += p.sizes[i]!;
    });
    return { alpha, target: 1 - alpha, coverage: m ? covered / m : NaN, averageSetSize: m ? size / m : NaN, band: coverageBand(m, calibration.length, alpha) };
  });
}

/** One (item, option) pair: its Venn-Abers pair and whether the option was the gold one. */
export interface BeliefPair {
  p0: number;
  p1: number;
  gold: boolean;
}

export function reliabilityBins(pairs: readonly BeliefPair[], count = 10): RunSummary["reliability"] {
  const bins = Array.from({ length: count }, (_, i) => ({ lower: i / count, upper: (i + 1) / count, n: 0, belief: 0, hits: 0, p0: 0, p1: 0 }));
  for (const { p0, p1, gold } of pairs) {
    const belief = p1 / (1 - p0 + p1); // Vovk & Petej's merge of the pair into one probability
    const b = bins[Math.min(count - 1, Math.max(0, Math.floor(belief * count)))]!;
    b.n++;
    b.belief += belief;
    b.hits += gold ? 1 : 0;
    b.p0 += p0;
    b.p1 += p1;
  }
  return {
    pairs: pairs.length,
    bins: bins.map((b) => ({
      lower: b.lower, upper: b.upper, count: b.n,
      meanBelief: b.n ? b.belief / b.n : (b.lower + b.upper) / 2,
      observed: b.n ? b.hits / b.n : 0,
      meanP0: b.n ? b.p0 / b.n : 0,
      meanP1: b.n ? b.p1 / b.n : 0,
    })),
  };
}

/** The e-value after each observation of a miscoverage stream (the engine's e-process, as the service runs it). */
export function eValuePath(miscovered: readonly boolean[], alpha: number, falseAlarmRate: number): { n: number; eValue: number }[] {
  let state = createMonitor(alpha, falseAlarmRate);
  return miscovered.map((m, i) => {
    state = updateMonitor(state, m);
    return { n: i + 1, eValue: monitorEValue(state) };
  });
}

export function setSizeHistogram(sizes: readonly number[]): { size: number; count: number }[] {
  const counts = new Map<number, number>();
  for (const s of sizes) counts.set(s, (counts.get(s) ?? 0) + 1);
  return [...counts].sort((a, b) => a[0] - b[0]).map(([size, count]) => ({ size, count }));
}

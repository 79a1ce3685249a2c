// What the report shows beyond the service's answers, computed locally with the conformal engine on the
// same scores: coverage and set size over a sweep of α, the Venn-Abers reliability bins, the monitor's
// e-value path, and the set-size histogram of the service's sets.
import {
  calibrateInterval, calibrateSet, createMonitor, predictInterval, monitorEValue, predictSet, rngFromString, updateMonitor,
} from "../../conformal/index.js";
import type { RunSummary } from "../../report/index.js";
import { coverageBand } from "./coverageBand.js";

/** Probabilities over the options in one fixed order, and the index of the gold option. */
export interface ScoredItem {
  probabilities: number[];
  label: number;
}

export const SWEEP_ALPHAS = [0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5];

/** Size of the answer and whether it covers the label, for one calibrated α. */
type Predictor = (t: ScoredItem) => { size: number; covered: boolean };

function predictorFor(type: "set" | "interval", rows: Float64Array, labels: Int32Array, width: number, method: string, alpha: number, seed: string): Predictor {
  const rng = rngFromString(`${seed}@sweep/${alpha}/test`);
  const examples = { probabilities: { data: rows, width }, labels };
  if (type === "set") {
    const cal = calibrateSet(examples, { method, alpha, rng: rngFromString(`${seed}@sweep/${alpha}`) });
    return (t) => {
      const p = predictSet(cal, { probabilities: Float64Array.from(t.probabilities) }, rng, { pValues: false });
      return { size: p.indices.length, covered: p.indices.includes(t.label) };
    };
  }
  const cal = calibrateInterval(examples, { method, alpha, rng: rngFromString(`${seed}@sweep/${alpha}`) });
  return (t) => {
    const p = predictInterval(cal, { probabilities: Float64Array.from(t.probabilities) }, rng);
    return p.empty ? { size: 0, covered: false } : { size: p.upper - p.lower + 1, covered: p.lower <= t.label && t.label <= p.upper };
  };
}

export function sweepCoverage(
  calibration: readonly ScoredItem[], test: readonly ScoredItem[], type: "set" | "interval", method: string, seed: string, alphas = SWEEP_ALPHAS,
): RunSummary["sweep"] {
  const width = calibration[0]?.probabilities.length ?? 0;
  const rows = Float64Array.from(calibration.flatMap((c) => c.probabilities));
  const labels = Int32Array.from(calibration.map((c) => c.label));
  return alphas.map((alpha) => {
    const predict = predictorFor(type, rows, labels, width, method, alpha, seed);
    let covered = 0;
    let size = 0;
    for (const t of test) {
      const p = predict(t);
      size += p.size;
      if (p.covered) covered++;
    }
    const m = test.length;
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

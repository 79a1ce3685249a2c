// One suite cell (model × task × method × α) over its repeats, computed with the local conformal engine on
// the cached evidence: each repeat an independent random split (seed derived from the suite's seed).
import {
  calibrateInterval, calibrateOptionBeliefs, calibrateSet, conformalRank, expectedCalibrationError, permutation,
  predictIntervalBatch, predictOptionBeliefsBatch, predictSetBatch, rngFromString,
} from "../../conformal/index.js";
import type { BenchRow } from "../../report/index.js";
import { BAND_LEVEL, coverageBand } from "../coverageBand.js";

export interface CellInput {
  model: string;
  task: string;
  type: "set" | "interval";
  method: string;
  alpha: number;
  /** Row-major probabilities (items × width) and gold indices. */
  probabilities: Float64Array;
  width: number;
  labels: Int32Array;
  repeats: number;
  seed: number;
  calibrationFraction: number;
}

/** The split of repeat r: the same for every model, method and α of a task, so cells compare on equal items. */
export function splitOf(n: number, fraction: number, seed: number, task: string, r: number): { cal: Int32Array; test: Int32Array } {
  const p = permutation(n, rngFromString(`${seed}/${task}/repeat-${r}`));
  const k = Math.max(1, Math.min(n - 1, Math.round(n * fraction)));
  return { cal: p.slice(0, k), test: p.slice(k) };
}

function gather(x: CellInput, idx: Int32Array): { data: Float64Array; labels: Int32Array } {
  const data = new Float64Array(idx.length * x.width);
  idx.forEach((i, j) => data.set(x.probabilities.subarray(i * x.width, (i + 1) * x.width), j * x.width));
  return { data, labels: Int32Array.from(idx, (i) => x.labels[i]!) };
}

/** Variance of one repeat's coverage under the beta-binomial law: Var(X/m), X ~ BetaBinomial(m, k, n+1−k). */
function lawOf(m: number, n: number, alpha: number): { mean: number; sd: number } {
  const k = conformalRank(n, alpha);
  if (k > n) return { mean: 1, sd: 0 };
  const a = k;
  const b = n + 1 - k;
  return { mean: a / (a + b), sd: Math.sqrt((a * b * (a + b + m)) / (m * (a + b) ** 2 * (a + b + 1))) };
}

export function benchCell(x: CellInput): BenchRow {
  const t0 = performance.now();
  const perRepeat: number[] = [];
  let size = 0, singletons = 0, empty = 0, correct = 0, answered = 0;
  let eceRaw = NaN, eceVA = NaN, calN = 0, testN = 0;
  for (let r = 0; r < x.repeats; r++) {
    const split = splitOf(x.labels.length, x.calibrationFraction, x.seed, x.task, r);
    const cal = gather(x, split.cal);
    const test = gather(x, split.test);
    calN = cal.labels.length;
    testN = test.labels.length;
    const examples = { probabilities: { data: cal.data, width: x.width }, labels: cal.labels };
    const rng = rngFromString(`${x.seed}/${x.task}/repeat-${r}/${x.method}/${x.alpha}`);
    let covered = 0;
    for (let i = 0; i < testN; i++) {
      const row = test.data.subarray(i * x.width, (i + 1) * x.width);
      let top = 0;
      for (let j = 1; j < x.width; j++) if (row[j]! > row[top]!) top = j;
      if (top === test.labels[i]) correct++;
    }
    if (x.type === "set") {
      const p = predictSetBatch(calibrateSet(examples, { method: x.method, alpha: x.alpha, rng }), { probabilities: test.data, width: x.width }, { rng });
      for (let i = 0; i < testN; i++) {
        const s = p.sizes[i]!;
        size += s;
        if (s === 1) singletons++;
        if (s === 0) empty++;
        covered += p.membership[i * x.width + test.labels[i]!]!;
      }
    } else {
      const p = predictIntervalBatch(calibrateInterval(examples, { method: x.method, alpha: x.alpha, rng }), { probabilities: test.data, width: x.width }, { rng });
      for (let i = 0; i < testN; i++) {
        const s = p.lower[i]! > p.upper[i]! ? 0 : p.upper[i]! - p.lower[i]! + 1;
        size += s;
        if (s === 1) singletons++;
        if (s === 0) empty++;
        if (s > 0 && p.lower[i]! <= test.labels[i]! && test.labels[i]! <= p.upper[i]!) covered++;
      }
    }
    answered += testN;
    perRepeat.push(covered / testN);
    if (r === 0) {
      // Calibration errors over (item, option) pairs: the raw probability, and the Venn–Abers belief p1 / (1 − p0 + p1).
      const gold = new Float64Array(test.data.length);
      test.labels.forEach((l, i) => (gold[i * x.width + l] = 1));
      eceRaw = expectedCalibrationError(test.data, gold, 10);
      const va = predictOptionBeliefsBatch(calibrateOptionBeliefs(examples), { probabilities: test.data, width: x.width });
      const belief = va.p0.map((p0, j) => va.p1[j]! / (1 - p0 + va.p1[j]!));
      eceVA = expectedCalibrationError(belief, gold, 10);
    }
  }
  const mean = perRepeat.reduce((a, b) => a + b, 0) / perRepeat.length;
  const sd = perRepeat.length > 1 ? Math.sqrt(perRepeat.reduce((a, c) => a + (c - mean) ** 2, 0) / (perRepeat.length - 1)) : 0;
  const band = coverageBand(testN, calN, x.alpha);
  const law = lawOf(testN, calN, x.alpha);
  return {
    model: x.model, task: x.task, method: x.method, alpha: x.alpha, repeats: x.repeats, calibration: calN, test: testN,
    coverage: { mean, sd, min: Math.min(...perRepeat), max: Math.max(...perRepeat), perRepeat },
    band, bandLevel: BAND_LEVEL, inBand: perRepeat.filter((c) => c >= band[0] && c <= band[1]).length,
    law: { ...law, z: law.sd > 0 ? (mean - law.mean) / (law.sd / Math.sqrt(perRepeat.length)) : 0 },
    meanSetSize: size / answered, singletonRate: singletons / answered, emptyRate: empty / answered, accuracy: correct / answered,
    eceRaw, eceVennAbers: eceVA, seconds: (performance.now() - t0) / 1000,
  };
}

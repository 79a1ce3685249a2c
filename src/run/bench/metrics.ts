// One suite cell (model × task × method × α) over its repeats, computed with the local conformal engine on
// the cached evidence: each repeat an independent random split (seed derived from the suite's seed), with
// the run's own statistics (conditional coverage, baselines, calibration errors) per repeat, folded over repeats.
import {
  calibrateInterval, calibrateOptionBeliefs, calibrateSet, conformalRank, labelRank, minimumN, permutation,
  predictIntervalBatch, predictOptionBeliefsBatch, predictSetBatch, recommendedN, rngFromString,
} from "../../conformal/index.js";
import { mixedRepeat, type RepeatOutcome } from "./mixedCounts.js";
import { overRepeats, type BenchRow, type RunStatistics } from "../../report/index.js";
import type { BeliefPair } from "../analysis.js";
import { BAND_LEVEL, coverageBand } from "../coverageBand.js";
import { runStatistics, type AnsweredItem } from "../statistics.js";

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
  /** Each item's option names (the true class is names[label]) and group (MMLU subject), by item index. */
  names: readonly (readonly string[])[];
  groups: readonly (string | undefined)[];
  repeats: number;
  seed: number;
  calibrationFraction: number;
  /** Set tasks whose items differ in option count: each item's own row (then `probabilities` and `width` are unused). */
  rows?: readonly Float64Array[];
  /** With `rows`: calibrate each option count on its own (Mondrian by option count). */
  byOptionCount?: boolean;
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

/** One repeat's answers as the run's statistics take them (statistics.ts): the same tables in both reports. */
function repeatStatistics(x: CellInput, r: number, split: { cal: Int32Array; test: Int32Array }): RepeatOutcome {
  if (x.rows) return mixedRepeat(x, x.rows, r, split);
  const cal = gather(x, split.cal);
  const test = gather(x, split.test);
  const examples = { probabilities: { data: cal.data, width: x.width }, labels: cal.labels };
  const rng = rngFromString(`${x.seed}/${x.task}/repeat-${r}/${x.method}/${x.alpha}`);
  const m = test.labels.length;
  const sizes = new Int32Array(m);
  const hit = new Uint8Array(m);
  let fitted: { score: number; k: number };
  if (x.type === "set") {
    const c = calibrateSet(examples, { method: x.method, alpha: x.alpha, rng });
    const p = predictSetBatch(c, { probabilities: test.data, width: x.width }, { rng });
    for (let i = 0; i < m; i++) {
      sizes[i] = p.sizes[i]!;
      hit[i] = p.membership[i * x.width + test.labels[i]!]!;
    }
    const q = c.strata.get("")!;
    fitted = { score: q.threshold, k: q.k };
  } else {
    const c = calibrateInterval(examples, { method: x.method, alpha: x.alpha, rng });
    const p = predictIntervalBatch(c, { probabilities: test.data, width: x.width }, { rng });
    for (let i = 0; i < m; i++) {
      sizes[i] = p.lower[i]! > p.upper[i]! ? 0 : p.upper[i]! - p.lower[i]! + 1;
      hit[i] = sizes[i]! > 0 && p.lower[i]! <= test.labels[i]! && test.labels[i]! <= p.upper[i]! ? 1 : 0;
    }
    const q = c.strata.get("")!;
    fitted = { score: q.threshold, k: q.k };
  }
  const row = (data: Float64Array, i: number) => Array.from(data.subarray(i * x.width, (i + 1) * x.width));
  const answered: AnsweredItem[] = Array.from(split.test, (item, i) => ({
    probabilities: row(test.data, i), label: test.labels[i]!, names: x.names[item]!, size: sizes[i]!, covered: hit[i] === 1,
    ...(x.groups[item] !== undefined ? { group: x.groups[item] } : {}),
  }));
  // Venn–Abers beliefs of every (test item, option) pair, as a run's service gives them for set queries.
  const pairs: BeliefPair[] = [];
  if (x.type === "set") {
    const va = predictOptionBeliefsBatch(calibrateOptionBeliefs(examples), { probabilities: test.data, width: x.width });
    for (let j = 0; j < va.p0.length; j++) pairs.push({ p0: va.p0[j]!, p1: va.p1[j]!, gold: test.labels[Math.floor(j / x.width)] === j % x.width });
  }
  const n = cal.labels.length;
  const stats = runStatistics({
    type: x.type, method: x.method, alpha: x.alpha, seed: `${x.seed}/${x.task}/repeat-${r}`, fitted,
    calibration: Array.from(split.cal, (_, i) => ({ probabilities: row(cal.data, i), label: cal.labels[i]! })),
    test: answered, pairs, profile: { n, minimumN: minimumN(x.alpha), recommendedN: recommendedN(x.alpha) },
  });
  let correct = 0;
  for (const t of answered) if (labelRank(t.probabilities, t.label) === 1) correct++;
  return { stats, covered: hit.reduce((a, b) => a + b, 0), sizes, correct };
}

export function benchCell(x: CellInput): BenchRow {
  const t0 = performance.now();
  const perRepeat: number[] = [];
  const each: RunStatistics[] = [];
  let size = 0, singletons = 0, empty = 0, correct = 0, answered = 0, calN = 0, testN = 0;
  for (let r = 0; r < x.repeats; r++) {
    const split = splitOf(x.labels.length, x.calibrationFraction, x.seed, x.task, r);
    calN = split.cal.length;
    testN = split.test.length;
    const one = repeatStatistics(x, r, split);
    for (const s of one.sizes) {
      size += s;
      if (s === 1) singletons++;
      if (s === 0) empty++;
    }
    correct += one.correct;
    answered += testN;
    perRepeat.push(one.covered / testN);
    each.push(one.stats);
  }
  const mean = perRepeat.reduce((a, b) => a + b, 0) / perRepeat.length;
  const sd = perRepeat.length > 1 ? Math.sqrt(perRepeat.reduce((a, c) => a + (c - mean) ** 2, 0) / (perRepeat.length - 1)) : 0;
  const band = coverageBand(testN, calN, x.alpha);
  const law = lawOf(testN, calN, x.alpha);
  const statistics = overRepeats(each);
  return {
    model: x.model, task: x.task, queryType: x.type, method: x.method, alpha: x.alpha, repeats: x.repeats, calibration: calN, test: testN,
    coverage: { mean, sd, min: Math.min(...perRepeat), max: Math.max(...perRepeat), perRepeat },
    band, bandLevel: BAND_LEVEL, inBand: perRepeat.filter((c) => c >= band[0] && c <= band[1]).length,
    law: { ...law, z: law.sd > 0 ? (mean - law.mean) / (law.sd / Math.sqrt(perRepeat.length)) : 0 },
    meanSetSize: size / answered, singletonRate: singletons / answered, emptyRate: empty / answered, accuracy: correct / answered,
    eceRaw: statistics.calibration.raw.ece.mean, eceVennAbers: statistics.calibration.vennAbers?.ece.mean ?? NaN,
    statistics, seconds: (performance.now() - t0) / 1000,
  };
}

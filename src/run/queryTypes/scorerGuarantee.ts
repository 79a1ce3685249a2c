// One scorer's confidence through a gate or a belief over seeded repeats of the split, on the local conformal engine:
// what the guarantee gives with this scorer, measured against its finite-sample band on every repeat (issue 27,
// point 7). The run report shows it for each scorer it computed; a suite's generation cells are made of it.
import { guaranteeStatement } from "../../api/index.js";
import { calibrateBelief, calibrateGate, decideBatch, gateFailBudget, permutation, predictBeliefBatch, rngFromString, type GateGuarantee } from "../../conformal/index.js";
import { spreadOf, type ScorerGuarantee } from "../../report/index.js";
import { expectedCalibrationError, type Scorer } from "../../uncertainty/index.js";
import { approvedFailsUpper, BAND_LEVEL, bernoulliHalfWidth } from "./bands.js";

export interface ScoredGrade {
  /** Scorer name → uncertainty (NaN where undefined). */
  scores: Readonly<Record<string, number>>;
  correct: boolean;
}

/** The confidence an item's score gives (the scorer's map); an undefined score gives 0, never approved. */
export const confidenceOf = (scorer: Scorer, value: number): number => {
  const c = scorer.confidence(value);
  return Number.isNaN(c) ? 0 : c;
};

export interface GuaranteeSettings {
  type: "gate" | "belief";
  /** Gate: the risk target (α). */
  target: number;
  /** Gate: risk (default), risk_high_probability (with delta) or fdr (a batch of one). */
  guarantee?: string;
  delta?: number;
  /** Seed of the splits: repeat r splits by `${seed}/${label}/repeat-r`, the same for every scorer of one set of items. */
  seed: number;
  /** What the splits are named after (a suite's task), so two tasks are split independently. Default "scorers". */
  label?: string;
  /** Independent splits. Default 20. */
  repeats?: number;
  /** Share of the items that calibrate each repeat. Default 0.5. */
  calibrationFraction?: number;
}

export const DEFAULT_GUARANTEE_REPEATS = 20;

/** The split of repeat r over n items: the same for every scorer and every α, so they compare on equal items. */
export function repeatSplit(n: number, fraction: number, seed: number, label: string, r: number): { cal: Int32Array; test: Int32Array } {
  const p = permutation(n, rngFromString(`${seed}/${label}/repeat-${r}`));
  const k = Math.max(2, Math.min(n - 1, Math.round(n * fraction)));
  return { cal: p.slice(0, k), test: p.slice(k) };
}

const ece = (probability: Float64Array, correct: Float64Array) => expectedCalibrationError(probability.map((p) => -p), correct);

interface Repeat {
  value: number;
  band: [number, number];
  target: number;
  abstention: number;
  eceBefore: number;
  eceAfter: number;
}

function gateRepeat(conf: Float64Array, correct: Float64Array, s: GuaranteeSettings, split: { cal: Int32Array; test: Int32Array }): Repeat {
  const guarantee = (s.guarantee ?? "risk") as GateGuarantee;
  const delta = guarantee === "risk_high_probability" ? s.delta ?? 0.1 : undefined;
  const pick = (xs: Float64Array, idx: Int32Array) => Float64Array.from(idx, (i) => xs[i]!);
  const calConf = pick(conf, split.cal);
  const calCorrect = pick(correct, split.cal);
  const testConf = pick(conf, split.test);
  const testCorrect = pick(correct, split.test);
  const gate = calibrateGate({ scores: calConf, labels: calCorrect }, { guarantee, target: s.target, ...(delta !== undefined ? { delta } : {}) });
  const decisions = decideBatch(gate, testConf);
  const m = split.test.length;
  let approvedFails = 0, approved = 0, testFails = 0;
  decisions.forEach((d, i) => {
    if (testCorrect[i] === 0) testFails++;
    if (d !== "auto_approve") return;
    approved++;
    if (testCorrect[i] === 0) approvedFails++;
  });
  const calFails = calCorrect.reduce((a, c) => a + (c === 0 ? 1 : 0), 0);
  const upper = approvedFailsUpper(testFails, calFails, gateFailBudget(guarantee, split.cal.length, s.target, delta));
  const fitted = predictBeliefBatch(calibrateBelief(calConf, calCorrect), testConf);
  return {
    value: approvedFails / m, band: [0, upper / m], target: s.target, abstention: 1 - approved / m,
    eceBefore: ece(testConf, testCorrect), eceAfter: ece(fitted.probability, testCorrect),
  };
}

function beliefRepeat(conf: Float64Array, correct: Float64Array, split: { cal: Int32Array; test: Int32Array }): Repeat {
  const pick = (xs: Float64Array, idx: Int32Array) => Float64Array.from(idx, (i) => xs[i]!);
  const testConf = pick(conf, split.test);
  const testCorrect = pick(correct, split.test);
  const fitted = predictBeliefBatch(calibrateBelief(pick(conf, split.cal), pick(correct, split.cal)), testConf);
  const m = split.test.length;
  let p0 = 0, p1 = 0, variance = 0, right = 0;
  for (let i = 0; i < m; i++) {
    p0 += fitted.p0[i]!;
    p1 += fitted.p1[i]!;
    variance += fitted.probability[i]! * (1 - fitted.probability[i]!);
    right += testCorrect[i]!;
  }
  // As the belief run's band (beliefGate.ts): the mean [p0, p1] widened by the spread of m Bernoulli draws.
  const half = bernoulliHalfWidth(m, variance);
  return {
    value: right / m, band: [Math.max(0, p0 / m - half), Math.min(1, p1 / m + half)], target: (p0 + p1) / (2 * m), abstention: NaN,
    eceBefore: ece(testConf, testCorrect), eceAfter: ece(fitted.probability, testCorrect),
  };
}

/** The scorer's guarantee over `repeats` splits of `items` (each item's scores and grade). */
export function scorerGuarantee(scorer: Scorer, items: readonly ScoredGrade[], s: GuaranteeSettings): ScorerGuarantee {
  const repeats = s.repeats ?? DEFAULT_GUARANTEE_REPEATS;
  const fraction = s.calibrationFraction ?? 0.5;
  const conf = Float64Array.from(items, (g) => confidenceOf(scorer, g.scores[scorer.name] ?? NaN));
  const correct = Float64Array.from(items, (g) => (g.correct ? 1 : 0));
  const each: Repeat[] = [];
  let split: { cal: Int32Array; test: Int32Array } = { cal: new Int32Array(0), test: new Int32Array(0) };
  for (let r = 0; r < repeats; r++) {
    split = repeatSplit(items.length, fraction, s.seed, s.label ?? "scorers", r);
    each.push(s.type === "gate" ? gateRepeat(conf, correct, s, split) : beliefRepeat(conf, correct, split));
  }
  const values = each.map((e) => e.value);
  const bands = each.map((e) => e.band);
  const guarantee = s.guarantee ?? "risk";
  const delta = guarantee === "risk_high_probability" ? s.delta ?? 0.1 : undefined;
  return {
    queryType: s.type,
    guarantee: s.type === "gate" ? guaranteeStatement("gate", guarantee, { target: s.target, delta }) : guaranteeStatement("belief", "calibration"),
    quantity: s.type === "gate" ? "realized risk P(auto_approve and wrong) (approved wrong answers / test items)" : "observed frequency of right answers on the test split",
    target: s.type === "gate" ? s.target : spreadOf(each.map((e) => e.target)).mean,
    repeats, calibration: split.cal.length, test: split.test.length,
    value: { ...spreadOf(values), perRepeat: values }, bands, inBand: each.filter((e) => e.value >= e.band[0] && e.value <= e.band[1]).length,
    bandNote: s.type === "gate"
      ? `per repeat, the ${BAND_LEVEL * 100}% quantile of the approved wrong answers' beta-binomial law given the repeat's calibration and test wrong answers`
      : `per repeat, the mean Venn–Abers [p0, p1] widened by ${BAND_LEVEL * 100}% of the spread of the test split's Bernoulli(p) draws`,
    abstention: s.type === "gate" ? spreadOf(each.map((e) => e.abstention)) : null,
    eceBefore: spreadOf(each.map((e) => e.eceBefore)), eceAfter: spreadOf(each.map((e) => e.eceAfter)),
  };
}

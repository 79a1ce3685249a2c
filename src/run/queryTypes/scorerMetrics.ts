// How well each scorer of a free-form run ranks right answers above wrong ones, and how calibrated its confidence
// is before and after Venn–Abers: lm-polygraph's ue_metrics over the run's graded items (uncertainty/metrics).
import { calibrateBelief, predictBeliefBatch } from "../../conformal/index.js";
import {
  expectedCalibrationError, predictionRejectionRatio, prepareForMetrics, riskCoverageCurve, riskCoverageCurveAuc, rocAuc, type Scorer,
} from "../../uncertainty/index.js";
import type { ScorerGuarantee } from "../../report/index.js";
import { confidenceOf, scorerGuarantee, type GuaranteeSettings, type ScoredGrade } from "./scorerGuarantee.js";

export { confidenceOf, type ScoredGrade };

export interface ScorerMetrics {
  scorer: string;
  level: string;
  /** Items with a defined score (calibration and test together for the ranking metrics). */
  n: number;
  /** ROC-AUC of the confidence against correctness (0.5 = no better than chance; NaN with one class only). */
  rocAuc: number;
  /** Prediction–rejection ratio (Malinin et al. 2017): 0 random, 1 oracle. */
  prr: number;
  /** lm-polygraph's rcc-auc: mean risk over the risk–coverage curve (lower is better). */
  rccAuc: number;
  /** The risk–coverage curve at up to 21 evenly spaced coverages. */
  riskCoverage: { coverage: number[]; risk: number[] };
  /** ECE (20 bins) on the test split of the raw confidence, and of the Venn–Abers probability fitted on calibration. */
  eceBefore: number;
  eceAfter: number;
  /** With guarantee settings: the scorer's confidence through the run's gate or belief over seeded repeats of the split. */
  guarantee?: ScorerGuarantee;
}

const POINTS = 21;

function thin(curve: { coverage: Float64Array; risk: Float64Array }): ScorerMetrics["riskCoverage"] {
  const n = curve.coverage.length;
  if (n <= POINTS) return { coverage: [...curve.coverage], risk: [...curve.risk] };
  const at = [...new Set(Array.from({ length: POINTS }, (_, i) => Math.max(0, Math.round((i / (POINTS - 1)) * n) - 1)))];
  return { coverage: at.map((i) => curve.coverage[i]!), risk: at.map((i) => curve.risk[i]!) };
}


/**
 * Each scorer's ranking and calibration on the run's split; with `guarantee` (all but the seed and split share
 * defaulted from the run), also its guarantee over repeats of the split of the same items (scorerGuarantee.ts).
 */
export function scorerMetrics(
  scorers: readonly Scorer[], calibration: readonly ScoredGrade[], test: readonly ScoredGrade[], guarantee?: Omit<GuaranteeSettings, "calibrationFraction">,
): ScorerMetrics[] {
  const pooled = [...calibration, ...test];
  const fraction = calibration.length / Math.max(1, pooled.length);
  return scorers.map((s) => {
    const all = [...calibration, ...test].filter((g) => g.scores[s.name] !== undefined);
    const { estimator, target } = prepareForMetrics(all.map((g) => g.scores[s.name]!), all.map((g) => (g.correct ? 1 : 0)));
    const error = target.map((t) => 1 - t);
    const conf = (list: readonly ScoredGrade[]) => Float64Array.from(list, (g) => confidenceOf(s, g.scores[s.name] ?? NaN));
    const yes = (list: readonly ScoredGrade[]) => Float64Array.from(list, (g) => (g.correct ? 1 : 0));
    const testConf = conf(test);
    const eceBefore = test.length ? expectedCalibrationError(testConf.map((c) => -c), yes(test)) : NaN;
    let eceAfter = NaN;
    if (calibration.length >= 2 && test.length) {
      const fitted = predictBeliefBatch(calibrateBelief(conf(calibration), yes(calibration)), testConf);
      eceAfter = expectedCalibrationError(fitted.probability.map((p) => -p), yes(test));
    }
    return {
      scorer: s.name, level: s.level, n: estimator.length,
      rocAuc: rocAuc(estimator, error), prr: predictionRejectionRatio(estimator, target), rccAuc: riskCoverageCurveAuc(estimator, target),
      riskCoverage: thin(riskCoverageCurve(estimator, target)), eceBefore, eceAfter,
      ...(guarantee && pooled.length >= 4 ? { guarantee: scorerGuarantee(s, pooled, { ...guarantee, calibrationFraction: fraction }) } : {}),
    };
  });
}

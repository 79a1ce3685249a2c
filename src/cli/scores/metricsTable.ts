// The `--metrics` table: for each scorer, lm-polygraph's ue_metrics over the lines that carry `correct`, and the
// ECE of its mapped confidence beside the ECE after a Venn–Abers calibration of that confidence (two-fold: each half
// calibrated on the other), which is what a belief or gate profile would report.
import { calibrateBelief, predictBeliefBatch } from "../../conformal/index.js";
import {
  expectedCalibrationError, kendallTau, prAuc, predictionRejectionArea, predictionRejectionRatio, prepareForMetrics,
  riskCoverageCurveAuc, rocAuc, spearmanCorrelation, type Scorer,
} from "../../uncertainty/index.js";

export const METRIC_COLUMNS = ["roc-auc", "pr-auc", "prr", "prr_normalized", "rcc-auc", "ece", "ece_venn_abers", "spearmanr", "kendalltau"] as const;
export type MetricRow = { scorer: string; level: string; n: number } & Partial<Record<(typeof METRIC_COLUMNS)[number], number>>;

/** ECE of Venn–Abers probabilities, each half of the items calibrated on the other half. */
function vennAbersEce(confidence: Float64Array, correct: Float64Array): number | undefined {
  const halves = [0, 1].map((h) => confidence.map((_, i) => i).filter((i) => i % 2 === h));
  if (halves.some((idx) => idx.length < 2)) return undefined;
  const p = new Float64Array(confidence.length);
  for (const [fit, apply] of [[halves[0]!, halves[1]!], [halves[1]!, halves[0]!]] as const) {
    const cal = calibrateBelief(fit.map((i) => confidence[i]!), fit.map((i) => correct[i]!));
    const out = predictBeliefBatch(cal, apply.map((i) => confidence[i]!)).probability;
    apply.forEach((i, t) => { p[i] = out[t]!; });
  }
  return expectedCalibrationError(p.map((x) => -x), correct);
}

/** One row per scorer over the items where it was scored and `correct` is known. */
export function metricRow(scorer: Scorer, values: readonly number[], correct: readonly number[]): MetricRow {
  const { estimator, target } = prepareForMetrics(values, correct);
  const row: MetricRow = { scorer: scorer.name, level: scorer.level, n: target.length };
  if (target.length < 2) return row;
  const binary = target.every((t) => t === 0 || t === 1);
  if (binary) {
    // The positive class of roc-auc and pr-auc is a wrong answer: how well the uncertainty finds the errors.
    const wrong = target.map((t) => 1 - t);
    row["roc-auc"] = rocAuc(estimator, wrong);
    row["pr-auc"] = prAuc(estimator, wrong);
    const confidence = estimator.map((u) => scorer.confidence(u));
    row.ece = expectedCalibrationError(confidence.map((c) => -c), target);
    const va = vennAbersEce(confidence, target);
    if (va !== undefined) row.ece_venn_abers = va;
  }
  row.prr = predictionRejectionArea(estimator, target);
  row.prr_normalized = predictionRejectionRatio(estimator, target);
  row["rcc-auc"] = riskCoverageCurveAuc(estimator, target);
  row.spearmanr = spearmanCorrelation(estimator, target);
  row.kendalltau = kendallTau(estimator, target);
  return row;
}

/** The table as aligned text, a dash where a metric does not apply (a graded target has no roc-auc). */
export function formatMetricTable(rows: readonly MetricRow[]): string {
  const header = ["scorer", "level", "n", ...METRIC_COLUMNS];
  const cells = rows.map((r) => [r.scorer, r.level, String(r.n), ...METRIC_COLUMNS.map((c) => (r[c] === undefined ? "—" : Number.isNaN(r[c]) ? "NaN" : r[c]!.toFixed(4)))]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: string[]) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(header), ...cells.map(line)].join("\n") + "\n";
}

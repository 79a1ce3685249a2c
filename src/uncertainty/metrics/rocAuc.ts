// ROC-AUC and PR-AUC of uncertainty against binary labels, as lm-polygraph's ROCAUC and PRAUC call scikit-learn's
// roc_auc_score(target, estimator) and average_precision_score(target, estimator): a transcription of sklearn's
// _binary_clf_curve (distinct thresholds, descending), the trapezoidal ROC area and the step-wise average precision
// Σ (R_k − R_{k−1}) P_k (Hanley & McNeil 1982; Zhu 2004). A target of 1 is the positive class.

interface Curve { tps: number[]; fps: number[] }

/** True and false positives at each distinct threshold, highest threshold first (sklearn's _binary_clf_curve). */
function binaryCurve(target: ArrayLike<number>, score: ArrayLike<number>): Curve {
  const order = Int32Array.from({ length: score.length }, (_, i) => i).sort((a, b) => score[b]! - score[a]!);
  const tps: number[] = [];
  const fps: number[] = [];
  let tp = 0;
  for (let k = 0; k < order.length; k++) {
    tp += target[order[k]!]! === 1 ? 1 : 0;
    if (k === order.length - 1 || score[order[k + 1]!]! !== score[order[k]!]!) {
      tps.push(tp);
      fps.push(k + 1 - tp);
    }
  }
  return { tps, fps };
}

/** Area under the ROC curve; NaN when the target has one class only (sklearn raises there). */
export function rocAuc(estimator: ArrayLike<number>, target: ArrayLike<number>): number {
  const { tps, fps } = binaryCurve(target, estimator);
  const p = tps[tps.length - 1] ?? 0, n = fps[fps.length - 1] ?? 0;
  if (p === 0 || n === 0) return NaN;
  let area = 0, x0 = 0, y0 = 0;
  for (let k = 0; k < tps.length; k++) {
    const x = fps[k]! / n, y = tps[k]! / p;
    area += ((x - x0) * (y + y0)) / 2;
    x0 = x; y0 = y;
  }
  return area;
}

/** Average precision (sklearn's, not interpolated); 0 when there is no positive. */
export function prAuc(estimator: ArrayLike<number>, target: ArrayLike<number>): number {
  const { tps, fps } = binaryCurve(target, estimator);
  const p = tps[tps.length - 1] ?? 0;
  if (p === 0) return 0;
  let ap = 0, r0 = 0;
  for (let k = 0; k < tps.length; k++) {
    const r = tps[k]! / p;
    ap += (r - r0) * (tps[k]! / (tps[k]! + fps[k]!));
    r0 = r;
  }
  return Math.max(0, ap);
}

// The ranking metrics against lm-polygraph's ue_metrics on the same scores and targets (inputs and numbers in
// reference/values.ts, from `python3 test/uncertainty/reference/lm_polygraph_reference.py
// /work/.mirror/IINemo+lm-polygraph/repo /work/.mirror/nltk+nltk/repo`; roc-auc and pr-auc go through a transcription
// of scikit-learn's roc_auc_score / average_precision_score there, as sklearn cannot be installed here), to 1e-9
// relative, and hand-worked cases.
import { describe, expect, it } from "vitest";
import {
  expectedCalibrationError, kendallTau, prAuc, predictionRejectionArea, predictionRejectionRatio, prepareForMetrics,
  riskCoverageCurve, riskCoverageCurveAuc, rocAuc, spearmanCorrelation,
} from "../../src/uncertainty/index.js";
import { REFERENCE as R } from "./reference/values.js";
import { expectClose, nums } from "./reference/numbers.js";

const ue = nums(R.metricInputs.ue);
const ties = nums(R.metricInputs.ueTies);
const binary = nums(R.metricInputs.binary);
const graded = nums(R.metricInputs.graded);
const conf = ue.map((u) => 1 / (1 + Math.exp(u)));
const M = R.metrics;

describe("ue_metrics equal lm-polygraph's", () => {
  it("roc-auc (sklearn's roc_auc_score(target, estimator)), with and without tied scores", () => {
    expectClose(rocAuc(ue, binary), M["roc-auc"], "roc-auc");
    expectClose(rocAuc(ties, binary), M["roc-auc ties"], "roc-auc ties");
  });
  it("pr-auc (sklearn's average_precision_score)", () => {
    expectClose(prAuc(ue, binary), M["pr-auc"], "pr-auc");
    expectClose(prAuc(ties, binary), M["pr-auc ties"], "pr-auc ties");
  });
  it("prr, prr over half the rejections, on a graded and a binary target, and the oracle", () => {
    expectClose(predictionRejectionArea(ue, graded), M.prr, "prr");
    expectClose(predictionRejectionArea(ue, graded, 0.5), M["prr_0.5"], "prr_0.5");
    expectClose(predictionRejectionArea(ue, binary), M["prr binary"], "prr binary");
    expectClose(predictionRejectionArea(graded.map((g) => -g), graded), M["prr oracle"], "prr oracle");
  });
  it("rcc-auc, normalised and not, with ties (Python's stable sort)", () => {
    expectClose(riskCoverageCurveAuc(ue, graded), M["rcc-auc"], "rcc-auc");
    expectClose(riskCoverageCurveAuc(ties, graded), M["rcc-auc ties"], "rcc-auc ties");
    expectClose(riskCoverageCurveAuc(ue, graded, false), M["rcc-auc unnormalized"], "rcc-auc unnormalized");
  });
  it("spearmanr and kendalltau (scipy), with ties", () => {
    expectClose(spearmanCorrelation(ue, graded), M.spearmanr, "spearmanr");
    expectClose(spearmanCorrelation(ties, binary), M["spearmanr ties"], "spearmanr ties");
    expectClose(kendallTau(ue, graded), M.kendalltau, "kendalltau");
    expectClose(kendallTau(ties, binary), M["kendalltau ties"], "kendalltau ties");
  });
  it("ece of a confidence, and of min–max normalised scores", () => {
    expectClose(expectedCalibrationError(conf.map((c) => -c), binary), M.ece, "ece");
    expectClose(expectedCalibrationError(ue, binary, { normalize: true }), M["ece normalized"], "ece normalized");
  });
});

describe("hand-worked metric cases", () => {
  it("a score that ranks every error above every correct answer: roc-auc 1 on the error label, prr ratio 1, rcc-auc 0 at full coverage of the good", () => {
    const u = [0.1, 0.2, 0.3, 0.8, 0.9];
    const correct = [1, 1, 1, 0, 0];
    expect(rocAuc(u, correct.map((c) => 1 - c))).toBe(1);
    expect(prAuc(u, correct.map((c) => 1 - c))).toBe(1);
    expect(predictionRejectionRatio(u, correct)).toBeCloseTo(1, 14);
    const curve = riskCoverageCurve(u, correct);
    expect(Array.from(curve.risk.slice(0, 3))).toEqual([0, 0, 0]);
    expect(curve.risk[4]).toBeCloseTo(0.4, 14);
  });
  it("a reversed score: roc-auc 0, and a prr ratio below 0 (worse than the random order's exact expectation)", () => {
    expect(rocAuc([0.1, 0.2, 0.9], [1, 1, 0])).toBe(0);
    // Worst order, qualities 0, 1, 1: prefix means 0, 1/2, 2/3 → 7/18; random 2/3; oracle 1, 1, 2/3 → 8/9.
    expect(predictionRejectionRatio([3, 2, 1], [1, 1, 0])).toBeCloseTo((7 / 18 - 2 / 3) / (8 / 9 - 2 / 3), 14);
  });
  it("roc-auc of one class only is NaN (sklearn refuses it)", () => expect(rocAuc([1, 2], [1, 1])).toBeNaN());
  it("ece of confidences equal to the accuracy in their bin is 0", () => {
    expect(expectedCalibrationError([-0.5, -0.5, -1, -1], [1, 0, 1, 1])).toBe(0);
  });
  it("prepareForMetrics does what lm-polygraph's manager does to NaN and infinite values", () => {
    const p = prepareForMetrics([NaN, -Infinity, Infinity, 2], [1, 0, NaN, 1]);
    expect(Array.from(p.estimator)).toEqual([-1e7, -1e7, 2]);
    expect(Array.from(p.target)).toEqual([1, 0, 1]);
  });
});

describe("Kendall's tau in O(n log n)", () => {
  it("equals the pair-by-pair count on tied data", () => {
    let seed = 3;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 50; round++) {
      const n = 2 + Math.floor(rand() * 40);
      const x = Array.from({ length: n }, () => Math.floor(rand() * 5));
      const t = Array.from({ length: n }, () => Math.floor(rand() * 3));
      const y = t.map((v) => -v);
      let con = 0, dis = 0, xOnly = 0, yOnly = 0;
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
        const s = Math.sign(x[j]! - x[i]!) * Math.sign(y[j]! - y[i]!);
        if (s > 0) con++; else if (s < 0) dis++; else if (x[i] === x[j] && y[i] !== y[j]) xOnly++; else if (y[i] === y[j] && x[i] !== x[j]) yOnly++;
      }
      const expected = (con - dis) / Math.sqrt((con + dis + xOnly) * (con + dis + yOnly));
      const got = kendallTau(x, t);
      if (Number.isNaN(expected) || !Number.isFinite(expected)) expect(got).toBeNaN();
      else expect(got).toBeCloseTo(expected, 12);
    }
  });
});

// Inductive Venn–Abers predictors (Vovk & Petej 2014; Vovk, Petej & Fedorova 2015): isotonic regression
// of the labels on the calibration scores, refitted with the test point added with label 0 and with
// label 1. Fit once in O(n log n), predict in O(log n).

import { invalid, assertKind } from "../errors.js";
import { countBelowIndexed } from "../numeric/orderStatistic.js";
import type { BeliefPrediction, CalibratedBelief } from "./beliefTypes.js";

export type { BeliefPrediction, CalibratedBelief } from "./beliefTypes.js";

export { fitVennAbers as calibrateBelief } from "./vennAbersFit.js";

/** Venn–Abers probabilities for one test score. O(log n). */
export function predictBelief(cal: CalibratedBelief, score: number): BeliefPrediction {
  assertKind(cal, "belief", "predictBelief");
  if (Number.isNaN(score)) throw invalid("score is NaN", "score");
  const g = countBelowIndexed(cal.xs, score);
  const tie = g < cal.xs.length && cal.xs[g] === score;
  const p0 = tie ? cal.p0Tie[g]! : cal.p0Gap[g]!;
  const p1 = tie ? cal.p1Tie[g]! : cal.p1Gap[g]!;
  return { p0, p1, probability: p1 / (1 - p0 + p1) };
}

/** Venn–Abers for a column of test scores: p0, p1 and the merged probability per score, no object per row. */
export function predictBeliefBatch(cal: CalibratedBelief, scores: Float64Array): { p0: Float64Array; p1: Float64Array; probability: Float64Array } {
  assertKind(cal, "belief", "predictBeliefBatch");
  const m = scores.length;
  const out = { p0: new Float64Array(m), p1: new Float64Array(m), probability: new Float64Array(m) };
  beliefsInto(cal, scores, 0, 1, m, out.p0, out.p1, out.probability, 0, 1);
  return out;
}

/** Writes the beliefs of scores[from + t·stride] (t < m) to out[at + t·outStride]. Shared by the per-option beliefs. */
export function beliefsInto(
  cal: CalibratedBelief, scores: Float64Array, from: number, stride: number, m: number,
  p0: Float64Array, p1: Float64Array, probability: Float64Array | undefined, at: number, outStride: number,
): void {
  const xs = cal.xs;
  for (let t = 0; t < m; t++) {
    const s = scores[from + t * stride]!;
    if (Number.isNaN(s)) throw invalid(`scores[${from + t * stride}] is NaN`, `scores[${from + t * stride}]`);
    const g = countBelowIndexed(xs, s);
    const tie = g < xs.length && xs[g] === s;
    const a = tie ? cal.p0Tie[g]! : cal.p0Gap[g]!;
    const b = tie ? cal.p1Tie[g]! : cal.p1Gap[g]!;
    p0[at + t * outStride] = a;
    p1[at + t * outStride] = b;
    if (probability) probability[at + t * outStride] = b / (1 - a + b);
  }
}

/**
 * Reference Venn–Abers by refitting PAV with the test point added (O(n) per test point after sorting).
 * Used by the tests to check the fast fit; scores that tie are pooled (the fit is a function of the score).
 */
export function vennAbersReference(scores: ArrayLike<number>, labels: ArrayLike<number>, test: number): BeliefPrediction {
  const fitAt = (label: number) => {
    const xs = Array.from(scores as ArrayLike<number>).concat(test);
    const ys = Array.from(labels as ArrayLike<number>).concat(label);
    const idx = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
    // Pool equal scores, then PAV over the pooled blocks.
    const blocks: { x: number; w: number; s: number }[] = [];
    for (const i of idx) {
      const last = blocks[blocks.length - 1];
      if (last && last.x === xs[i]) {
        last.w++;
        last.s += ys[i]!;
      } else blocks.push({ x: xs[i]!, w: 1, s: ys[i]! });
    }
    const stack: { w: number; s: number; first: number }[] = [];
    blocks.forEach((b, bi) => {
      let cur = { w: b.w, s: b.s, first: bi };
      while (stack.length && stack[stack.length - 1]!.s / stack[stack.length - 1]!.w >= cur.s / cur.w) {
        const top = stack.pop()!;
        cur = { w: top.w + cur.w, s: top.s + cur.s, first: top.first };
      }
      stack.push(cur);
    });
    const at = blocks.findIndex((b) => b.x === test);
    for (let k = stack.length - 1; k >= 0; k--) if (stack[k]!.first <= at) return stack[k]!.s / stack[k]!.w;
    return NaN;
  };
  const p0 = fitAt(0);
  const p1 = fitAt(1);
  return { p0, p1, probability: p1 / (1 - p0 + p1) };
}



// What a Venn–Abers calibration holds and what it predicts, below both the fit (vennAbersFit.ts) and the
// predictor (vennAbers.ts), which import each other's results only through these types.

export interface CalibratedBelief {
  readonly kind: "belief";
  readonly n: number;
  /** Distinct calibration scores, ascending (k' of them). */
  readonly xs: Float64Array;
  /** p0 / p1 for a test score strictly between xs[g-1] and xs[g] (g = 0..k'). */
  readonly p0Gap: Float64Array;
  readonly p1Gap: Float64Array;
  /** p0 / p1 for a test score equal to xs[j] (j = 0..k'-1). */
  readonly p0Tie: Float64Array;
  readonly p1Tie: Float64Array;
}

export interface BeliefPrediction {
  /** Isotonic fit at the test score with the test labelled 0, and labelled 1 (p0 ≤ p1). */
  readonly p0: number;
  readonly p1: number;
  /** p1 / (1 − p0 + p1): the log-loss-minimax merge (Vovk & Petej 2014). */
  readonly probability: number;
}

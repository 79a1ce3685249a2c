// A gate's examples, options and calibration, below both calibrations of a gate: from all scores at once
// (gate.ts) and from scores kept sorted by label (gateSortedScores.ts).

export type GateGuarantee = "risk" | "risk_high_probability" | "fdr";
export type GateDecision = "auto_approve" | "escalate" | "abstain";

export interface GateExamples {
  /** p(pass) per example (any scale where larger means "more likely pass" works). */
  readonly scores: ArrayLike<number>;
  /** 1 / true = pass, 0 / false = fail. */
  readonly labels: ArrayLike<number | boolean>;
  /** Loss if example i were approved, in [0, lossBound]; default 1 for a fail, 0 for a pass. risk guarantees only. */
  readonly losses?: ArrayLike<number>;
}

export interface GateOptions {
  readonly guarantee: GateGuarantee;
  /** risk: bound on expected loss; risk_high_probability: bound on risk; fdr: FDR level q. In (0, 1). */
  readonly target: number;
  /** risk_high_probability only: the bound holds with probability ≥ 1 − δ. */
  readonly delta?: number;
  /** B, the largest loss (default 1). */
  readonly lossBound?: number;
  /** risk_high_probability: thresholds from strict to lenient, fixed before seeing data (default: every threshold, i.e. the distinct calibration scores). */
  readonly grid?: ArrayLike<number>;
}

export interface CalibratedGate {
  readonly kind: "gate";
  readonly guarantee: GateGuarantee;
  readonly target: number;
  readonly delta?: number;
  readonly n: number;
  /** risk / risk_high_probability: approve iff score ≥ threshold. fdr: the single-query threshold (batch of one). */
  readonly threshold: number;
  /** False when no threshold meets the guarantee: every decision is then abstain. */
  readonly feasible: boolean;
  /** Empirical risk at the threshold (risk guarantees). */
  readonly empiricalRisk: number;
  /** fdr: ascending scores of the calibration fails (for conformal p-values). */
  readonly failScores?: Float64Array;
}

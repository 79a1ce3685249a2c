// What a statistician asks of a calibrated run first (docs/report.md): where coverage holds beyond the
// marginal (by true class, group, set size), the threshold the sets come from, how calibrated the raw
// probabilities were beside the Venn–Abers beliefs, and what the naive sets would have done.

import type { StratumCoverage } from "../conformal/index.js";

/** Calibration of forecasts of binary events: ECE over 10 equal-width bins, Brier score, log-loss (nats). */
export interface ForecastCalibration {
  n: number;
  ece: number;
  brier: number;
  logLoss: number;
}

export interface BaselineRow {
  /** `conformal` (the service's sets), `top-1`, `top-k`, `cumulative`. */
  name: string;
  /** How the sets are made, in words. */
  rule: string;
  /** k of top-k; absent otherwise. */
  k?: number;
  coverage: number;
  averageSize: number;
  /** Clopper–Pearson 95% interval of the coverage. */
  ci: [number, number];
  /** Whether the sets carry a finite-sample coverage guarantee. */
  guaranteed: boolean;
}

export interface RunStatistics {
  alpha: number;
  target: number;
  /** Central probability of every coverage band in the report (beta-binomial law of split-conformal coverage). */
  bandLevel: number;
  /** The calibrated split-conformal threshold q̂ (k-th smallest of n calibration scores), recomputed locally. */
  threshold: { method: string; score: number; k: number; n: number; rule: string };
  /** Shares of the test split's sets that were empty, singletons, or every option. */
  rates: { n: number; empty: number; singleton: number; full: number };
  /** Coverage of each stratum of the test split, with its Clopper–Pearson 95% interval. */
  coverageByClass: StratumCoverage[];
  coverageByGroup: StratumCoverage[];
  coverageBySize: StratumCoverage[];
  /** Coverage by the items' number of options (keys "3", "4", …). Absent in older summaries. */
  coverageByOptionCount?: StratumCoverage[];
  /** Size-stratified coverage: the lowest coverage over set sizes holding at least 10 test items (NaN if none). */
  sizeStratifiedCoverage: number;
  calibration: {
    /** Every (test item, option) pair: the model's normalised probability, and the Venn–Abers belief. */
    raw: ForecastCalibration;
    vennAbers: ForecastCalibration | null;
    /** The model's top option: its probability as confidence, correct or not. */
    topLabel: ForecastCalibration & { accuracy: number; confidence: number };
  };
  /** Sets at the same α on the test split: the conformal ones and the naive ones. */
  baselines: BaselineRow[];
  warnings: string[];
  /** A stable code per warning (same order), so repeats of a suite can count each kind. Absent in older summaries. */
  warningCodes?: string[];
}

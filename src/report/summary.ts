// What one `calibkit run` measured: written as summary.json and drawn as report.html. Plain data
// only (numbers, strings, arrays), so the report can be rendered again from the JSON file alone.
import type { RunStatistics } from "./runStatistics.js";

export interface SummaryAlert {
  type: string;
  severity: string;
  n: number;
  e_value: number;
  message: string;
  detected_at: string;
}

/** A field of one answer where the service and the local engine disagree. */
export interface Disagreement {
  query: string;
  field: string;
  service: unknown;
  local: unknown;
}

export interface RunSummary {
  /** calibkit's version and when the run finished (ISO 8601). */
  calibkit: string;
  createdAt: string;
  model: { path: string; backend: string; accessLevel: string; fingerprint?: string };
  /** Where the evidence came from when no model was run: an lm-eval `--log_samples` file and its results file. */
  source?: { lmEvalSamples: string; lmEvalResults: string | null; task: string; model: string; modelArgs: string | null; taskHash: string };
  dataset: { path: string; kind: string; items: number; seed: number };
  /** What each test item asked: a set of options (multiple choice) or an interval of levels (ordinal). Default set. */
  queryType?: "set" | "interval";
  service: { url: string; embedded: boolean };
  profile: {
    name: string; method: string; alpha: number; n: number; status: string; minimumN: number; recommendedN: number;
    /** Which examples calibrate a set query (the profile's set_pooling); absent: exact option names. */
    setPooling?: "exact" | "pooled" | "by_option_count";
  };
  split: { calibration: number; test: number; audit: number; monitor: number };
  test: {
    n: number;
    /** 1 − α. */
    target: number;
    /** Share of test items whose gold answer is in the service's set. */
    coverage: number;
    /** Central 99.9% range of test coverage for this n and calibration size (beta-binomial law). */
    band: [number, number];
    averageSetSize: number;
    /** Share of test items whose most probable option is the gold one (the model alone). */
    accuracy: number;
    /** Set size → number of test items. */
    setSizes: { size: number; count: number }[];
  };
  /** Coverage of the test split against target for a sweep of α, computed by the local engine on the same scores. */
  sweep: { alpha: number; target: number; coverage: number; averageSetSize: number; band: [number, number] }[];
  /** Venn-Abers beliefs of every (test item, option) pair, binned: mean belief vs observed frequency. */
  reliability: {
    pairs: number;
    bins: { lower: number; upper: number; count: number; meanBelief: number; observed: number; meanP0: number; meanP1: number }[];
  };
  audit: { result: string; realizedCoverage: number; ci: [number, number]; sample: number; target: number; date: string };
  monitor: {
    id: string;
    type: string;
    target: number;
    falseAlarmRate: number;
    status: string;
    /** The e-value at which the monitor alarms: 1 / false_alarm_rate. */
    threshold: number;
    /** The e-value after each labelled observation (local engine, same stream as the service's monitor). */
    path: { n: number; eValue: number }[];
    alerts: SummaryAlert[];
  };
  /** Conditional coverage, threshold, calibration errors, baselines and warnings (absent in older summaries). */
  statistics?: RunStatistics;
  crossCheck: { answers: number; fields: number; disagreements: Disagreement[] };
  timings: { step: string; seconds: number; items?: number }[];
  /**
   * Where this run's evidence came from (run-specific, like timings): rows read from the evidence cache, rows
   * computed, and the model's inference calls. `dir` null: --no-cache.
   */
  evidenceCache?: {
    dir: string | null; hits: number; computed: number; modelCalls: number; tokens?: number;
    /** Of the computed rows, those a stopped run was computing when it was killed (at most one batch per stopped run). */
    redone?: number;
  };
  totalSeconds: number;
}

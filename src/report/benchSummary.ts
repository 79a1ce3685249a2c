// What `calibkit bench` writes (docs/bench.md): one row per model × task × method × α, aggregated over
// the suite's repeats, and the evidence throughput per model × task.
import type { ScorerGuarantee } from "./querySummary.js";
import type { CellStatistics } from "./repeatStatistics.js";

export interface BenchRow {
  model: string;
  task: string;
  /** Set queries (multiple choice) or interval queries (ordinal items). */
  queryType: "set" | "interval";
  method: string;
  alpha: number;
  repeats: number;
  calibration: number;
  test: number;
  coverage: { mean: number; sd: number; min: number; max: number; perRepeat: number[] };
  /** The central BAND_LEVEL range of one repeat's test coverage (beta-binomial law of split conformal). */
  band: [number, number];
  bandLevel: number;
  /** Repeats whose coverage lies inside the band. */
  inBand: number;
  /** Mean and sd of one repeat's coverage under its beta-binomial law, and the z of the observed mean. */
  law: { mean: number; sd: number; z: number };
  meanSetSize: number;
  singletonRate: number;
  emptyRate: number;
  accuracy: number;
  /** Expected calibration error (10 bins) over (item, option) pairs of the test split, mean over repeats. */
  eceRaw: number;
  /** NaN for interval tasks (no Venn–Abers beliefs, as in a run). */
  eceVennAbers: number;
  /** The run report's statistician's section (threshold, conditional coverage, calibration errors, baselines, warnings) over the repeats. */
  statistics: CellStatistics;
  /** Calibrate + predict over all repeats. */
  seconds: number;
}

/** One model × free-form task × scorer × α of a suite: the scorer's ranking of the answers and its guarantee over the repeats. */
export interface BenchGenerationRow {
  model: string;
  task: string;
  /** lm-eval's task name, or generic. */
  generationTask: string;
  queryType: "gate" | "belief";
  /** lm-polygraph's estimator name. */
  scorer: string;
  level: string;
  /** The gate's risk target; null for beliefs (nothing to choose). */
  alpha: number | null;
  items: number;
  /** Share of right greedy answers over the task's items, by `grader`. */
  accuracy: number;
  grader: string;
  /** Over every item (no split): ROC-AUC, PRR, lm-polygraph's rcc-auc and the risk–coverage curve. */
  rocAuc: number;
  prr: number;
  rccAuc: number;
  riskCoverage: { coverage: number[]; risk: number[] };
  guarantee: ScorerGuarantee;
  seconds: number;
}

export interface BenchEvidence {
  model: string;
  task: string;
  items: number;
  hits: number;
  computed: number;
  /** Of the computed rows, those a stopped bench was computing when it was killed. */
  redone?: number;
  modelCalls: number;
  seconds: number;
  itemsPerSecond: number;
  /** Tokens of the computed items' text (context, question, choices) per second of evidence; null when none were computed. */
  tokensPerSecond: number | null;
  accessLevel: string;
  /** When the cell's evidence began and ended, in seconds from the suite's start (models run side by side). */
  started?: number;
  finished?: number;
}

/** A model × task whose evidence failed (its model could not load, its server failed or died): no rows. */
export interface BenchFailure {
  model: string;
  task: string;
  error: string;
}

export interface BenchSummary {
  calibkit: string;
  createdAt: string;
  suite: string;
  seed: number;
  repeats: number;
  models: string[];
  tasks: { name: string; dataset: string; items: number }[];
  methods: string[];
  alphas: number[];
  cache: string | null;
  evidence: BenchEvidence[];
  rows: BenchRow[];
  /** The scorers compared on the free-form tasks, in the suite's order. */
  scorers?: string[];
  /** Free-form tasks: one row per model × task × scorer × α (belief: per scorer). Absent without free-form tasks. */
  generation?: BenchGenerationRow[];
  /** Listed scorers a model's access level does not allow, per model × task. */
  skippedScorers?: { model: string; task: string; scorer: string; reason: string }[];
  /** Cells that failed; a rerun computes only what is missing. Absent in summaries of older versions. */
  failures?: BenchFailure[];
  totalSeconds: number;
}

// What a `calibkit run --query-type belief|gate|claim|judge|route` measured: the guarantee's quantity on the
// test split against its target and its finite-sample band, the rates that go with it, and the cross-check.
import type { Spread } from "./repeatStatistics.js";
import type { Disagreement, RunSummary } from "./summary.js";

export interface QuerySection {
  /** The guarantee in words: guaranteeStatement of the table of guarantees (src/api/guarantees.ts, docs/guarantees.md). */
  guarantee: string;
  /** The measured quantity, e.g. "realized risk (fails auto-approved / test items)". */
  quantity: string;
  value: number;
  target: number;
  /** Where `value` should land on this seeded split, and how that range was computed. */
  band: [number, number];
  bandNote: string;
  inBand: boolean;
  /** Test items the quantity is measured over. */
  n: number;
  rates: { name: string; value: number; note?: string }[];
  /** Gate fdr runs sent in batches: the batch size and each batch's realized FDR, in order. */
  batches?: { size: number; fdr: number[] };
  /** Belief runs: the Venn–Abers probabilities binned against the observed frequency of yes. */
  reliability?: RunSummary["reliability"];
  /** Belief runs: expected and maximum calibration error over the bins. */
  calibrationErrors?: { expected: number; maximum: number };
  /** Free-form runs: the task, its grader, the scorer calibrated on, and every scorer's ranking and calibration. */
  generation?: GenerationSection;
}

/** What a free-form (generation) run adds to its section. */
export interface GenerationSection {
  task: string;
  /** The task's grader, as `task: metric`. */
  grader: string;
  /** The scorer whose confidence is the evidence (lm-polygraph's name). */
  scorer: string;
  samples: number;
  sampling: Record<string, number>;
  scorers: {
    scorer: string; level: string; n: number; rocAuc: number; prr: number; rccAuc: number;
    riskCoverage: { coverage: number[]; risk: number[] }; eceBefore: number; eceAfter: number;
    /** The scorer's confidence calibrated as the run's query type on seeded repeats of the split (absent in older summaries). */
    guarantee?: ScorerGuarantee;
  }[];
}

/**
 * One scorer's confidence put through a gate or a belief on the local conformal engine, over independent seeded
 * calibration/test splits of the same graded answers: what the guarantee would have given had this scorer been the
 * one calibrated (a run's other scorers, a suite's every scorer).
 */
export interface ScorerGuarantee {
  queryType: "gate" | "belief";
  /** The guarantee in words (guaranteeStatement). */
  guarantee: string;
  /** What `value` measures on each repeat's test split. */
  quantity: string;
  /** Gate: the risk target; belief: the mean Venn–Abers midpoint (the prediction the frequency is held against), mean over repeats. */
  target: number;
  repeats: number;
  calibration: number;
  test: number;
  value: Spread & { perRepeat: number[] };
  /** Each repeat's finite-sample band for `value` (run/queryTypes/bands.ts), and how many repeats fell inside. */
  bands: [number, number][];
  inBand: number;
  bandNote: string;
  /** Gate: share of test items not auto-approved (escalated, or the gate abstaining); null for beliefs, which always answer. */
  abstention: Spread | null;
  /** ECE (20 bins) on the test split of the raw confidence and of the Venn–Abers probability fitted on calibration. */
  eceBefore: Spread;
  eceAfter: Spread;
}

export interface QueryRunSummary {
  calibkit: string;
  createdAt: string;
  queryType: "belief" | "gate" | "claim" | "judge" | "route";
  model: RunSummary["model"];
  /** Where the evidence came from when no model was run (an lm-eval --log_samples file). */
  source?: RunSummary["source"];
  dataset: RunSummary["dataset"];
  service: RunSummary["service"];
  profile: { name: string; alpha: number; n: number; status: string; minimumN: number; recommendedN: number };
  /** Cascade stages (judge, route) with their cost per call. */
  stages: { name: string; url: string; costPerCall: number }[];
  split: { calibration: number; test: number };
  section: QuerySection;
  crossCheck: {
    answers: number;
    fields: number;
    unchecked: Record<string, number>;
    uncheckedReasons: { query: string; reason: string }[];
    disagreements: Disagreement[];
  };
  timings: RunSummary["timings"];
  /** Rows of the evidence step read from the evidence cache and computed, and the model calls (local and stages) it made. */
  evidenceCache?: RunSummary["evidenceCache"];
  totalSeconds: number;
}

// What a `calibkit run --query-type belief|gate|claim|judge|route` measured: the guarantee's quantity on the
// test split against its target and its finite-sample band, the rates that go with it, and the cross-check.
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
  }[];
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

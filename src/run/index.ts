// The main job as a library (DESIGN.md `src/run/`): split, evidence, calibrate, evaluate, audit, monitor,
// cross-check and analysis for one model on one dataset, and benchmark suites over many models × tasks.
// `calibkit run` and `calibkit bench` only parse options and print. The entry points load the inference
// engines, the service and the charting library on first call, so importing this face stays cheap.
import type { Dataset } from "../datasets/index.js";
import type { BenchSummary, QueryRunSummary } from "../report/index.js";
import type { BenchOptions } from "./bench/runBench.js";
import type { Suite } from "./bench/suite.js";
import type { RunOptions } from "./options.js";
import type { RunResult } from "./pipeline.js";
import type { TypedQuery } from "./queryTypes/types.js";

export { RunInputError, RunOptionError } from "./errors.js";
export { DEFAULT_DATASET, DEFAULT_MODEL_FILE, defaultModel, type RunOptions } from "./options.js";
export {
  checkGuarantee, GUARANTEES, QUERY_TYPE_NAMES, type QueryTypeName, type QueryTypeOptions, type StageOption,
} from "./queryTypeOptions.js";
export { DEFAULT_QUERY_TYPE } from "./queryTypes/index.js";
export { TYPED_QUERIES, type TypedQuery } from "./queryTypes/types.js";
export { parsePromptFlags, type PromptFlags, type PromptFlagValues } from "./promptFlags.js";
export { cacheDirOf, defaultCacheDir } from "./cacheDir.js";
export { checkOutDir, checkSplitSizes } from "./preflight.js";
export { BAND_LEVEL, coverageBand } from "./coverageBand.js";
export {
  eValuePath, reliabilityBins, setSizeHistogram, sweepCoverage, SWEEP_ALPHAS, type BeliefPair, type ScoredItem,
} from "./analysis.js";
export { runStatistics, type AnsweredItem, type StatisticsInput } from "./statistics.js";
export { startProgress, type Progress, type ProgressOptions } from "./progress.js";
export { choicesOf, METHODS_BY_TYPE, methodFor, promptItemOf, type ChoiceItem, type Choices, type QueryType } from "./choices.js";
export { loadFewshot, withoutExemplars } from "./fewshot.js";
export { parseSuite, SuiteError, type Suite, type SuiteTask } from "./bench/suite.js";
export type { BenchOptions } from "./bench/runBench.js";
export type { RunResult } from "./pipeline.js";

/** A set or interval run (the dataset's items are multiple-choice or ordinal). */
export async function runPipeline(options: RunOptions, dataset: Dataset, log: (line: string) => void): Promise<RunResult> {
  return (await import("./pipeline.js")).runPipeline(options, dataset, log);
}

/** A belief, gate, claim, judge or route run. */
export async function runTypedPipeline(options: RunOptions, type: TypedQuery, dataset: Dataset, log: (line: string) => void, version: string): Promise<QueryRunSummary> {
  return (await import("./queryTypes/pipeline.js")).runTypedPipeline(options, type, dataset, log, version);
}

/** Every model × task × method × α × repeat of a suite; writes report.html, summary.json and results.csv. */
export async function runBench(suite: Suite, options: BenchOptions): Promise<BenchSummary> {
  return (await import("./bench/runBench.js")).runBench(suite, options);
}

// The main job as a library (DESIGN.md `src/run/`, docs/library.md): split, evidence, calibrate, evaluate,
// audit, monitor, cross-check and analysis for one model on one dataset (`runCalibration`), and benchmark
// suites over many models × tasks (`runSuite`). `calibkit run` and `calibkit bench` only parse options and
// print. Nothing here writes to the console or ends the process: progress comes as events (RunHooks),
// failures as typed errors. The entry points load the inference engines, the service and the charting
// library on first call, so importing this face stays cheap.
export { runCalibration, type CalibrationResult, type ReportFiles } from "./runCalibration.js";
export {
  CalibrationOptionsSchema, resolveCalibrationOptions, type CalibrationOptions, type ResolvedCalibrationOptions,
} from "./calibrationOptions.js";
export { runSuite, suiteOf, type SuiteOptions, type SuiteResult } from "./bench/runSuite.js";
export { parseSuite, SuiteError, type Suite, type SuiteDefinition, type SuiteTask } from "./bench/suite.js";
export type { ProgressEvent, RunHooks } from "./events.js";
export { QueryTypeMismatchError, RunAbortedError, RunInputError, RunOptionError } from "./errors.js";
export { DEFAULT_DATASET, DEFAULT_MODEL_FILE, defaultModel } from "./defaults.js";
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
export { choicesOf, METHODS_BY_TYPE, methodFor, promptItemOf, type ChoiceItem, type Choices, type QueryType } from "./choices.js";
export { loadFewshot, withoutExemplars } from "./fewshot.js";
export { generationItemsOf, generationPrompts, generationPromptSettings, type GenerationPromptOptions } from "./generationPrompts.js";
export {
  CLAIM_SCORES, DEFAULT_GENERATION_DATASET, DEFAULT_SCORER, GenerationOptionsSchema, GRADERS, type GenerationOptions, type ResolvedGenerationOptions,
} from "./generationOptions.js";
export { ITEMS_FILE, itemsJsonl, writeItemsLog, type ItemLine } from "./itemsLog.js";

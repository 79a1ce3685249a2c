// Public face of the statistics of free-form answers (issue 27, point 5): from one item's generation, the
// statistics lm-polygraph's estimators read, under its names, with the model itself as the entailment judge and
// the P(True) prompt scored. docs/generation.md.
export { ENTAILMENT_PROMPT, P_TRUE_PROMPT, STATISTIC_PROMPTS, entailmentText, pTrueText, type ScoredPrompt } from "./judgePrompts.js";
export { storeGeneration, type StoredGeneration, type StoredSequence } from "./storedGeneration.js";
export { sequenceStatistics, topKEntropy } from "./sequenceStatistics.js";
export { judgedStatistics, JUDGED_STATISTICS, type JudgedStatistics, type JudgeOptions } from "./judgedStatistics.js";
export {
  generateOptionsFor, generationStatistics, itemStatistics, neededStatistics, scorersAt, statisticsPresent, TOP_LOGPROBS,
  type ItemInput, type SamplingSettings, type StoredStatistics,
} from "./generationStatistics.js";

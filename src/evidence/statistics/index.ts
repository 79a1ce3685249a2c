// Public face of the statistics of free-form answers (issue 27, point 5): from one item's generation, the
// statistics lm-polygraph's estimators read, under its names, with the model itself as the entailment judge and
// the P(True) prompt scored; and the model-scored prompts about an answer (the judge grader, a claim's p(True)).
// docs/generation.md.
export {
  ANSWER_JUDGE_PROMPT, ENTAILMENT_PROMPT, P_TRUE_CLAIM_PROMPT, P_TRUE_PROMPT, STATISTIC_PROMPTS, answerJudgeText, entailmentText, pTrueClaimText, pTrueText,
  type ScoredPrompt,
} from "./judgePrompts.js";
export { storeGeneration, type StoredGeneration, type StoredSequence } from "./storedGeneration.js";
export { sequenceStatistics, topKEntropy } from "./sequenceStatistics.js";
export { judgedStatistics, JUDGED_STATISTICS, type JudgedStatistics, type JudgeOptions } from "./judgedStatistics.js";
export { scoreAsks, yesShare, type Ask } from "./scoredPrompts.js";
export {
  claimPTrue, judgeAnswers, judgeGrade, JUDGE_GRADER, type ClaimQuestion, type JudgeQuestion, type JudgeVerdict,
} from "./answerJudge.js";
export {
  generateOptionsFor, generationStatistics, itemStatistics, neededStatistics, scorersAt, statisticsPresent, TOP_LOGPROBS,
  type ItemInput, type SamplingSettings, type StoredStatistics,
} from "./generationStatistics.js";

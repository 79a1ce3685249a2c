// Public face of the evidence builder: prompts (formats, few-shot, chat templates, hashing; generation tasks),
// grading of free-form answers, evidence per query, evaluate requests and example records.
export { EvidenceError } from "./errors.js";
export {
  CLAIM_SCORING_TEMPLATE, contentText, hashTemplateText, promptTemplateHash, scoredPromptTemplateHash, renderTemplate, TEMPLATES, type PromptTemplate,
} from "./templates.js";
export { queryPrompt, splitClaims, type QueryPrompt } from "./prompts.js";
export * from "./format/index.js";
export * from "./tasks/index.js";
export * from "./grading/index.js";
export { computeEvidence, normalise, type EvidenceOptions } from "./computeEvidence.js";
export { choiceEvidence, CHOICE_BATCH, type ChoiceEvidenceOptions } from "./choiceEvidence.js";
export { cachedRows, payloadHash, type CachedRowsOptions, type CachedRowsResult } from "./cachedRows.js";
export { cachedChoiceEvidence, itemContentHash, type CachedEvidenceOptions, type CachedEvidenceResult } from "./cachedEvidence.js";
export { buildEvaluateRequest, parseQueries, type BuildEvaluateRequestOptions } from "./buildEvaluateRequest.js";
export {
  buildExampleRecords, type BuildExampleRecordsOptions, type DatasetItem, type ExampleRecordsResult,
} from "./buildExampleRecords.js";
export { createProgress, type Progress, type ProgressMode } from "./progress.js";
export * from "./statistics/index.js";

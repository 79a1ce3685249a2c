// Public face of the evidence builder: templates, evidence per query, evaluate requests and example records.
export { EvidenceError } from "./errors.js";
export {
  CLAIM_SCORING_TEMPLATE, contentText, hashTemplateText, promptTemplateHash, renderTemplate, TEMPLATES, type PromptTemplate,
} from "./templates.js";
export { queryPrompt, splitClaims, type QueryPrompt } from "./prompts.js";
export { computeEvidence, normalise, type EvidenceOptions } from "./computeEvidence.js";
export { buildEvaluateRequest, parseQueries, type BuildEvaluateRequestOptions } from "./buildEvaluateRequest.js";
export {
  buildExampleRecords, type BuildExampleRecordsOptions, type DatasetItem, type ExampleRecordsResult,
} from "./buildExampleRecords.js";
export { createProgress, type Progress, type ProgressMode } from "./progress.js";

// The wire format of both services, spelled once: zod schemas, the types inferred from them, and
// parse helpers that throw ValidationError with every offending field.
import { dottedPath, fieldIssues, parseOrThrow } from "./validate.js";
import { ValidationError } from "./errors.js";
import { evaluateRuleIssuesOf, type EvaluateRequest } from "./evaluate.js";
import { compiledEvaluateRequestSchema } from "./evaluateCompiled.js";
import { evaluateBoundIssues } from "./limits.js";
import { createProfileRequestSchema, examplesRequestSchema, type CreateProfile, type ExamplesRequest } from "./profile.js";
import { batchSendRequestSchema, sendRequestSchema, type BatchSendRequest, type SendRequest } from "./mail.js";

export * from "./errors.js";
export * from "./validate.js";
export * from "./common.js";
export * from "./backend.js";
export * from "./providerFields.js";
export * from "./evidence.js";
export * from "./query.js";
export * from "./evidenceRules.js";
export * from "./evaluate.js";
export * from "./evaluateJson.js";
export * from "./guarantees.js";
export * from "./profile.js";
export * from "./claimLabel.js";
export * from "./monitor.js";
export * from "./backends.js";
export * from "./errorBody.js";
export * from "./mail.js";
export * from "./humanQueue.js";
export * from "./uncertainty.js";
export * from "./limits.js";

/** Throws a 422 naming every field of a raw evaluate request beyond the bounds of limits.ts. */
export function checkEvaluateBounds(value: unknown): void {
  const beyond = evaluateBoundIssues(value);
  if (beyond.length > 0) {
    throw new ValidationError("evaluate request", beyond.map((b) => {
      const field = dottedPath(b.path);
      return { field, message: `\`${field}\` ${b.message}` };
    }));
  }
}

/** Parses an evaluate request; the error names every offending field, schema and rule alike. */
export function parseEvaluateRequest(value: unknown): EvaluateRequest {
  // The bounds first: a request beyond them is refused before any walk that grows with it.
  checkEvaluateBounds(value);
  const result = compiledEvaluateRequestSchema().safeParse(value);
  if (result.success) return result.data;
  const issues = fieldIssues(result.error);
  for (const rule of evaluateRuleIssuesOf(value)) {
    const field = dottedPath(rule.path);
    if (!issues.some((i) => i.field === field)) issues.push({ field, message: `\`${field}\` ${rule.message}` });
  }
  throw new ValidationError("evaluate request", issues);
}
export const parseCreateProfileRequest = (value: unknown): CreateProfile =>
  parseOrThrow(createProfileRequestSchema, value, "profile");
export const parseExamplesRequest = (value: unknown): ExamplesRequest =>
  parseOrThrow(examplesRequestSchema, value, "examples request");
export const parseSendRequest = (value: unknown): SendRequest => parseOrThrow(sendRequestSchema, value, "send request");
export const parseBatchSendRequest = (value: unknown): BatchSendRequest =>
  parseOrThrow(batchSendRequestSchema, value, "batch send request");
export * from "./openaiCompletions.js";
export * from "./openaiCommon.js";
export * from "./openaiChat.js";
export * from "./servedTokenizer.js";
export { evaluationServiceOpenApi, mailServiceOpenApi, EVALUATION_API_BASE, MAIL_API_BASE } from "./openapi.js";

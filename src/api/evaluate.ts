// The evaluate operation (spec 2.1, 2.4): request, answers with their guarantee, response.
import { z } from "zod";
import { backendSchema, clientEvidenceBackendSchema, type Backend } from "./backend.js";
import { accessLevelSchema, contentSchema } from "./common.js";
import { evaluateRuleIssues, type RuleIssue } from "./evidenceRules.js";
import { GUARANTEE_SENSES } from "./guarantees.js";
import { querySchema, setQuerySchema, type Query } from "./query.js";

/**
 * The request's fields, spelled once, over the queries and backends it takes; the rules run on what parsed (here
 * every field did: evaluateRuleIssuesOf is for the failure path, where only some parts parsed).
 */
function evaluateRequestOf<Q extends z.ZodType<Query>, B extends z.ZodType<Backend>>(query: Q, backend: B) {
  return z.looseObject({
    context: contentSchema,
    backend: backend.optional(),
    queries: z.record(z.string().min(1), query),
  }).superRefine((request, ctx) => {
    for (const issue of evaluateRuleIssues(request)) ctx.addIssue({ code: "custom", ...issue });
  });
}

/**
 * Rules 1, 3 and 4 over whatever parts of a raw request did parse, so that one answer names every problem
 * even when some other field failed its schema.
 */
export function evaluateRuleIssuesOf(raw: unknown): RuleIssue[] {
  if (typeof raw !== "object" || raw === null) return [];
  const request = raw as Record<string, unknown>;
  if (typeof request.queries !== "object" || request.queries === null || Array.isArray(request.queries)) return [];
  const queries: Record<string, Query> = {};
  for (const [name, q] of Object.entries(request.queries)) {
    const parsed = querySchema.safeParse(q);
    if (parsed.success) queries[name] = parsed.data;
  }
  const backend = backendSchema.safeParse(request.backend);
  if (request.backend !== undefined && !backend.success) return [];
  const hasRawQueries = Object.keys(request.queries).length > 0;
  return evaluateRuleIssues({ context: request.context, backend: backend.success ? backend.data : undefined, queries })
    .filter((issue) => !(hasRawQueries && issue.path.length === 1 && issue.path[0] === "queries"));
}

export const evaluateRequestSchema = evaluateRequestOf(querySchema, backendSchema);
export type EvaluateRequest = z.infer<typeof evaluateRequestSchema>;
/** What a caller may pass in (method names in any case, before normalisation). */
export type EvaluateRequestInput = z.input<typeof evaluateRequestSchema>;

/**
 * The most common request, client evidence with set queries only: the same schema with each union narrowed to
 * that branch, so it accepts a part of what `evaluateRequestSchema` accepts and parses it alike. Small enough for
 * zod to compile (evaluateCompiled.ts); the whole schema's compiled code is 600 KB, its backends repeated in
 * every cascade.
 */
export const commonEvaluateRequestSchema = evaluateRequestOf(setQuerySchema, clientEvidenceBackendSchema);

/**
 * What an answer guarantees. The spec leaves the fields open; ours are documented in docs/api.md.
 * `kind` names the property: coverage (set/interval), calibration (belief), risk / risk_high_probability /
 * fdr (gate), factuality (claim), accuracy / cost_budget (route), or `heuristic` when none holds (424).
 */
export const GUARANTEE_KINDS = [
  "coverage", "group_coverage", "calibration", "risk", "risk_high_probability", "fdr", "factuality", "accuracy",
  "cost_budget", "heuristic",
] as const;
// The spec shows no field of the guarantee object (2.4), so none is required of another service's answer: the
// fields our service writes are typed when present and any other is kept (docs/api.md).
export const guaranteeSchema = z.looseObject({
  kind: z.string().optional(),
  holds: z.boolean().optional(),
  alpha: z.number().optional(),
  target: z.number().optional(),
  delta: z.number().optional(),
  n: z.number().optional(),
  method: z.string().optional(),
  profile: z.string().optional(),
  profile_version: z.number().optional(),
  group: z.string().optional(),
  evidence_level: accessLevelSchema.optional(),
  reason: z.string().optional(),
  /** The guarantee in words, from the table of src/api/guarantees.ts (docs/guarantees.md). */
  statement: z.string().optional(),
  /** How it holds: in_expectation, high_probability (1 − δ over calibration draws), marginal, or none. */
  sense: z.enum(GUARANTEE_SENSES).optional(),
});
export type Guarantee = z.infer<typeof guaranteeSchema>;

const answerBase = { guarantee: guaranteeSchema };
const pairSchema = z.tuple([z.number(), z.number()]);

export const beliefAnswerSchema = z.looseObject({
  type: z.literal("belief"), probability: z.number(), venn_abers: pairSchema, ...answerBase,
});
export const setAnswerSchema = z.looseObject({
  type: z.literal("set"),
  set: z.array(z.string()),
  probabilities: z.record(z.string(), z.number()),
  venn_abers: z.record(z.string(), pairSchema),
  ...answerBase,
});
const levelValue = z.union([z.string(), z.number()]);
export const intervalAnswerSchema = z.looseObject({
  type: z.literal("interval"),
  point_estimate: levelValue,
  interval: z.tuple([levelValue, levelValue]),
  legend: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
  ...answerBase,
});
export const GATE_DECISIONS = ["auto_approve", "escalate", "abstain"] as const;
export const gateAnswerSchema = z.looseObject({
  type: z.literal("gate"), decision: z.enum(GATE_DECISIONS), ...answerBase,
});
export const claimVerdictSchema = z.looseObject({ text: z.string(), reason: z.string(), score: z.number() });
export const claimAnswerSchema = z.looseObject({
  type: z.literal("claim"),
  retained_claims: z.array(claimVerdictSchema),
  dropped_claims: z.array(claimVerdictSchema),
  ...answerBase,
});
/**
 * Extension (docs/api.md): each judge stage the query reached, with the probabilities it gave and its conformal
 * set, so that a client can recompute the cascade (`stage` is "request" for the query's own evidence).
 */
export const judgeStageTrailSchema = z.looseObject({
  stage: z.string(), probabilities: z.record(z.string(), z.number()), set: z.array(z.string()),
});
export type JudgeStageTrail = z.infer<typeof judgeStageTrailSchema>;
export const judgeAnswerSchema = z.looseObject({
  type: z.literal("judge"), winner: z.string().nullable(), escalated_to: z.string().nullable(), ...answerBase,
  stages: z.array(judgeStageTrailSchema).optional(),
});
/** Extension (docs/api.md): each route stage called, with its confidence in its output. */
export const routeStageTrailSchema = z.looseObject({ stage: z.string(), confidence: z.number() });
export type RouteStageTrail = z.infer<typeof routeStageTrailSchema>;
export const routeAnswerSchema = z.looseObject({
  type: z.literal("route"),
  output: z.unknown(),
  served_by: z.string(),
  escalated: z.boolean(),
  cost_cents: z.number(),
  ...answerBase,
  /** Extension: the stages called in order, and the calibrated thresholds τ_s (null when none met the guarantee). */
  stages: z.array(routeStageTrailSchema).optional(),
  thresholds: z.array(z.number()).nullable().optional(),
});

export const answerSchema = z.discriminatedUnion("type", [
  beliefAnswerSchema, setAnswerSchema, intervalAnswerSchema, gateAnswerSchema, claimAnswerSchema, judgeAnswerSchema,
  routeAnswerSchema,
]);
export type BeliefAnswer = z.infer<typeof beliefAnswerSchema>;
export type SetAnswer = z.infer<typeof setAnswerSchema>;
export type IntervalAnswer = z.infer<typeof intervalAnswerSchema>;
export type GateAnswer = z.infer<typeof gateAnswerSchema>;
export type ClaimVerdict = z.infer<typeof claimVerdictSchema>;
export type ClaimAnswer = z.infer<typeof claimAnswerSchema>;
export type JudgeAnswer = z.infer<typeof judgeAnswerSchema>;
export type RouteAnswer = z.infer<typeof routeAnswerSchema>;
export type Answer = z.infer<typeof answerSchema>;

export const usageSchema = z.looseObject({
  backend_calls: z.number().int().min(0),
  backend_tokens: z.number().int().min(0),
});
export type Usage = z.infer<typeof usageSchema>;

export const evaluateResponseSchema = z.looseObject({
  answers: z.record(z.string(), answerSchema),
  backend: z.union([backendSchema, z.record(z.string(), z.unknown())]).optional(),
  usage: usageSchema.optional(),
  warnings: z.array(z.string()).default([]),
  request_id: z.string().optional(),
});
export type EvaluateResponse = z.infer<typeof evaluateResponseSchema>;

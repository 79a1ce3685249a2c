// The seven query types of spec 2.2. Each query is a flat object; unknown fields are kept, not dropped.
import { z } from "zod";
import { cascadeSchema } from "./backend.js";
import {
  accessHintSchema, contentSchema, INTERVAL_METHODS, methodSchema, profileNameSchema, SET_METHODS, unitIntervalSchema,
} from "./common.js";
import { evidenceSchema } from "./evidence.js";

const base = {
  calibration_profile: profileNameSchema,
  evidence: evidenceSchema.optional(),
};

export const beliefQuerySchema = z.looseObject({
  type: z.literal("belief"),
  instructions: contentSchema,
  criteria: contentSchema.optional(),
  ...base,
});

export const setQuerySchema = z.looseObject({
  type: z.literal("set"),
  instructions: contentSchema,
  options: z.record(z.string().min(1), z.string()).refine((o) => Object.keys(o).length >= 2, {
    message: "must have at least 2 options",
  }),
  alpha: unitIntervalSchema.optional(),
  method: methodSchema(SET_METHODS).optional(),
  /** The Mondrian group this query falls in (docs/api.md). */
  group_by: z.string().min(1).optional(),
  backend_access_hint: accessHintSchema.optional(),
  ...base,
});

export const levelSchema = z.union([z.string().min(1), z.number()]);

export const intervalQuerySchema = z.looseObject({
  type: z.literal("interval"),
  instructions: contentSchema,
  levels: z.array(levelSchema).min(2).max(10),
  alpha: unitIntervalSchema.optional(),
  method: methodSchema(INTERVAL_METHODS).optional(),
  ...base,
});

export const GATE_GUARANTEES = ["risk", "risk_high_probability", "fdr"] as const;
export const gateQuerySchema = z.looseObject({
  type: z.literal("gate"),
  instructions: contentSchema,
  guarantee: z.enum(GATE_GUARANTEES),
  target: unitIntervalSchema,
  delta: unitIntervalSchema.optional(),
  /** A named loss, or a map of outcome to loss weight (docs/api.md). */
  loss: z.union([z.string().min(1), z.record(z.string(), z.number().min(0))]).optional(),
  ...base,
});

export const claimQuerySchema = z.looseObject({
  type: z.literal("claim"),
  instructions: z.string(),
  alpha: unitIntervalSchema.optional(),
  support_source: contentSchema.optional(),
  /** Extension: `random` (default) breaks tied claim scores with seeded uniforms, `conservative` keeps or drops tied claims together. */
  tie_break: z.enum(["random", "conservative"]).optional(),
  ...base,
});

export const judgeQuerySchema = z.looseObject({
  type: z.literal("judge"),
  instructions: z.string(),
  alpha: unitIntervalSchema.optional(),
  cascade: cascadeSchema.optional(),
  ...base,
});

export const ROUTE_GUARANTEES = ["cost_budget", "accuracy"] as const;
export const routeQuerySchema = z.looseObject({
  type: z.literal("route"),
  cascade: cascadeSchema,
  calibration_profile: profileNameSchema,
  guarantee: z.enum(ROUTE_GUARANTEES),
  target_cents: z.number().min(0).optional(),
  alpha: unitIntervalSchema.optional(),
  instructions: contentSchema.optional(),
  evidence: evidenceSchema.optional(),
});

export const QUERY_TYPES = ["belief", "set", "interval", "gate", "claim", "judge", "route"] as const;
export type QueryType = (typeof QUERY_TYPES)[number];

export const querySchema = z.discriminatedUnion("type", [
  beliefQuerySchema, setQuerySchema, intervalQuerySchema, gateQuerySchema, claimQuerySchema, judgeQuerySchema,
  routeQuerySchema,
]);

export type BeliefQuery = z.infer<typeof beliefQuerySchema>;
export type SetQuery = z.infer<typeof setQuerySchema>;
export type IntervalQuery = z.infer<typeof intervalQuerySchema>;
export type GateQuery = z.infer<typeof gateQuerySchema>;
export type ClaimQuery = z.infer<typeof claimQuerySchema>;
export type JudgeQuery = z.infer<typeof judgeQuerySchema>;
export type RouteQuery = z.infer<typeof routeQuerySchema>;
export type Query = z.infer<typeof querySchema>;

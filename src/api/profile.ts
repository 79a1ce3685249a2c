// Calibration profiles (spec 2.5, 2.6, 2.8 and the profile endpoints of section 4).
import { z } from "zod";
import { backendSchema } from "./backend.js";
import { contentSchema, isoDateSchema, methodSchema, PROFILE_METHODS, profileNameSchema, unitIntervalSchema } from "./common.js";

export const PROFILE_STATUSES = ["collecting", "serving", "stale"] as const;
export const profileStatusSchema = z.enum(PROFILE_STATUSES);
export type ProfileStatus = z.infer<typeof profileStatusSchema>;

/** A prompt template or fingerprint hash carries its algorithm: `sha256:<hex>`. */
export const prefixedHashSchema = z
  .string()
  .regex(/^[a-z0-9-]+:[0-9a-fA-F]{8,}$/, { message: "must carry a hash-algorithm prefix, as in sha256:<hex>" });

/**
 * Which examples calibrate a set query (an extension, docs/service.md "Mixed option counts"): `exact` (the
 * default) those whose option names are the query's; `pooled` every example with option probabilities, whatever
 * its number of options (one calibration across option counts); `by_option_count` those with as many options
 * as the query (a Mondrian split by option count).
 */
export const SET_POOLINGS = ["exact", "pooled", "by_option_count"] as const;
export const setPoolingSchema = z.enum(SET_POOLINGS);
export type SetPooling = z.infer<typeof setPoolingSchema>;

export const createProfileRequestSchema = z.looseObject({
  name: profileNameSchema,
  backend: backendSchema,
  method: methodSchema(PROFILE_METHODS).default("LAC"),
  alpha: unitIntervalSchema,
  strict_fingerprint: z.boolean().default(false),
  group_by: z.string().min(1).optional(),
  prompt_template_hash: prefixedHashSchema.optional(),
  set_pooling: setPoolingSchema.optional(),
});
export type CreateProfileRequest = z.input<typeof createProfileRequestSchema>;
export type CreateProfile = z.output<typeof createProfileRequestSchema>;

/** An example label: an option or level name, a number, yes/no, pass/fail, or a claims object. */
export const labelSchema = z.union([
  z.string(), z.number(), z.boolean(), z.record(z.string(), z.unknown()), z.array(z.unknown()),
]);

export const exampleRecordSchema = z.looseObject({
  context: contentSchema,
  label: labelSchema,
  source: z.string().optional(),
  group: z.string().min(1).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});
export type ExampleRecord = z.infer<typeof exampleRecordSchema>;

export const MAX_EXAMPLES_PER_REQUEST = 10_000;
export const examplesRequestSchema = z.looseObject({
  examples: z.array(exampleRecordSchema).min(1).max(MAX_EXAMPLES_PER_REQUEST),
});
export type ExamplesRequest = z.infer<typeof examplesRequestSchema>;

export const auditResultSchema = z.looseObject({
  result: z.enum(["pass", "fail"]),
  realized_coverage: z.number(),
  ci: z.tuple([z.number(), z.number()]),
  sample: z.number(),
  target: z.number(),
  date: isoDateSchema,
});
export type AuditResult = z.infer<typeof auditResultSchema>;

export const groupStateSchema = z.looseObject({ n: z.number(), status: profileStatusSchema });

export const profileSchema = z.looseObject({
  name: z.string(),
  version: z.number(),
  method: z.string(),
  alpha: z.number(),
  n: z.number(),
  minimum_n: z.number(),
  recommended_n: z.number(),
  realized_coverage_ci: z.tuple([z.number(), z.number()]).nullable().optional(),
  last_audit: auditResultSchema.nullable().optional(),
  backend_fingerprint: z.string().nullable().optional(),
  group_by: z.string().nullable().optional(),
  groups: z.record(z.string(), groupStateSchema).default({}),
  status: profileStatusSchema,
  set_pooling: setPoolingSchema.optional(),
});
export type Profile = z.infer<typeof profileSchema>;

export const profileListSchema = z.looseObject({ profiles: z.array(profileSchema) });

export const labelWithJudgeRequestSchema = z.looseObject({
  /** A backend object, or the name of a backend in the service's configuration. */
  judge: z.union([z.string().min(1), backendSchema]),
  unlabelled_examples: z.array(z.looseObject({ context: contentSchema })).min(1).max(MAX_EXAMPLES_PER_REQUEST),
  human_labelled_sample_size: z.int().min(0),
});
export type LabelWithJudgeRequest = z.infer<typeof labelWithJudgeRequestSchema>;

/** Our service's job states (docs/api.md); the spec shows none, so another service's states are kept as sent. */
export const JOB_STATES = ["queued", "running", "succeeded", "failed"] as const;
export type JobState = (typeof JOB_STATES)[number];

// The spec shows no field of a labelling job, so a client reading another service's job requires none: each
// field we know is typed when present, and every other field is kept (docs/api.md, "Lenient resources").
const labellingJobFields = {
  id: z.string(),
  profile: z.string(),
  status: z.string(),
  total: z.number(),
  labelled: z.number(),
  human_review: z.array(z.unknown()),
  created_at: isoDateSchema,
  updated_at: isoDateSchema,
  error: z.string().nullable(),
};
export const labellingJobSchema = z.looseObject(labellingJobFields).partial();
export type LabellingJob = z.infer<typeof labellingJobSchema>;
/** The job as our own service writes it: every field present, the status one of ours. */
export const serviceLabellingJobSchema = z.looseObject({
  ...labellingJobFields, status: z.enum(JOB_STATES), error: labellingJobFields.error.optional(),
});
export type ServiceLabellingJob = z.infer<typeof serviceLabellingJobSchema>;

export const auditRequestSchema = examplesRequestSchema;
export type AuditRequest = ExamplesRequest;

// The backend object of spec 2.3: a hosted or self-hosted model, or `client_evidence` when the caller
// computed the evidence itself. Provider-specific field types are our decision (docs/api.md).
import { z } from "zod";
import { accessHintSchema, accessLevelSchema, providerSchema } from "./common.js";

export const clientEvidenceBackendSchema = z.looseObject({
  provider: z.literal("client_evidence"),
  name: z.string().min(1),
  access_level: accessLevelSchema,
});

export const modelBackendSchema = z.looseObject({
  provider: providerSchema.exclude(["client_evidence"]),
  /** Extension: the name of a backend in the service's configuration; matched before provider + model. */
  name: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  access_hint: accessHintSchema.optional(),
  connection: z.string().min(1).optional(),
  deployment: z.string().optional(),
  api_version: z.string().optional(),
  reasoning_effort: z.string().optional(),
  effort: z.string().optional(),
  sample_count: z.int().min(1).max(1000).optional(),
  thinking_level: z.string().optional(),
  region: z.string().optional(),
  custom_model_import: z.union([z.boolean(), z.string()]).optional(),
  pin_upstream: z.union([z.boolean(), z.string()]).optional(),
  upstream: z.string().optional(),
  quantization: z.string().optional(),
  base_url: z.url().optional(),
  engine_version: z.string().optional(),
  logprobs_mode: z.string().optional(),
  deterministic: z.boolean().optional(),
});

export const backendSchema = z.discriminatedUnion("provider", [clientEvidenceBackendSchema, modelBackendSchema]);

export type ClientEvidenceBackend = z.infer<typeof clientEvidenceBackendSchema>;
export type ModelBackend = z.infer<typeof modelBackendSchema>;
export type Backend = z.infer<typeof backendSchema>;

/** A cascade stage: one field `backend`, a backend object or the literal `human_queue`. */
export const stageSchema = z.strictObject({
  backend: z.union([z.literal("human_queue"), backendSchema]),
});
export type Stage = z.infer<typeof stageSchema>;

export const cascadeSchema = z.array(stageSchema).min(1);
export type Cascade = z.infer<typeof cascadeSchema>;

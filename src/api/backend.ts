// The backend object of spec 2.3: a hosted or self-hosted model, or `client_evidence` when the caller
// computed the evidence itself. Provider-specific fields are typed and
// allowed per provider (providerFields.ts, docs/service.md "Providers").
import { z } from "zod";
import { accessHintSchema, accessLevelSchema } from "./common.js";
import { providerFieldsShape, type ModelProvider } from "./providerFields.js";

export const clientEvidenceBackendSchema = z.looseObject({
  provider: z.literal("client_evidence"),
  name: z.string().min(1),
  access_level: accessLevelSchema,
});

const modelBackendCommon = {
  /** Extension: the name of a backend in the service's configuration; matched before provider + model. */
  name: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  access_hint: accessHintSchema.optional(),
  connection: z.string().min(1).optional(),
};

/** A hosted or self-hosted model backend of one provider, with the provider-specific fields it takes (providerFields.ts). */
const modelBackendOf = <P extends ModelProvider>(provider: P) =>
  z.looseObject({ provider: z.literal(provider), ...modelBackendCommon, ...providerFieldsShape(provider) });

const modelBackendOptions = [
  modelBackendOf("openai"), modelBackendOf("azure-openai"), modelBackendOf("openrouter"), modelBackendOf("anthropic"),
  modelBackendOf("gemini"), modelBackendOf("bedrock"), modelBackendOf("vllm"), modelBackendOf("sglang"),
] as const;
export const modelBackendSchema = z.discriminatedUnion("provider", [...modelBackendOptions]);

export const backendSchema = z.discriminatedUnion("provider", [clientEvidenceBackendSchema, ...modelBackendOptions]);

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

// Which provider takes which provider-specific field of the backend object (spec 2.3 names them only; the
// table is our decision, docs/service.md "Providers"). A field given to a provider that does not take it is
// refused with the field's path, never passed on and silently ignored.
import { z } from "zod";

/** reasoning_effort as OpenAI's chat completions take it (reasoning models). */
const reasoningEffort = z.enum(["none", "minimal", "low", "medium", "high", "xhigh"]);
/** Field types, one place: a provider's schema picks the ones it takes. */
export const PROVIDER_FIELD_TYPES = {
  base_url: z.url(),
  deployment: z.string().min(1),
  api_version: z.string().refine((v) => /^\d{4}-\d{2}-\d{2}(-preview)?$|^v1$|^latest$|^preview$/.test(v), { message: "must be an Azure OpenAI api-version such as 2024-10-21, 2025-04-01-preview or v1" }),
  reasoning_effort: reasoningEffort,
  effort: z.enum(["low", "medium", "high", "xhigh", "max"]),
  sample_count: z.int().min(1).max(8),
  thinking_level: z.enum(["minimal", "low", "medium", "high"]),
  region: z.string().refine((v) => /^[a-z]{2}(-gov|-iso[a-z]*)?-[a-z]+-\d+$/.test(v), { message: "must be an AWS region such as us-east-1" }),
  custom_model_import: z.boolean(),
  upstream: z.string().min(1),
  pin_upstream: z.boolean(),
  quantization: z.string().min(1),
  engine_version: z.string().min(1),
  logprobs_mode: z.enum(["raw_logprobs", "raw_logits", "processed_logprobs", "processed_logits"]),
  deterministic: z.boolean(),
} as const;
export type ProviderField = keyof typeof PROVIDER_FIELD_TYPES;

/** arn:aws:bedrock:us-east-1:123456789012:imported-model/abc123 → its region; undefined when `model` is not such an ARN. */
export function importedModelRegion(model: string): string | undefined {
  return /^arn:aws[a-z-]*:bedrock:([a-z0-9-]+):\d{12}:imported-model\/[a-z0-9]+$/i.exec(model)?.[1];
}

/** The provider-specific fields each model provider takes. */
export const PROVIDER_FIELDS = {
  openai: ["base_url", "reasoning_effort"],
  "azure-openai": ["base_url", "deployment", "api_version", "reasoning_effort"],
  openrouter: ["base_url", "reasoning_effort", "upstream", "pin_upstream"],
  anthropic: ["base_url", "effort"],
  gemini: ["base_url", "thinking_level", "sample_count"],
  bedrock: ["base_url", "region", "custom_model_import"],
  vllm: ["base_url", "quantization", "engine_version", "logprobs_mode", "deterministic"],
  sglang: ["base_url", "quantization", "engine_version", "logprobs_mode", "deterministic"],
} as const satisfies Record<string, readonly ProviderField[]>;
export type ModelProvider = keyof typeof PROVIDER_FIELDS;
export const MODEL_PROVIDERS = Object.keys(PROVIDER_FIELDS) as ModelProvider[];

function takenBy(field: ProviderField): ModelProvider[] {
  return MODEL_PROVIDERS.filter((p) => (PROVIDER_FIELDS[p] as readonly string[]).includes(field));
}

/**
 * The shape of `provider`'s provider-specific fields: the ones it takes, typed and optional, and every other
 * provider-specific name refused at its own path with the providers that do take it.
 */
export function providerFieldsShape<P extends ModelProvider>(provider: P) {
  const shape: Record<string, z.ZodType> = {};
  for (const field of Object.keys(PROVIDER_FIELD_TYPES) as ProviderField[]) {
    shape[field] = (PROVIDER_FIELDS[provider] as readonly string[]).includes(field)
      ? PROVIDER_FIELD_TYPES[field].optional()
      : z.unknown().refine((v) => v === undefined, { message: `is not taken by provider "${provider}" (taken by: ${takenBy(field).join(", ")})` }).optional();
  }
  return shape as { [F in (typeof PROVIDER_FIELDS)[P][number]]: z.ZodOptional<(typeof PROVIDER_FIELD_TYPES)[F]> } & { [F in Exclude<ProviderField, (typeof PROVIDER_FIELDS)[P][number]>]: z.ZodOptional<z.ZodType<undefined>> };
}

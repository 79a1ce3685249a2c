// The OpenAI-compatible completions wire format (the subset vLLM, SGLang and llama.cpp's server share),
// spelled once here for both the adapter that calls such servers and `calibkit serve-model`.
// Not a calibkit service format, but a wire format all the same, so it is spelled in src/api with the others.
import { z } from "zod";

export const completionRequestSchema = z.looseObject({
  model: z.string().optional(),
  prompt: z.union([z.string(), z.array(z.string()).length(1)]),
  max_tokens: z.int().min(0).max(4096).default(16),
  temperature: z.number().min(0).max(10).default(1),
  seed: z.int().optional(),
  /** Top-k alternatives per token; null or absent means no log-probabilities. */
  logprobs: z.int().min(0).max(20).nullable().optional(),
  echo: z.boolean().default(false),
  stop: z.union([z.string(), z.array(z.string())]).nullable().optional(),
  n: z.int().min(1).max(64).default(1),
  /** vLLM's extension: log-probabilities of the prompt tokens without echoing the text. */
  prompt_logprobs: z.int().min(0).max(20).nullable().optional(),
});
export type CompletionRequest = z.infer<typeof completionRequestSchema>;

export const completionLogprobsSchema = z.looseObject({
  tokens: z.array(z.string()),
  token_logprobs: z.array(z.number().nullable()),
  top_logprobs: z.array(z.record(z.string(), z.number()).nullable()).nullable().optional(),
  text_offset: z.array(z.int()).optional(),
});
export type CompletionLogprobs = z.infer<typeof completionLogprobsSchema>;

export const completionChoiceSchema = z.looseObject({
  index: z.int().optional(),
  text: z.string(),
  finish_reason: z.string().nullable().optional(),
  logprobs: completionLogprobsSchema.nullable().optional(),
});

export const completionResponseSchema = z.looseObject({
  id: z.string().optional(),
  object: z.string().optional(),
  model: z.string().optional(),
  choices: z.array(completionChoiceSchema).min(1),
  usage: z.looseObject({ prompt_tokens: z.int(), completion_tokens: z.int(), total_tokens: z.int() }).optional(),
});
export type CompletionResponse = z.infer<typeof completionResponseSchema>;

export const modelListSchema = z.looseObject({
  data: z.array(z.looseObject({ id: z.string() })),
});

// The OpenAI-compatible completions wire format (the subset vLLM, SGLang and llama.cpp's server share),
// spelled once here for both the adapter that calls such servers and `calibkit serve-model`.
// Not a calibkit service format, but a wire format all the same, so it is spelled in src/api with the others.
import { z } from "zod";
import { nullish, refused, samplingShape, streamOptionsNeedStream, UNSUPPORTED, tokenUsageSchema } from "./openaiCommon.js";

/**
 * What `calibkit serve-model` accepts on /v1/completions: every parameter OpenAI documents is honoured or
 * refused by name (docs/serve-model.md), and an unknown one is refused as OpenAI does.
 */
export const completionRequestSchema = z.strictObject({
  ...samplingShape,
  /** A string, a batch of strings, token ids, or a batch of token-id lists. */
  prompt: z.union([z.string(), z.array(z.string()).min(1), z.array(z.int().min(0)).min(1), z.array(z.array(z.int().min(0)).min(1)).min(1)]),
  max_tokens: nullish(z.int().min(0).max(1 << 20)),
  /** Top-k alternatives per token; null or absent means no log-probabilities. */
  logprobs: nullish(z.int().min(0).max(20)),
  echo: nullish(z.boolean()),
  /** vLLM's extension: log-probabilities of the prompt tokens without echoing the text. */
  prompt_logprobs: nullish(z.int().min(0).max(20)),
  /** Best of several candidates by log-probability; only the trivial `best_of = n` is served. */
  best_of: nullish(z.int().min(1).max(64)),
  suffix: refused("is not supported: the model is served for left-to-right completion, not insertion", (v) => v === ""),
}).superRefine((body, ctx) => {
  streamOptionsNeedStream(body, ctx);
  if (body.best_of !== undefined && body.best_of !== (body.n ?? 1)) {
    ctx.addIssue({ code: "custom", path: ["best_of"], message: "is not supported beyond `best_of` = `n`: every generated completion is returned", params: { openai_code: UNSUPPORTED } });
  }
});
export type CompletionRequest = z.infer<typeof completionRequestSchema>;

export const completionLogprobsSchema = z.looseObject({
  tokens: z.array(z.string()),
  token_logprobs: z.array(z.number().nullable()),
  top_logprobs: z.array(z.record(z.string(), z.number()).nullable()).nullable().optional(),
  text_offset: z.array(z.int()).optional(),
});
export type CompletionLogprobs = z.infer<typeof completionLogprobsSchema>;

/** The newer shape (chat completions, recent llama.cpp servers): one entry per generated token. */
export const contentLogprobsSchema = z.looseObject({
  content: z.array(z.looseObject({
    token: z.string(),
    logprob: z.number(),
    top_logprobs: z.array(z.looseObject({ token: z.string(), logprob: z.number() })).optional(),
  })).nullable(),
});
export type ContentLogprobs = z.infer<typeof contentLogprobsSchema>;

export const completionChoiceSchema = z.looseObject({
  index: z.int().optional(),
  text: z.string(),
  finish_reason: z.string().nullable().optional(),
  /** The legacy shape (tokens / token_logprobs / top_logprobs) or the newer `content` one. */
  logprobs: z.union([completionLogprobsSchema, contentLogprobsSchema]).nullable().optional(),
});

export const completionResponseSchema = z.looseObject({
  id: z.string().optional(),
  object: z.string().optional(),
  model: z.string().optional(),
  choices: z.array(completionChoiceSchema).min(1),
  usage: tokenUsageSchema.optional(),
});
export type CompletionResponse = z.infer<typeof completionResponseSchema>;

/** vLLM's POST /tokenize (with `prompt` or chat `messages`). */
export const tokenizeResponseSchema = z.looseObject({ tokens: z.array(z.int()), count: z.int().optional() });
/** vLLM's POST /detokenize and llama.cpp's server POST /apply-template both answer `{prompt}`. */
export const promptResponseSchema = z.looseObject({ prompt: z.string() });

export const modelListSchema = z.looseObject({
  data: z.array(z.looseObject({ id: z.string() })),
});

/** One Server-Sent Event of a streamed completion; the last (with `include_usage`) has no choices. */
export const completionChunkSchema = z.looseObject({
  id: z.string(),
  object: z.literal("text_completion"),
  created: z.int(),
  model: z.string(),
  choices: z.array(completionChoiceSchema),
  usage: tokenUsageSchema.nullable().optional(),
});
export type CompletionChunk = z.infer<typeof completionChunkSchema>;

/** /v1/models as serve-model answers it: the context size under OpenRouter's and vLLM's names. */
export const servedModelSchema = z.looseObject({
  id: z.string(),
  object: z.literal("model"),
  created: z.int(),
  owned_by: z.string(),
  context_length: z.int(),
  max_model_len: z.int(),
  fingerprint: z.string(),
  chat_template: z.string().nullable(),
});
export type ServedModel = z.infer<typeof servedModelSchema>;

/** serve-model's GET /health: whether it answers, and how its slots are used now. */
export const serveModelHealthSchema = z.looseObject({
  status: z.literal("ok"),
  slots: z.looseObject({ total: z.int(), busy: z.int() }),
  /** Generation requests admitted and not yet answered (running or queued). */
  in_flight: z.int(),
  /** Requests admitted beyond the slots before the server answers 429. */
  queue_limit: z.int(),
  completion_tokens_total: z.int(),
});
export type ServeModelHealth = z.infer<typeof serveModelHealthSchema>;

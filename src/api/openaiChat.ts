// The OpenAI chat completions wire format: what `calibkit serve-model` accepts and answers on
// /v1/chat/completions, and what the OpenAI-compatible adapter reads back from a chat-only server.
import { z } from "zod";
import {
  emptyArrayOrObject, nullish, refused, samplingShape, streamOptionsNeedStream, UNSUPPORTED, tokenUsageSchema,
} from "./openaiCommon.js";

/**
 * A message's content: a string, or parts of which only text is read (joined by a newline, as vLLM does).
 * Images, audio and files are refused by the part's `type`, so the client learns which part could not be read.
 */
const contentPart = z.looseObject({ type: z.string(), text: z.unknown().optional() }).superRefine((p, ctx) => {
  if (p.type !== "text") {
    ctx.addIssue({ code: "custom", path: ["type"], message: `"${p.type}" is not supported: the model reads text only`, params: { openai_code: UNSUPPORTED } });
  } else if (typeof p.text !== "string") {
    ctx.addIssue({ code: "custom", path: ["text"], message: "must be a string" });
  }
});
const content = z.preprocess((v) => (typeof v === "string" ? [{ type: "text", text: v }] : v), z.array(contentPart))
  .transform((parts) => parts.map((p) => p.text as string).join("\n"));

const noTools = "is not supported: the server has no tool calling";
const noNames = "is not supported: the chat template does not render participant names";
const textMessage = (role: "system" | "developer" | "user") => z.strictObject({
  role: z.literal(role),
  content,
  name: refused(noNames),
});

/** `developer` is OpenAI's newer name for `system`; `tool` and `function` messages are refused by role. */
export const chatMessageSchema = z.discriminatedUnion("role", [
  textMessage("system"),
  textMessage("developer"),
  textMessage("user"),
  z.strictObject({
    role: z.literal("assistant"),
    content: nullish(content),
    name: refused(noNames),
    refusal: refused("is not supported: a refusal is not part of what the chat template renders"),
    tool_calls: refused(noTools, emptyArrayOrObject),
    function_call: refused(noTools),
    audio: refused("is not supported: the model reads text only"),
  }),
  z.looseObject({ role: z.literal("tool") }).superRefine((_, ctx) => {
    ctx.addIssue({ code: "custom", path: ["role"], message: `"tool" ${noTools}`, params: { openai_code: UNSUPPORTED } });
  }),
  z.looseObject({ role: z.literal("function") }).superRefine((_, ctx) => {
    ctx.addIssue({ code: "custom", path: ["role"], message: `"function" ${noTools}`, params: { openai_code: UNSUPPORTED } });
  }),
]);
export type ChatMessageWire = z.infer<typeof chatMessageSchema>;

export const chatCompletionRequestSchema = z.strictObject({
  ...samplingShape,
  messages: z.array(chatMessageSchema).min(1),
  max_tokens: nullish(z.int().min(1).max(1 << 20)),
  /** OpenAI's newer name for `max_tokens`; when both are given they must agree. */
  max_completion_tokens: nullish(z.int().min(1).max(1 << 20)),
  logprobs: nullish(z.boolean()),
  top_logprobs: nullish(z.int().min(0).max(20)),
  tools: refused(noTools, emptyArrayOrObject),
  tool_choice: refused(noTools, (v) => v === "none"),
  parallel_tool_calls: nullish(z.boolean()),
  functions: refused(noTools, emptyArrayOrObject),
  function_call: refused(noTools, (v) => v === "none"),
  response_format: refused("is not supported: only free text ({\"type\": \"text\"}) is generated",
    (v) => typeof v === "object" && v !== null && (v as { type?: unknown }).type === "text" && Object.keys(v).length === 1),
  modalities: refused("is not supported beyond [\"text\"]", (v) => Array.isArray(v) && v.every((m) => m === "text")),
  audio: refused("is not supported: the model writes text only"),
  prediction: refused("is not supported: predicted outputs are not used"),
  reasoning_effort: refused("is not supported: the model is not a reasoning model"),
  verbosity: refused("is not supported: the model has no verbosity setting"),
  web_search_options: refused("is not supported: the server has no web search"),
}).superRefine((body, ctx) => {
  streamOptionsNeedStream(body, ctx);
  if (body.top_logprobs !== undefined && body.logprobs !== true) {
    ctx.addIssue({ code: "custom", path: ["top_logprobs"], message: "needs `logprobs` to be true" });
  }
  if (body.max_tokens !== undefined && body.max_completion_tokens !== undefined && body.max_tokens !== body.max_completion_tokens) {
    ctx.addIssue({ code: "custom", path: ["max_completion_tokens"], message: "disagrees with `max_tokens`; send one of them" });
  }
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

const topLogprob = z.looseObject({ token: z.string(), logprob: z.number(), bytes: z.array(z.int()).nullable() });
export const chatTokenLogprobSchema = topLogprob.extend({ top_logprobs: z.array(topLogprob) });
export type ChatTokenLogprob = z.infer<typeof chatTokenLogprobSchema>;
export const chatLogprobsSchema = z.looseObject({
  content: z.array(chatTokenLogprobSchema).nullable(),
  refusal: z.array(chatTokenLogprobSchema).nullable().optional(),
});
export type ChatLogprobs = z.infer<typeof chatLogprobsSchema>;

export const chatCompletionResponseSchema = z.looseObject({
  id: z.string().optional(),
  object: z.string().optional(),
  model: z.string().optional(),
  choices: z.array(z.looseObject({
    index: z.int().optional(),
    message: z.looseObject({ role: z.string(), content: z.string().nullable() }),
    finish_reason: z.string().nullable().optional(),
    logprobs: chatLogprobsSchema.nullable().optional(),
  })).min(1),
  usage: tokenUsageSchema.optional(),
});
export type ChatCompletionResponse = z.infer<typeof chatCompletionResponseSchema>;

export const chatCompletionChunkSchema = z.looseObject({
  id: z.string(),
  object: z.literal("chat.completion.chunk"),
  created: z.int(),
  model: z.string(),
  choices: z.array(z.looseObject({
    index: z.int(),
    delta: z.looseObject({ role: z.string().optional(), content: z.string().optional() }),
    finish_reason: z.string().nullable(),
    logprobs: chatLogprobsSchema.nullable().optional(),
  })),
  usage: tokenUsageSchema.nullable().optional(),
});
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;

/** llama.cpp's server POST /apply-template: the chat prompt as the server renders it, before tokenization. */
export const applyTemplateRequestSchema = z.strictObject({ messages: z.array(chatMessageSchema).min(1) });
export const applyTemplateResponseSchema = z.looseObject({ prompt: z.string() });
export type ApplyTemplateResponse = z.infer<typeof applyTemplateResponseSchema>;

// serve-model's tokenizer endpoints, in vLLM's shapes, which lm-evaluation-harness's remote tokenizer reads:
// POST /tokenize, POST /detokenize and GET /tokenizer_info.
import { z } from "zod";
import { nullish, refused } from "./openaiCommon.js";

/** POST /tokenize with a text prompt. Chat `messages` are refused: /apply-template renders a conversation. */
export const tokenizeRequestSchema = z.strictObject({
  model: nullish(z.string()),
  prompt: z.string(),
  /** BOS first where the model wants one. Default true (vLLM's default; lm-eval sends false). */
  add_special_tokens: nullish(z.boolean()),
  /** Also answer each token's vocabulary entry (`token_strs`). Default false. */
  return_token_strs: nullish(z.boolean()),
  messages: refused("is not supported: POST /apply-template renders a conversation with the served template"),
});
export type TokenizeRequest = z.infer<typeof tokenizeRequestSchema>;

export const servedTokenizeResponseSchema = z.strictObject({
  tokens: z.array(z.int()),
  count: z.int(),
  max_model_len: z.int(),
  token_strs: z.array(z.string()).optional(),
});
export type ServedTokenizeResponse = z.infer<typeof servedTokenizeResponseSchema>;

/** POST /detokenize; the answer is `{prompt}` (promptResponseSchema). */
export const detokenizeRequestSchema = z.strictObject({
  model: nullish(z.string()),
  tokens: z.array(z.int().min(0)),
});
export type DetokenizeRequest = z.infer<typeof detokenizeRequestSchema>;

/**
 * GET /tokenizer_info: the tokenizer's configuration under Hugging Face's `tokenizer_config.json` names, as vLLM
 * answers it. lm-eval reads `eos_token` (its presence decides that the server has a remote tokenizer),
 * `bos_token`, `pad_token` and `chat_template`, and finds the ids by tokenizing those strings.
 */
export const tokenizerInfoSchema = z.strictObject({
  tokenizer_class: z.string(),
  /** GGUF's `tokenizer.ggml.model` (`llama` = SentencePiece, `gpt2` = byte-level BPE). */
  tokenizer_model: z.string(),
  bos_token: z.string().nullable(),
  eos_token: z.string().nullable(),
  unk_token: z.string().nullable(),
  pad_token: z.string().nullable(),
  add_bos_token: z.boolean(),
  add_eos_token: z.boolean(),
  /** Tokens per sequence, prompt and completion together. */
  model_max_length: z.int(),
  /** The Jinja source of the chat template the server renders with, when it has one. */
  chat_template: z.string().optional(),
});
export type TokenizerInfo = z.infer<typeof tokenizerInfoSchema>;

// POST /tokenize, POST /detokenize and GET /tokenizer_info as vLLM's server answers them, so that
// lm-evaluation-harness's remote tokenizer (`tokenizer_backend=remote`, chosen by itself when /tokenizer_info
// answers) needs nothing but the server's URL: no Hugging Face tokenizer folder beside the GGUF.
import {
  detokenizeRequestSchema, tokenizeRequestSchema, type ServedTokenizeResponse, type TokenizerInfo,
} from "../../api/index.js";
import type { LlamaCppModelAdapter } from "../llamaCppAdapter.js";
import { badRequest } from "./errors.js";
import { checkModel, parseRequest } from "./generation.js";

export function serveTokenize(adapter: LlamaCppModelAdapter, raw: unknown): ServedTokenizeResponse {
  const body = parseRequest(tokenizeRequestSchema, raw);
  checkModel(adapter, body.model);
  const tokens = adapter.tokenizer.encode(body.prompt, body.add_special_tokens ?? true);
  return {
    tokens, count: tokens.length, max_model_len: adapter.contextSize,
    ...(body.return_token_strs ? { token_strs: adapter.tokenizer.entries(tokens) } : {}),
  };
}

export function serveDetokenize(adapter: LlamaCppModelAdapter, raw: unknown): { prompt: string } {
  const body = parseRequest(detokenizeRequestSchema, raw);
  checkModel(adapter, body.model);
  const vocab = adapter.vocabularySize;
  const bad = vocab === undefined ? undefined : body.tokens.find((t) => t >= vocab);
  if (bad !== undefined) throw badRequest(`\`tokens\` holds token ${bad}, but the vocabulary has ${vocab} tokens`, "tokens");
  return { prompt: adapter.tokenizer.decode(body.tokens) };
}

/** `chatTemplate`: the Jinja source chat completions render with; undefined takes the model's own, null none. */
export function tokenizerInfo(adapter: LlamaCppModelAdapter, chatTemplate: string | null | undefined): TokenizerInfo {
  const t = adapter.tokenizer;
  const template = chatTemplate === undefined ? t.chatTemplate : chatTemplate;
  return {
    tokenizer_class: "GGUF (llama.cpp)", tokenizer_model: t.kind,
    bos_token: t.bosToken, eos_token: t.eosToken, unk_token: t.unkToken, pad_token: t.padToken,
    add_bos_token: t.addBos, add_eos_token: t.addEos, model_max_length: adapter.contextSize,
    ...(template ? { chat_template: template } : {}),
  };
}

// A GGUF model's tokenizer as a Hugging Face tokenizer behaves, for serve-model's /tokenize, /detokenize and
// /tokenizer_info (vLLM's endpoints, which lm-evaluation-harness's remote tokenizer reads): special tokens
// written as text (`<s>`) are parsed as those tokens, and decoding writes them out.
import type { LlamaModel, Token } from "node-llama-cpp";
import { modelChatTemplate, withSingleBos } from "./chatTemplate.js";

export interface ModelTokenizer {
  /** The text's tokens, special tokens written as text parsed as such; BOS first when `addSpecial` and the model wants one. */
  encode(text: string, addSpecial: boolean): number[];
  /** The tokens' text, special tokens written out (`<s>`), as Hugging Face's `decode` does by default. */
  decode(tokens: readonly number[]): string;
  /** Each token's vocabulary entry (`▁Once`), as Hugging Face's `convert_ids_to_tokens` gives it. */
  entries(tokens: readonly number[]): string[];
  readonly bosToken: string | null;
  readonly eosToken: string | null;
  readonly unkToken: string | null;
  readonly padToken: string | null;
  /** Whether the model wants BOS before a prompt, and EOS after one (GGUF `tokenizer.ggml.add_*_token`). */
  readonly addBos: boolean;
  readonly addEos: boolean;
  /** GGUF's `tokenizer.ggml.model`: `llama` (SentencePiece), `gpt2` (byte-level BPE), … */
  readonly kind: string;
  /** The Jinja chat template in the GGUF metadata; null when it has none. */
  readonly chatTemplate: string | null;
}

interface GgufTokenizerMetadata {
  model?: unknown;
  tokens?: unknown;
  unknown_token_id?: unknown;
  padding_token_id?: unknown;
}

export function llamaTokenizer(model: LlamaModel): ModelTokenizer {
  const meta = ((model.fileInfo.metadata as { tokenizer?: { ggml?: GgufTokenizerMetadata } }).tokenizer?.ggml ?? {});
  const vocabulary = Array.isArray(meta.tokens) ? (meta.tokens as unknown[]).map(String) : [];
  const entry = (id: unknown): string | null =>
    typeof id === "number" && Number.isInteger(id) && id >= 0 && id < vocabulary.length ? vocabulary[id]! : null;
  return {
    encode: (text, addSpecial) => {
      const tokens = model.tokenize(text, true);
      return addSpecial ? withSingleBos(model, tokens) : tokens;
    },
    decode: (tokens) => model.detokenize(tokens as Token[], true),
    entries: (tokens) => tokens.map((t) => entry(t) ?? model.detokenize([t as Token], true)),
    bosToken: model.tokens.bos === null ? null : model.tokens.bosString ?? entry(model.tokens.bos),
    eosToken: model.tokens.eos === null ? null : model.tokens.eosString ?? entry(model.tokens.eos),
    unkToken: entry(meta.unknown_token_id),
    padToken: entry(meta.padding_token_id),
    addBos: model.tokens.shouldPrependBosToken,
    addEos: model.tokens.shouldAppendEosToken,
    kind: typeof meta.model === "string" ? meta.model : "unknown",
    chatTemplate: modelChatTemplate(model) ?? null,
  };
}

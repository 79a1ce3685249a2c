// anthropic through the official `@anthropic-ai/sdk` Messages API: sampling only (L0; Messages returns no
// log-probabilities), one text per request, `effort` passed as `output_config.effort`. The SDK retries 429
// (honouring retry-after-ms / retry-after), 408/409, 5xx and timeouts with backoff.
import Anthropic from "@anthropic-ai/sdk";
import type { ChatAnswer, ChatTurn, ProviderClient } from "./hostedAdapter.js";

export interface AnthropicOptions {
  model: string;
  apiKey: string | undefined;
  baseUrl?: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  effort?: string | undefined;
}

export class AnthropicClient implements ProviderClient {
  readonly provider = "anthropic";
  readonly model: string;
  readonly maxPerRequest = 1;
  readonly settings: Record<string, unknown>;
  readonly #sdk: Anthropic;

  constructor(private readonly o: AnthropicOptions) {
    this.model = o.model;
    this.settings = { base_url: o.baseUrl, effort: o.effort };
    this.#sdk = new Anthropic({ apiKey: o.apiKey ?? "unset", timeout: o.timeoutMs, maxRetries: o.maxRetries, ...(o.baseUrl ? { baseURL: o.baseUrl } : {}) });
  }

  async chat(turn: ChatTurn): Promise<ChatAnswer> {
    const body = {
      model: this.o.model,
      max_tokens: turn.maxTokens,
      temperature: Math.min(turn.temperature, 1),
      messages: [{ role: "user", content: turn.prompt }],
      ...(turn.stop ? { stop_sequences: turn.stop } : {}),
      ...(this.o.effort ? { output_config: { effort: this.o.effort } } : {}),
    };
    const res = (await this.#sdk.messages.create(body as never, turn.signal ? { signal: turn.signal } : {})) as unknown as RawMessage;
    if (!res || !Array.isArray(res.content)) throw new Error("anthropic answered a body without content[]");
    const text = res.content.filter((b) => b?.type === "text").map((b) => b.text ?? "").join("");
    return {
      texts: [text],
      firstTokenTop: undefined,
      usage: res.usage ? { promptTokens: res.usage.input_tokens ?? 0, completionTokens: res.usage.output_tokens ?? 0 } : undefined,
    };
  }
}

interface RawMessage {
  content: { type: string; text?: string }[];
  usage?: { input_tokens?: number; output_tokens?: number };
}

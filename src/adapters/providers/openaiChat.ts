// openai, azure-openai and openrouter through the official `openai` SDK's chat completions: L1 where the
// model returns `logprobs`/`top_logprobs`, else L0 from `n` samples. Reasoning models (`reasoning_effort`)
// return no log-probabilities and take `max_completion_tokens` without a temperature. The SDK retries 429
// (honouring retry-after-ms / retry-after), 408/409, 5xx and timeouts with backoff.
import OpenAI, { AzureOpenAI } from "openai";
import type { ChatAnswer, ChatTurn, ProviderClient } from "./hostedAdapter.js";

export interface OpenAIChatOptions {
  provider: "openai" | "azure-openai" | "openrouter";
  model: string;
  apiKey: string | undefined;
  baseUrl?: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  deployment?: string | undefined;
  apiVersion?: string | undefined;
  reasoningEffort?: string | undefined;
  upstream?: string | undefined;
  pinUpstream?: boolean | undefined;
}

const DEFAULT_BASE = { openai: undefined, openrouter: "https://openrouter.ai/api/v1" } as const;

export class OpenAIChatClient implements ProviderClient {
  readonly provider: string;
  readonly model: string;
  readonly maxPerRequest = 8;
  readonly settings: Record<string, unknown>;
  readonly #sdk: OpenAI;

  constructor(private readonly o: OpenAIChatOptions) {
    this.provider = o.provider;
    this.model = o.model;
    this.settings = { base_url: o.baseUrl, deployment: o.deployment, api_version: o.apiVersion, reasoning_effort: o.reasoningEffort, upstream: o.upstream, pin_upstream: o.pinUpstream };
    const common = { apiKey: o.apiKey ?? "unset", timeout: o.timeoutMs, maxRetries: o.maxRetries };
    this.#sdk = o.provider === "azure-openai"
      ? new AzureOpenAI({ ...common, ...(o.baseUrl ? { endpoint: o.baseUrl } : {}), ...(o.deployment ? { deployment: o.deployment } : {}), apiVersion: o.apiVersion ?? "2024-10-21" })
      : new OpenAI({ ...common, ...(o.baseUrl ?? DEFAULT_BASE[o.provider] ? { baseURL: o.baseUrl ?? DEFAULT_BASE[o.provider] } : {}) });
  }

  async chat(turn: ChatTurn): Promise<ChatAnswer> {
    const o = this.o;
    const reasoning = o.reasoningEffort !== undefined;
    const body: Record<string, unknown> = {
      model: o.deployment ?? o.model,
      messages: [{ role: "user", content: turn.prompt }],
      n: turn.n,
      seed: turn.seed,
      ...(reasoning ? { reasoning_effort: o.reasoningEffort, max_completion_tokens: turn.maxTokens } : { temperature: turn.temperature, max_tokens: turn.maxTokens }),
      ...(turn.logprobs ? { logprobs: true, top_logprobs: 20 } : {}),
      ...(turn.stop ? { stop: turn.stop } : {}),
      // OpenRouter's provider routing: prefer `upstream`, and with pin_upstream never fall back to another.
      ...(o.provider === "openrouter" && o.upstream ? { provider: { order: [o.upstream], allow_fallbacks: !o.pinUpstream } } : {}),
    };
    const res = (await this.#sdk.chat.completions.create(body as never, turn.signal ? { signal: turn.signal } : {})) as unknown as RawChat;
    if (!res || !Array.isArray(res.choices) || res.choices.some((c) => typeof c?.message?.content !== "string" && c?.message?.content !== null)) {
      throw new Error(`${o.provider} answered a body without choices[].message.content`);
    }
    const top = res.choices[0]?.logprobs?.content?.[0]?.top_logprobs;
    return {
      texts: res.choices.map((c) => c.message.content ?? ""),
      firstTokenTop: Array.isArray(top) ? new Map(top.map((t) => [t.token, t.logprob])) : undefined,
      usage: res.usage ? { promptTokens: res.usage.prompt_tokens ?? 0, completionTokens: res.usage.completion_tokens ?? 0 } : undefined,
    };
  }
}

interface RawChat {
  choices: { message: { content: string | null }; logprobs?: { content?: { top_logprobs?: { token: string; logprob: number }[] }[] | null } | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

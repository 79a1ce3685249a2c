// OpenAI-compatible servers (vLLM, SGLang, llama.cpp's server, `calibkit serve-model`) over undici: the way
// past one machine. The level is probed once at open: completion logprobs → L1, echo with prompt
// log-probabilities (or vLLM's prompt_logprobs) → L2, text only → L0. Never L3: a remote server's
// distribution is neither complete nor guaranteed deterministic. Log-probabilities are read in both the
// legacy shape and the newer `logprobs.content` one; chat prompts are rendered by the server itself
// (vLLM's /tokenize with messages, llama.cpp's /apply-template).
import { createHash } from "node:crypto";
import type { Agent } from "undici";
import { CalibkitError, type AccessLevel } from "../api/index.js";
import { requireLevel } from "./accessLevel.js";
import { AdapterDisposedError, AdapterError } from "./errors.js";
import { sampleSeed } from "./seededSampler.js";
import { chatBodyFor, completionFromChat } from "./openAIChatFallback.js";
import { continuationLogProb, firstTokenFromTopK, legacyLogprobs } from "./openAILogprobs.js";
import {
  completionResponseSchema, modelListSchema,
  type CompletionResponse,
} from "../api/index.js";
import type { ChatMessage } from "./chatTemplate.js";
import { countOnServer, probeChatRendering, renderOnServer, type ServerChatRendering } from "./openAIChatRendering.js";
import { generationSettings, requireGenerationLevel } from "./generatedSequence.js";
import { generateOnServer } from "./openAIGeneration.js";
import type {
  CallOptions, ChatRenderOptions, GenerateOptions, GenerationResult, ModelAdapter, RenderedChat, SampleOptions, ScoreItem,
} from "./types.js";

type Undici = typeof import("undici");

export interface OpenAICompatibleAdapterOptions {
  /** Server root, with or without the trailing /v1. */
  baseUrl: string;
  /** Model id; default the first one /v1/models lists. */
  model?: string;
  /** Sent as a bearer token when given. */
  apiKey?: string;
  /** Per-request timeout in milliseconds. Default 60 000. */
  timeoutMs?: number;
  /** Top-k asked for at L1. Default 20 (the OpenAI maximum). */
  topLogprobs?: number;
  /** Requests in flight at once. Default 8. */
  concurrency?: number;
  /** Server settings that change outputs (vLLM/SGLang quantization, engine_version, logprobs_mode, deterministic), hashed into the fingerprint. */
  settings?: Record<string, string | boolean>;
}

async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

class OpenAICompatibleAdapter implements ModelAdapter {
  readonly provider = "openai-compatible" as const;
  #disposed = false;
  accessLevel: AccessLevel = "L0";
  fingerprint = "";
  /** `chat` for a server without /v1/completions: prompts go to /v1/chat/completions as one user message. */
  endpoint: "completions" | "chat" = "completions";
  chatRendering: ServerChatRendering = "none";
  /** Whether the server answers `n` choices in one request; learnt by the first generation with samples. */
  manyChoices: boolean | undefined = undefined;

  constructor(
    readonly model: string,
    private readonly base: string,
    private readonly agent: Agent,
    private readonly options: OpenAICompatibleAdapterOptions,
    private readonly request: Undici["request"],
  ) {}

  get disposed(): boolean {
    return this.#disposed;
  }

  async post(body: Record<string, unknown>, signal?: AbortSignal, onUsage?: CallOptions["onUsage"]): Promise<CompletionResponse> {
    if (this.#disposed) throw new AdapterDisposedError(this.model);
    let res: CompletionResponse;
    if (this.endpoint === "chat") {
      const chat = chatBodyFor(body);
      if (!chat) throw new AdapterStatusError(400, `${this.base} serves chat only, which has no echo or prompt log-probabilities`);
      res = completionFromChat(await this.#call("POST", "/chat/completions", { model: this.model, ...chat }, signal), `${this.base}/chat/completions`);
    } else {
      const json = await this.#call("POST", "/completions", { model: this.model, ...body }, signal);
      const parsed = completionResponseSchema.safeParse(json);
      if (!parsed.success) throw new AdapterError(`${this.base}/completions answered an unexpected body`);
      res = parsed.data;
    }
    if (onUsage && res.usage) onUsage({ promptTokens: res.usage.prompt_tokens, completionTokens: res.usage.completion_tokens });
    return res;
  }

  /** The server root, where vLLM's /tokenize and llama.cpp's /apply-template live (beside /v1). */
  get root(): string {
    return this.base.replace(/\/v1$/, "");
  }

  get hasChatTemplate(): boolean {
    return this.chatRendering !== "none";
  }

  renderChat(messages: readonly ChatMessage[], options: ChatRenderOptions): Promise<RenderedChat> {
    return renderOnServer(this, messages, options);
  }

  /** Server-side token count (vLLM's /tokenize); other servers cannot count, which `--normalize tokens` reports. */
  countTokens(text: string): Promise<number> {
    return countOnServer(this, text);
  }

  /** Extra fields for a rendered prompt: vLLM must not add a second BOS to text that holds one. */
  #renderedFields(rendered: boolean | undefined): Record<string, unknown> {
    return rendered && this.chatRendering === "vllm-tokenize" ? { add_special_tokens: false } : {};
  }

  call(method: "GET" | "POST", path: string, body: unknown, signal?: AbortSignal, root = this.base): Promise<unknown> {
    return this.#call(method, path, body, signal, root);
  }

  async #call(method: "GET" | "POST", path: string, body: unknown, signal?: AbortSignal, root = this.base): Promise<unknown> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const timeout = this.options.timeoutMs ?? 60_000;
    try {
      const res = await this.request(`${root}${path}`, {
        method, headers, dispatcher: this.agent, body: body === undefined ? undefined : JSON.stringify(body),
        signal, headersTimeout: timeout, bodyTimeout: timeout,
      });
      const text = await res.body.text();
      if (res.statusCode >= 400) throw new AdapterStatusError(res.statusCode, `${method} ${root}${path} answered ${res.statusCode}: ${text.slice(0, 300)}`);
      return JSON.parse(text) as unknown;
    } catch (err) {
      if (err instanceof CalibkitError || (err instanceof Error && err.name === "AbortError")) throw err;
      throw new AdapterError(`${method} ${root}${path} failed: ${err instanceof Error ? err.message : String(err)}`, err);
    }
  }

  async listModels(): Promise<string[]> {
    const parsed = modelListSchema.safeParse(await this.#call("GET", "/models", undefined));
    if (!parsed.success) throw new AdapterError(`${this.base}/models answered an unexpected body`);
    return parsed.data.data.map((m) => m.id);
  }

  async firstTokenLogProbs(prefix: string, continuations: string[], options: CallOptions = {}): Promise<number[]> {
    requireLevel(this.accessLevel, "L1", "first-token log-probabilities");
    const res = await this.post({
      prompt: prefix, max_tokens: 1, temperature: 0, logprobs: this.options.topLogprobs ?? 20, ...this.#renderedFields(options.rendered),
    }, options.signal, options.onUsage);
    const top = legacyLogprobs(res.choices[0]!.logprobs)?.top_logprobs?.[0] ?? {};
    return firstTokenFromTopK(top, continuations);
  }

  async scoreContinuations(items: ScoreItem[], options: CallOptions = {}): Promise<number[][]> {
    requireLevel(this.accessLevel, "L2", "scoring continuations");
    const flat = items.flatMap((item) => item.continuations.map((c) => ({ prefix: item.prefix, continuation: c, rendered: item.rendered })));
    const scores = await pool(flat, this.options.concurrency ?? 8, async ({ prefix, continuation, rendered }) => {
      const res = await this.post({
        prompt: prefix + continuation, max_tokens: 0, echo: true, logprobs: 0, temperature: 0, ...this.#renderedFields(rendered),
      }, options.signal);
      return continuationLogProb(res, prefix.length);
    });
    let i = 0;
    return items.map((item) => item.continuations.map(() => scores[i++]!));
  }

  async sample(prompt: string, n: number, options: SampleOptions = {}): Promise<string[]> {
    const { seed = 0, maxTokens = 32, temperature = 1, stop, signal } = options;
    const indices = Array.from({ length: n }, (_, i) => i);
    return pool(indices, this.options.concurrency ?? 8, async (i) => {
      const res = await this.post({
        prompt, max_tokens: maxTokens, temperature, seed: sampleSeed(seed, i), ...(stop?.length ? { stop } : {}),
        ...this.#renderedFields(options.rendered),
      }, signal, options.onUsage);
      return res.choices[0]!.text;
    });
  }

  /** Greedy at temperature 0 and the samples in one request with `n` where the server takes it (openAIGeneration.ts). */
  async generate(prompt: string, options: GenerateOptions = {}): Promise<GenerationResult> {
    const settings = generationSettings(options);
    requireGenerationLevel(this.accessLevel, settings);
    const adapter = this;
    return generateOnServer({
      post: (body) => this.post({ ...body, ...this.#renderedFields(options.rendered) }, options.signal, options.onUsage),
      concurrency: this.options.concurrency ?? 8,
      get manyChoices() {
        return adapter.manyChoices;
      },
      set manyChoices(v) {
        adapter.manyChoices = v;
      },
      logprobs: this.accessLevel !== "L0",
    }, prompt, settings);
  }

  async hiddenState(): Promise<number[]> {
    requireLevel(this.accessLevel, "L4", "hidden states");
    throw new AdapterError("unreachable");
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    await this.agent.close();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}

/** An HTTP error status from the server, kept so callers can tell 4xx from 5xx. */
export class AdapterStatusError extends AdapterError {
  override name = "AdapterStatusError";
  constructor(readonly httpStatus: number, message: string) {
    super(message);
  }
}

async function probe(adapter: OpenAICompatibleAdapter): Promise<AccessLevel> {
  const tryPost = (body: Record<string, unknown>) => adapter.post(body).catch((err: unknown) => {
    if (err instanceof AdapterStatusError && err.httpStatus < 500) return undefined;
    throw err;
  });
  // Plain text must work at all; a failure here is the server's, not a level to detect.
  try {
    await adapter.post({ prompt: "Hello", max_tokens: 1, temperature: 0 });
  } catch (err) {
    if (!(err instanceof AdapterStatusError && (err.httpStatus === 404 || err.httpStatus === 405))) throw err;
    adapter.endpoint = "chat";
    await adapter.post({ prompt: "Hello", max_tokens: 1, temperature: 0 });
  }
  const withLogprobs = await tryPost({ prompt: "Hello", max_tokens: 1, temperature: 0, logprobs: 5 });
  const top = legacyLogprobs(withLogprobs?.choices[0]?.logprobs)?.top_logprobs?.[0];
  if (!top || Object.keys(top).length === 0) return "L0";
  // L2 needs log-probabilities of the prompt's own tokens: an echo that returns them (the text echoed back),
  // or vLLM's prompt_logprobs. llama.cpp's server ignores both and returns generated tokens only: L1.
  const echo = await tryPost({ prompt: "Hello there", max_tokens: 0, echo: true, logprobs: 0, temperature: 0 });
  const echoed = legacyLogprobs(echo?.choices[0]?.logprobs);
  if (echoed && echoed.tokens.join("").startsWith("Hello there") && echoed.token_logprobs.some((x) => typeof x === "number")) return "L2";
  const vllm = await tryPost({ prompt: "Hello there", max_tokens: 1, prompt_logprobs: 0, temperature: 0 });
  const promptLp = (vllm?.choices[0] as { prompt_logprobs?: unknown } | undefined)?.prompt_logprobs;
  if (Array.isArray(promptLp) && promptLp.length > 1) return "L2";
  return "L1";
}

export async function createOpenAICompatibleAdapter(options: OpenAICompatibleAdapterOptions): Promise<ModelAdapter> {
  const trimmed = options.baseUrl.replace(/\/+$/, "");
  const base = /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
  // undici is loaded with the first adapter (about 0.2 s): importing the adapters must stay cheap.
  const { Agent, request } = await import("undici");
  const agent = new Agent({ connections: options.concurrency ?? 8 });
  const bootstrap = new OpenAICompatibleAdapter(options.model ?? "", base, agent, options, request);
  try {
    const model = options.model ?? (await bootstrap.listModels())[0];
    if (!model) throw new AdapterError(`${base}/models lists no model`);
    const adapter = new OpenAICompatibleAdapter(model, base, agent, options, request);
    adapter.accessLevel = await probe(adapter);
    adapter.chatRendering = await probeChatRendering(adapter);
    // No weights are reachable, so the fingerprint names the server, the model id and the detected level.
    const id = JSON.stringify({
      provider: "openai-compatible", base, model, level: adapter.accessLevel, ...(adapter.endpoint === "chat" ? { endpoint: "chat" } : {}),
      ...(options.settings && Object.keys(options.settings).length > 0 ? { settings: Object.fromEntries(Object.entries(options.settings).sort()) } : {}),
    });
    adapter.fingerprint = `sha256:${createHash("sha256").update(id).digest("hex")}`;
    return adapter;
  } catch (err) {
    await agent.close();
    throw err;
  }
}

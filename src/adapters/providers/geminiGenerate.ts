// gemini through the official `@google/genai` SDK's generateContent (the Gemini API): L1 where the model
// returns `logprobsResult` for `responseLogprobs` (top 20 at each step), else L0 from `candidateCount`
// samples (`sample_count` a request, default 1). `thinking_level` goes to thinkingConfig.thinkingLevel. The
// SDK's own retries ignore retry headers, so they stay off: its fetch is wrapped to raise each non-2xx with
// its retry-after, and the shared policy (retry.ts) retries.
import { GoogleGenAI, type GenerateContentConfig, type GenerateContentResponse, type ThinkingLevel } from "@google/genai";
import type { ChatAnswer, ChatTurn, ProviderClient } from "./hostedAdapter.js";
import { isConnectionError, ProviderHttpError, retryAfterMs, withRetries, type RetryPolicy } from "./retry.js";

export interface GeminiOptions {
  model: string;
  /** Default: the SDK's own (GEMINI_API_KEY / GOOGLE_API_KEY in the environment). */
  apiKey: string | undefined;
  baseUrl?: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  thinkingLevel?: string | undefined;
  sampleCount?: number | undefined;
}

const TOP_LOGPROBS = 20;
/** A 400 whose message says the model takes no log-probabilities (Gemini answers so for models without them). */
export const isLogprobsRefusal = (err: unknown) =>
  err instanceof Error && /\b400\b/.test(err.message) && /logprob/i.test(err.message);

/** Raises a non-2xx answer with its status and retry hint, which the SDK's ApiError would drop. */
async function fetchRaisingStatus(url: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const res = await fetch(url, init);
  if (res.ok) return res;
  const text = await res.text().catch(() => "");
  throw new ProviderHttpError(res.status, retryAfterMs((h) => res.headers.get(h)), `gemini answered ${res.status}: ${text.slice(0, 500)}`);
}

export class GeminiClient implements ProviderClient {
  readonly provider = "gemini";
  readonly model: string;
  readonly maxPerRequest: number;
  readonly settings: Record<string, unknown>;
  readonly #sdk: GoogleGenAI;
  readonly #policy: RetryPolicy;

  constructor(private readonly o: GeminiOptions) {
    this.model = o.model;
    this.maxPerRequest = o.sampleCount ?? 1;
    this.settings = { base_url: o.baseUrl, thinking_level: o.thinkingLevel };
    this.#policy = { maxRetries: o.maxRetries, timeoutMs: o.timeoutMs };
    this.#sdk = new GoogleGenAI({
      ...(o.apiKey ? { apiKey: o.apiKey } : {}),
      httpOptions: { ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}), fetch: fetchRaisingStatus },
    });
  }

  async chat(turn: ChatTurn): Promise<ChatAnswer> {
    const o = this.o;
    const config: GenerateContentConfig = {
      candidateCount: turn.n,
      temperature: turn.temperature,
      maxOutputTokens: turn.maxTokens,
      seed: turn.seed,
      ...(turn.logprobs ? { responseLogprobs: true, logprobs: TOP_LOGPROBS } : {}),
      ...(turn.stop ? { stopSequences: turn.stop } : {}),
      ...(o.thinkingLevel ? { thinkingConfig: { thinkingLevel: o.thinkingLevel.toUpperCase() as ThinkingLevel } } : {}),
    };
    const res = await withRetries(
      "gemini", this.#policy,
      (abortSignal) => this.#sdk.models.generateContent({ model: o.model, contents: [{ role: "user", parts: [{ text: turn.prompt }] }], config: { ...config, abortSignal } }),
      (err) => ({ connection: isConnectionError(err) }), turn.signal,
    );
    return answerOf(res);
  }
}

function answerOf(res: GenerateContentResponse): ChatAnswer {
  const candidates = res?.candidates;
  if (!Array.isArray(candidates) || candidates.length === 0) {
    const blocked = res?.promptFeedback?.blockReason;
    throw new Error(blocked ? `gemini refused the prompt (blockReason ${blocked})` : "gemini answered a body without candidates[]");
  }
  const texts = candidates.map((c) => {
    const parts = c?.content?.parts;
    if (parts !== undefined && !Array.isArray(parts)) throw new Error("gemini answered a candidate whose content.parts is not a list");
    // Thought summaries are not the answer.
    return (parts ?? []).filter((p) => !p.thought).map((p) => p.text ?? "").join("");
  });
  const top = candidates[0]?.logprobsResult?.topCandidates?.[0]?.candidates;
  const u = res.usageMetadata;
  return {
    texts,
    firstTokenTop: Array.isArray(top) ? new Map(top.filter((t) => typeof t.token === "string" && typeof t.logProbability === "number").map((t) => [t.token!, t.logProbability!])) : undefined,
    // Thinking tokens are billed as output.
    usage: u ? { promptTokens: u.promptTokenCount ?? 0, completionTokens: (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0) } : undefined,
  };
}

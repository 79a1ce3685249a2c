// The part every hosted provider adapter shares: a provider answers one chat turn (a prompt as one user
// message) with n texts, optionally the top log-probabilities of the first output token, and the tokens it
// used; L1 questions are answered from those top log-probabilities, L0 from samples. Higher levels do not
// exist on hosted chat APIs and throw AccessLevelError (502), never a silent downgrade.
import { createHash } from "node:crypto";
import type { AccessLevel } from "../../api/index.js";
import type { ChatMessage } from "../chatTemplate.js";
import { AccessLevelError, AdapterDisposedError, AdapterError } from "../errors.js";
import { generationSettings, requireGenerationLevel } from "../generatedSequence.js";
import { cutAtStop } from "../seededSampler.js";
import type {
  CallOptions, ChatRenderOptions, GeneratedSequence, GenerateOptions, GenerationResult, ModelAdapter, RenderedChat, SampleOptions,
  ScoreItem,
} from "../types.js";

export interface ChatTurn {
  prompt: string;
  n: number;
  temperature: number;
  maxTokens: number;
  seed: number;
  /** Ask for the top log-probabilities of the first output token (L1 providers only). */
  logprobs: boolean;
  stop?: string[];
  signal?: AbortSignal;
}

export interface ChatAnswer {
  texts: string[];
  /** Token text → natural-log probability at the first output position; undefined when the provider gave none. */
  firstTokenTop: Map<string, number> | undefined;
  usage: { promptTokens: number; completionTokens: number } | undefined;
}

/** What a provider module supplies: its name, the model, one chat turn, and what went into its answers. */
export interface ProviderClient {
  readonly provider: string;
  readonly model: string;
  /** The most samples one request may ask for (n / candidateCount); 1 where the API has no such field. */
  readonly maxPerRequest: number;
  chat(turn: ChatTurn): Promise<ChatAnswer>;
  /** Settings that change outputs (endpoint, deployment, effort, …), hashed into the fingerprint. */
  readonly settings: Record<string, unknown>;
  /** Closes connections the SDK keeps open (bedrock's HTTP/2 session). */
  close?(): void;
}

const TOP_LOGPROBS = 20;

export class HostedAdapter implements ModelAdapter {
  #disposed = false;
  readonly fingerprint: string;
  readonly hasChatTemplate = false;

  constructor(private readonly client: ProviderClient, readonly accessLevel: AccessLevel) {
    const id = JSON.stringify({ provider: client.provider, model: client.model, level: accessLevel, ...client.settings });
    this.fingerprint = `sha256:${createHash("sha256").update(id).digest("hex")}`;
  }

  get provider() {
    return this.client.provider as ModelAdapter["provider"];
  }
  get model(): string {
    return this.client.model;
  }
  get disposed(): boolean {
    return this.#disposed;
  }

  async #chat(turn: Omit<ChatTurn, "signal"> & { signal?: AbortSignal | undefined }, onUsage: CallOptions["onUsage"]): Promise<ChatAnswer> {
    if (this.#disposed) throw new AdapterDisposedError(this.model);
    const answer = await this.client.chat(turn as ChatTurn);
    if (onUsage && answer.usage) onUsage(answer.usage);
    return answer;
  }

  /**
   * First-token log-probabilities from the provider's top-20 at the first output position. A continuation
   * whose first token is not in the top 20 gets a value below the 20th (the list's floor minus ln 2), since
   * the provider only tells us it is less likely than every listed one.
   */
  async firstTokenLogProbs(prefix: string, continuations: string[], options: CallOptions = {}): Promise<number[]> {
    if (this.accessLevel === "L0") throw new AccessLevelError("L1", this.accessLevel, "first-token log-probabilities");
    const answer = await this.#chat({ prompt: prefix, n: 1, temperature: 0, maxTokens: 1, seed: 0, logprobs: true, signal: options.signal }, options.onUsage);
    const top = answer.firstTokenTop;
    if (!top || top.size === 0) throw new AccessLevelError("L1", "L0", `${this.client.provider} model "${this.model}" answered without log-probabilities, so first-token log-probabilities`);
    const floor = Math.min(...top.values()) - Math.LN2;
    return continuations.map((c) => {
      const want = c.trim().toLowerCase();
      let best = -Infinity;
      for (const [token, logp] of top) {
        const t = token.trim().toLowerCase();
        if (t !== "" && want.startsWith(t)) best = Math.max(best, logp);
      }
      return best === -Infinity ? floor : best;
    });
  }

  async scoreContinuations(_items: ScoreItem[]): Promise<number[][]> {
    throw new AccessLevelError("L2", this.accessLevel, `${this.client.provider}: scoring continuations`);
  }

  async sample(prompt: string, n: number, options: SampleOptions = {}): Promise<string[]> {
    const out: string[] = [];
    for (let seed = options.seed ?? 0; out.length < n; seed++) {
      const answer = await this.#chat({
        prompt, n: Math.min(n - out.length, this.client.maxPerRequest), temperature: options.temperature ?? 1, maxTokens: options.maxTokens ?? 32, seed,
        logprobs: false, signal: options.signal, ...(options.stop ? { stop: options.stop } : {}),
      }, options.onUsage);
      if (answer.texts.length === 0) throw new Error(`${this.client.provider} answered no text`);
      out.push(...answer.texts);
    }
    return out.slice(0, n);
  }

  /**
   * The greedy answer at temperature 0 and the samples as `sample` draws them. Hosted chat APIs give text only
   * here (their log-probabilities are read at the first output position alone), so each sequence has no tokens.
   */
  async generate(prompt: string, options: GenerateOptions = {}): Promise<GenerationResult> {
    const s = generationSettings(options);
    requireGenerationLevel(this.accessLevel, { ...s, topLogprobs: 0 });
    if (s.topLogprobs > 0) throw new AdapterError(`${this.client.provider} gives log-probabilities at the first output position only, not topLogprobs for every generated token`);
    if (s.topP < 1 || s.topK > 0) throw new AdapterError(`${this.client.provider}: topP and topK are not sent to hosted providers; leave them at 1 and 0`);
    const common = { maxTokens: s.maxTokens, signal: options.signal, ...(s.stop.length > 0 ? { stop: s.stop } : {}) };
    const answer = await this.#chat({ prompt, n: 1, temperature: 0, seed: s.seed, logprobs: false, ...common }, options.onUsage);
    const texts = s.samples > 0 ? await this.sample(prompt, s.samples, { ...common, seed: s.seed, temperature: s.temperature, onUsage: options.onUsage }) : [];
    const sequence = (text: string): GeneratedSequence => {
      const cut = cutAtStop(text, s.stop);
      return { text: cut.text, tokens: [], finishReason: cut.stopped ? "stop" : "eos" };
    };
    if (answer.texts.length === 0) throw new AdapterError(`${this.client.provider} answered no text`);
    return { greedy: sequence(answer.texts[0]!), samples: texts.map(sequence) };
  }

  /** Hosted chat APIs apply the model's template themselves: the prompt is the user message as written. */
  async renderChat(messages: readonly ChatMessage[], _options: ChatRenderOptions): Promise<RenderedChat> {
    const text = messages.map((m) => m.content).join("\n\n");
    return { text, wrapperName: `${this.client.provider}:chat`, templateSource: `${this.client.provider}:${this.model}` };
  }

  async countTokens(): Promise<number> {
    throw new AccessLevelError("L2", this.accessLevel, `${this.client.provider}: counting tokens`);
  }

  async hiddenState(): Promise<number[]> {
    throw new AccessLevelError("L4", this.accessLevel, `${this.client.provider}: hidden states`);
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.client.close?.();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}

// The one interface every model backend implements, so the evidence builder never knows which engine
// it is talking to. Methods above the adapter's detected level throw AccessLevelError.
import type { AccessLevel } from "../api/index.js";
import type { ChatMessage } from "./chatTemplate.js";

export type AdapterProvider = "llama.cpp" | "transformers" | "openai-compatible";

/** Options every long call accepts. */
export interface CallOptions {
  /** Aborts the call; the adapter stays usable afterwards. */
  signal?: AbortSignal;
  /**
   * The prompt is a rendered chat prompt (renderChat): its special-token text is tokenized as special tokens
   * and it brings its own BOS, so none is added twice. Default false.
   */
  rendered?: boolean;
  /**
   * Called with the tokens a server reports for each request it answers (OpenAI-compatible `usage`), so a
   * caller can count and price what it used; adapters that report nothing never call it.
   */
  onUsage?: (usage: { promptTokens: number; completionTokens: number }) => void;
}

/** How renderChat renders: the model's own template or a Jinja file, and the date printed as today's. */
export interface ChatRenderOptions {
  chatTemplate: "auto" | { file: string };
  /** Default 2024-07-26 (DEFAULT_PINNED_DATE). */
  pinnedDate?: Date;
}

export interface RenderedChat {
  /** The prompt text, ending with the generation prompt (the assistant header). */
  text: string;
  /** How it was rendered, e.g. `JinjaTemplate`, `Llama3_1`, `vllm:/tokenize`, `llama.cpp:/apply-template`. */
  wrapperName: string;
  /** Everything that decided the rendering (template text or wrapper and settings, date), for prompt_template_hash. */
  templateSource: string;
}

/** One prefix with the continuations to score after it. */
export interface ScoreItem {
  prefix: string;
  continuations: string[];
  /** The prefix is a rendered chat prompt (see CallOptions.rendered). Default false. */
  rendered?: boolean;
}

export interface SampleOptions extends CallOptions {
  /** Seed of the sampler; the same seed gives the same samples on the same adapter. Default 0. */
  seed?: number;
  /** Most tokens per sample. Default 32. */
  maxTokens?: number;
  /** Softmax temperature; 0 means greedy. Default 1. */
  temperature?: number;
  /** Generation stops before any of these strings. Default none. */
  stop?: string[];
}

/** One generation call: the greedy answer plus `samples` sampled answers, all after one shared prompt. */
export interface GenerateOptions extends CallOptions {
  /** Sampled answers besides the greedy one (K). Default 0. */
  samples?: number;
  /** Softmax temperature of the samples (the greedy answer is the argmax). Default 1. */
  temperature?: number;
  /** Nucleus mass of the samples; 1 keeps every token. Default 1. */
  topP?: number;
  /** Most candidate tokens of the samples; 0 keeps every token. Default 0. */
  topK?: number;
  /** Seed of the sampler: the same seed gives the same samples on the same adapter. Default 0. */
  seed?: number;
  /** Most tokens per answer. Default 64. */
  maxTokens?: number;
  /** Each answer ends before the first of these strings (the task's `until`). Default none. */
  stop?: string[];
  /** L1+: the most likely alternatives kept per generated token. Default 0. */
  topLogprobs?: number;
  /** L3: keep each generated token's full next-token distribution (log-probabilities). Default false. */
  fullDistribution?: boolean;
  /** L4: an embedding (hidden state) of each answer. Default false. */
  embedding?: boolean;
}

/** One generated answer with what the backend exposed about it, token by token. */
export interface GeneratedSequence {
  /** The answer text, cut before the stop string; equal to the concatenation of `tokens` up to the stop. */
  text: string;
  /** The generated tokens' pieces, in order (those of the stop string excluded). */
  tokens: string[];
  /** The ids of `tokens`, where the engine's vocabulary is known (llama.cpp, transformers); absent from servers. */
  tokenIds?: number[];
  /** L1+: natural-log probability of each generated token (the value sampled or picked). */
  logProbs?: number[];
  /** L1+: per token, the `topLogprobs` most likely alternatives as {piece: log-probability}. */
  topLogProbs?: Array<Record<string, number>>;
  /** L3: per token, the Shannon entropy (nats) of the full next-token distribution. */
  entropies?: number[];
  /** L3 with `fullDistribution`: per token, the full next-token distribution as log-probabilities. */
  distributions?: Float32Array[];
  /** L4 with `embedding`: a hidden-state vector of the answer. */
  embedding?: number[];
  finishReason: "stop" | "length" | "eos";
}

export interface GenerationResult {
  greedy: GeneratedSequence;
  samples: GeneratedSequence[];
}

export interface ModelAdapter extends AsyncDisposable {
  readonly provider: AdapterProvider;
  /** The model's name: file name, folder name or the server's model id. */
  readonly model: string;
  /** The highest level this backend exposes, as detected when it was opened. */
  readonly accessLevel: AccessLevel;
  /** `sha256:<hex>` over the weights file(s) and the settings that change outputs. */
  readonly fingerprint: string;
  readonly disposed: boolean;

  /**
   * L1+: natural-log probability of the first token of each continuation right after `prefix`
   * (the first-token approximation). Continuations that share a first token get the same value.
   */
  firstTokenLogProbs(prefix: string, continuations: string[], options?: CallOptions): Promise<number[]>;

  /**
   * L2+: natural-log probability of each whole continuation after its prefix (sum over its tokens).
   * All items are evaluated together, sharing their common token prefix where the engine allows it.
   */
  scoreContinuations(items: ScoreItem[], options?: CallOptions): Promise<number[][]>;

  /**
   * L0+: the greedy answer and `samples` sampled answers of `prompt`, decoded together where the engine
   * shares the prompt's cache; deterministic for a seed. What each sequence carries follows the access level.
   */
  generate(prompt: string, options?: GenerateOptions): Promise<GenerationResult>;

  /** L0+: `n` sampled completions of `prompt` from a seeded sampler. */
  sample(prompt: string, n: number, options?: SampleOptions): Promise<string[]>;

  /** Whether the model comes with a chat template of its own (format `auto` then picks `letters`). */
  readonly hasChatTemplate: boolean;

  /** Renders chat messages, with the generation prompt, as this backend's model expects them. */
  renderChat(messages: readonly ChatMessage[], options: ChatRenderOptions): Promise<RenderedChat>;

  /** Tokens of `text` as a continuation (for `--normalize tokens`). */
  countTokens(text: string): Promise<number>;

  /** L4: a hidden-state vector for `text` (pooled over its tokens where the engine pools). */
  hiddenState(text: string, options?: CallOptions): Promise<number[]>;

  dispose(): Promise<void>;
}

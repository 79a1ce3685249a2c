// The one interface every model backend implements, so the evidence builder never knows which engine
// it is talking to. Methods above the adapter's detected level throw AccessLevelError.
import type { AccessLevel } from "../api/index.js";

export type AdapterProvider = "llama.cpp" | "transformers" | "openai-compatible";

/** Options every long call accepts. */
export interface CallOptions {
  /** Aborts the call; the adapter stays usable afterwards. */
  signal?: AbortSignal;
}

/** One prefix with the continuations to score after it. */
export interface ScoreItem {
  prefix: string;
  continuations: string[];
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

  /** L0+: `n` sampled completions of `prompt` from a seeded sampler. */
  sample(prompt: string, n: number, options?: SampleOptions): Promise<string[]>;

  /** L4: a hidden-state vector for `text` (pooled over its tokens where the engine pools). */
  hiddenState(text: string, options?: CallOptions): Promise<number[]>;

  dispose(): Promise<void>;
}

// GGUF models through node-llama-cpp: the full next-token distribution (L3) and, when the model can embed,
// pooled hidden states (L4). CPU by default, a GPU when one is present and `gpu` allows it.
import { statSync } from "node:fs";
import { basename } from "node:path";
import type {
  Llama, LlamaContext, LlamaContextSequence, LlamaEmbeddingContext, LlamaModel, Token,
} from "node-llama-cpp";
import { CalibkitError, type AccessLevel } from "../api/index.js";
import { requireLevel } from "./accessLevel.js";
import { AdapterDisposedError, AdapterError, ModelNotFoundError } from "./errors.js";
import { computeFingerprint } from "./fingerprint.js";
import { completeOnSequence, type CompletionOptions, type CompletionResult } from "./llamaCompletion.js";
import { sampleFromRoot } from "./llamaSampling.js";
import { generateOnRoot } from "./llamaGeneration.js";
import { generationSettings, requireGenerationLevel } from "./generatedSequence.js";
import { SequencePool } from "./sequencePool.js";
import { scorePaths, type ScorerSequences } from "./llamaPrefixScorer.js";
import { chooseThreads } from "./threads.js";
import {
  modelChatTemplate, renderChatPrompt, withSingleBos, type ChatMessage, type ChatTemplateSetting, type RenderedChatPrompt,
} from "./chatTemplate.js";
import type {
  CallOptions, ChatRenderOptions, GenerateOptions, GenerationResult, ModelAdapter, RenderedChat, SampleOptions, ScoreItem,
} from "./types.js";
import type { TokenPath } from "./tokenTrie.js";

export interface LlamaCppAdapterOptions {
  /** Path of the .gguf file. */
  modelPath: string;
  /** CPU threads; default from the model size and the machine (threads.ts). */
  threads?: number;
  /** `"auto"` (default) uses a GPU when present; `false` forces the CPU. */
  gpu?: "auto" | false;
  /** Tokens per sequence (context + prompt + continuation). Default min(2048, train context). */
  contextSize?: number;
  /** Branches evaluated in one batch; bounds memory (one KV stream each). Default 32 for small models, 8 otherwise. */
  parallelSequences?: number;
  /** Open an embedding context for hidden states (L4). Default true. */
  embeddings?: boolean;
}

/** The llama.cpp adapter also completes prompts with per-token log-probabilities (for serve-model). */
export interface LlamaCppModelAdapter extends ModelAdapter {
  readonly provider: "llama.cpp";
  /** Tokens per sequence: prompt and completion together must fit. */
  readonly contextSize: number;
  /** Completions that can run at once, one sequence each (llama.cpp's server calls them slots). */
  readonly slots: number;
  /** Sequences in use and calls waiting for one, now. */
  slotUse(): { busy: number; waiting: number };
  /** Token ids run from 0 to this, exclusive; undefined when the GGUF file does not list its vocabulary. */
  readonly vocabularySize: number | undefined;
  /** The prompt's tokens as a completion would see them (BOS first where the model wants one). */
  tokenizePrompt(text: string, rendered?: boolean): number[];
  /** The conversation as the chat renderer gives it to this model, ready for the assistant's answer. */
  chatPrompt(messages: readonly ChatMessage[], chatTemplate: ChatTemplateSetting): Promise<RenderedChatPrompt>;
  /** A completion on one free sequence; several run at once, batched by llama.cpp. Waits for a free one. */
  complete(prompt: string | readonly number[], options?: CompletionOptions): Promise<CompletionResult>;
}

const llamas = new Map<string, Promise<Llama>>();
function sharedLlama(gpu: "auto" | false): Promise<Llama> {
  const key = String(gpu);
  let llama = llamas.get(key);
  if (!llama) {
    // Loaded on first use, so that importing the adapters (for their types and helpers) stays cheap.
    llama = import("node-llama-cpp").then(({ getLlama, LlamaLogLevel }) => getLlama({ gpu, logLevel: LlamaLogLevel.error }));
    llamas.set(key, llama);
  }
  return llama;
}

class LlamaCppAdapter implements LlamaCppModelAdapter {
  readonly provider = "llama.cpp" as const;
  #disposed = false;
  readonly #pool: SequencePool<LlamaContextSequence>;

  constructor(
    readonly model: string,
    readonly accessLevel: AccessLevel,
    readonly fingerprint: string,
    readonly contextSize: number,
    private readonly llamaModel: LlamaModel,
    private readonly context: LlamaContext,
    private readonly seqs: ScorerSequences,
    private readonly embedding: LlamaEmbeddingContext | undefined,
  ) {
    this.#pool = new SequencePool(seqs.workers);
  }

  get vocabularySize(): number | undefined {
    const tokens = (this.llamaModel.fileInfo.metadata as { tokenizer?: { ggml?: { tokens?: unknown } } }).tokenizer?.ggml?.tokens;
    return Array.isArray(tokens) ? tokens.length : undefined;
  }

  get slots(): number {
    return this.#pool.size;
  }

  slotUse(): { busy: number; waiting: number } {
    return { busy: this.#pool.busy, waiting: this.#pool.waiting };
  }

  get disposed(): boolean {
    return this.#disposed;
  }

  /** Scoring and sampling use every sequence (waves of branches), so they hold the whole pool. */
  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.#leased(true, undefined, fn);
  }

  async #leased<T>(all: boolean, signal: AbortSignal | undefined, fn: (seq: LlamaContextSequence) => Promise<T>): Promise<T> {
    if (this.#disposed) throw new AdapterDisposedError(this.model);
    const lease = await this.#pool.acquire(all, signal);
    try {
      return await fn(lease.seqs[0]!);
    } catch (err) {
      if (err instanceof CalibkitError || (err instanceof Error && err.name === "AbortError")) throw err;
      throw new AdapterError(`llama.cpp failed on ${this.model}: ${err instanceof Error ? err.message : String(err)}`, err);
    } finally {
      lease.release();
    }
  }

  get hasChatTemplate(): boolean {
    return modelChatTemplate(this.llamaModel) !== undefined;
  }

  async renderChat(messages: readonly ChatMessage[], options: ChatRenderOptions): Promise<RenderedChat> {
    const { text, wrapperName, templateSource } = await renderChatPrompt(this.llamaModel, messages, {
      chatTemplate: options.chatTemplate, addGenerationPrompt: true, ...(options.pinnedDate ? { pinnedDate: options.pinnedDate } : {}),
    });
    return { text, wrapperName, templateSource };
  }

  async countTokens(text: string): Promise<number> {
    return this.llamaModel.tokenize(text, false, "trimLeadingSpace").length;
  }

  /**
   * Prompt tokens with BOS where the model wants one, so a prompt never starts without a predictor. A rendered
   * chat prompt is tokenized with special tokens parsed and BOS once, exactly as renderChatPrompt gives it.
   */
  tokenizePrompt(text: string, rendered = false): Token[] {
    if (rendered) return withSingleBos(this.llamaModel, this.llamaModel.tokenize(text, true));
    const tokens = this.llamaModel.tokenize(text, false);
    const bos = this.llamaModel.tokens.bos;
    if (bos !== null && (this.llamaModel.tokens.shouldPrependBosToken || tokens.length === 0)) return [bos, ...tokens];
    return tokens;
  }

  /**
   * Tokens of prefix + continuation, tokenised together so the boundary is the one the model would see;
   * when joint tokenisation changes the prefix tokens, the continuation is tokenised on its own.
   */
  #path(prefixTokens: Token[], prefix: string, continuation: string, rendered: boolean): TokenPath {
    const joint = this.tokenizePrompt(prefix + continuation, rendered);
    const aligned = joint.length > prefixTokens.length && prefixTokens.every((t, i) => joint[i] === t);
    const tokens = aligned ? joint : [...prefixTokens, ...this.llamaModel.tokenize(continuation, false, "trimLeadingSpace")];
    return { tokens, scoreFrom: prefixTokens.length };
  }

  async scoreContinuations(items: ScoreItem[], options: CallOptions = {}): Promise<number[][]> {
    requireLevel(this.accessLevel, "L2", "scoring continuations");
    return this.#exclusive(async () => {
      const paths: TokenPath[] = [];
      for (const item of items) {
        const rendered = item.rendered ?? false;
        const prefixTokens = this.tokenizePrompt(item.prefix, rendered);
        for (const c of item.continuations) paths.push(this.#path(prefixTokens, item.prefix, c, rendered));
      }
      const scored = await scorePaths(this.seqs, paths, options.signal);
      let i = 0;
      return items.map((item) => item.continuations.map(() => scored[i++]!.reduce((s, lp) => s + lp, 0)));
    });
  }

  async firstTokenLogProbs(prefix: string, continuations: string[], options: CallOptions = {}): Promise<number[]> {
    requireLevel(this.accessLevel, "L1", "first-token log-probabilities");
    return this.#exclusive(async () => {
      const rendered = options.rendered ?? false;
      const prefixTokens = this.tokenizePrompt(prefix, rendered);
      const paths = continuations.map((c) => {
        const full = this.#path(prefixTokens, prefix, c, rendered);
        return { tokens: full.tokens.slice(0, full.scoreFrom + 1), scoreFrom: full.scoreFrom };
      });
      const scored = await scorePaths(this.seqs, paths, options.signal);
      return scored.map((s) => s[0] ?? 0);
    });
  }

  async sample(prompt: string, n: number, options: SampleOptions = {}): Promise<string[]> {
    return this.#exclusive(() => sampleFromRoot(this.llamaModel, this.seqs, this.tokenizePrompt(prompt, options.rendered), n, options));
  }

  /** The greedy answer and the samples decode together on copies of the prompt's KV state (llamaGeneration.ts). */
  async generate(prompt: string, options: GenerateOptions = {}): Promise<GenerationResult> {
    const settings = generationSettings(options);
    requireGenerationLevel(this.accessLevel, settings);
    const tokens = this.tokenizePrompt(prompt, options.rendered);
    if (tokens.length + settings.maxTokens > this.contextSize) {
      throw new AdapterError(`A prompt of ${tokens.length} tokens and ${settings.maxTokens} new ones exceed the context of ${this.contextSize}`);
    }
    return this.#exclusive(() => generateOnRoot({
      model: this.llamaModel, seqs: this.seqs, vocabularySize: this.vocabularySize,
      embed: async (text) => (text.length > 0 ? [...(await this.embedding!.getEmbeddingFor(text)).vector]
        : new Array<number>(this.llamaModel.embeddingVectorSize).fill(0)),
    }, tokens, settings, options.signal));
  }

  async hiddenState(text: string, options: CallOptions = {}): Promise<number[]> {
    requireLevel(this.accessLevel, "L4", "hidden states");
    return this.#exclusive(async () => {
      options.signal?.throwIfAborted();
      const embedding = await this.embedding!.getEmbeddingFor(text);
      return [...embedding.vector];
    });
  }

  async complete(prompt: string | readonly number[], options: CompletionOptions = {}): Promise<CompletionResult> {
    const tokens = typeof prompt === "string" ? this.tokenizePrompt(prompt) : (prompt as Token[]);
    if (tokens.length === 0) throw new AdapterError("A completion needs at least one prompt token");
    const withBos = tokens[0] === this.llamaModel.tokens.bos;
    return this.#leased(false, options.signal, (seq) => completeOnSequence(this.llamaModel, seq, [...tokens], withBos, options));
  }

  chatPrompt(messages: readonly ChatMessage[], chatTemplate: ChatTemplateSetting): Promise<RenderedChatPrompt> {
    return renderChatPrompt(this.llamaModel, messages, { chatTemplate, addGenerationPrompt: true });
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    (await this.#pool.acquire(true)).release();
    await this.embedding?.dispose();
    await this.context.dispose();
    await this.llamaModel.dispose();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}

export async function createLlamaCppAdapter(options: LlamaCppAdapterOptions): Promise<LlamaCppModelAdapter> {
  let size: number;
  try {
    size = statSync(options.modelPath).size;
  } catch (cause) {
    throw new ModelNotFoundError(`No GGUF model at ${options.modelPath}`);
  }
  const gpu = options.gpu ?? "auto";
  const threads = options.threads ?? chooseThreads(size);
  try {
    const llama = await sharedLlama(gpu);
    const model = await llama.loadModel({ modelPath: options.modelPath });
    const small = size < 256 * 1024 * 1024;
    const parallel = Math.max(1, options.parallelSequences ?? (small ? 32 : 8));
    const contextSize = options.contextSize ?? Math.min(2048, model.trainContextSize);
    const context = await model.createContext({ threads, sequences: parallel + 1, contextSize });
    const root = context.getSequence();
    const workers: LlamaContextSequence[] = Array.from({ length: parallel }, () => context.getSequence());
    let embedding: LlamaEmbeddingContext | undefined;
    if (options.embeddings ?? true) {
      embedding = await model.createEmbeddingContext({ threads, contextSize }).catch(() => undefined);
    }
    const level: AccessLevel = embedding ? "L4" : "L3";
    // GPU kernels round differently from the CPU ones, so the compute backend is part of the fingerprint.
    const fingerprint = await computeFingerprint([options.modelPath], { provider: "llama.cpp", compute: llama.gpu || "cpu" });
    return new LlamaCppAdapter(basename(options.modelPath), level, fingerprint, contextSize, model, context, { root, workers }, embedding);
  } catch (cause) {
    throw new AdapterError(`Could not load ${options.modelPath} with node-llama-cpp: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
  }
}

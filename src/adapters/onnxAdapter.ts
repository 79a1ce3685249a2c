// ONNX causal LMs through @huggingface/transformers, from a local folder with remote loading off: logits
// give the full distribution (L3); an export that also outputs hidden states reaches L4. No KV reuse here:
// each path is one forward pass (docs/adapters.md says why that is acceptable for this backend).
import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import type { PreTrainedModel, PreTrainedTokenizer, Tensor } from "@huggingface/transformers";
import { CalibkitError, type AccessLevel } from "../api/index.js";
import { requireLevel } from "./accessLevel.js";
import { AdapterDisposedError, AdapterError, ModelNotFoundError } from "./errors.js";
import { computeFingerprint } from "./fingerprint.js";
import { logSoftmax } from "./logMath.js";
import { cutAtStop, drawToken, sampleSeed, seededRng } from "./seededSampler.js";
import { generationSettings, requireGenerationLevel } from "./generatedSequence.js";
import { generateSequentially } from "./onnxGeneration.js";
import type {
  CallOptions, ChatRenderOptions, GenerateOptions, GenerationResult, ModelAdapter, RenderedChat, SampleOptions, ScoreItem,
} from "./types.js";
import type { ChatMessage } from "./chatTemplate.js";
import { readChatTemplateFile } from "./chatTemplate.js";
import { dateRenderParameters, DEFAULT_PINNED_DATE, pinTemplateDate } from "./chatDate.js";
import { ChatTemplateError } from "./errors.js";

export interface OnnxAdapterOptions {
  /** A transformers.js model folder: config.json, tokenizer.json, onnx/model.onnx. */
  modelDir: string;
}

interface ForwardOutput {
  logits: Tensor;
  [name: string]: Tensor;
}

class OnnxAdapter implements ModelAdapter {
  readonly provider = "transformers" as const;
  #disposed = false;

  constructor(
    readonly model: string,
    readonly accessLevel: AccessLevel,
    readonly fingerprint: string,
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly lm: PreTrainedModel,
    private readonly hiddenOutput: string | undefined,
    private readonly TensorClass: typeof Tensor,
  ) {}

  get disposed(): boolean {
    return this.#disposed;
  }

  #check(): void {
    if (this.#disposed) throw new AdapterDisposedError(this.model);
  }

  #encode(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false });
  }

  /** The tokenizer's own chat template (tokenizer_config.json), if any. */
  get #ownTemplate(): string | undefined {
    const t = (this.tokenizer as unknown as { chat_template?: unknown }).chat_template;
    return typeof t === "string" && t.length > 0 ? t : undefined;
  }

  get hasChatTemplate(): boolean {
    return this.#ownTemplate !== undefined;
  }

  /** transformers.js's apply_chat_template, with the generation prompt and the date pinned in the template's text. */
  async renderChat(messages: readonly ChatMessage[], options: ChatRenderOptions): Promise<RenderedChat> {
    this.#check();
    const template = typeof options.chatTemplate === "object" ? readChatTemplateFile(options.chatTemplate.file) : this.#ownTemplate;
    if (template === undefined) throw new ChatTemplateError(`${this.model} has no chat template (tokenizer_config.json); pass a template file`);
    const date = options.pinnedDate ?? DEFAULT_PINNED_DATE;
    const pinned = pinTemplateDate(template, date);
    try {
      const text = this.tokenizer.apply_chat_template(messages.map((m) => ({ ...m })), {
        chat_template: pinned, tokenize: false, add_generation_prompt: true, ...dateRenderParameters(date),
      } as Parameters<PreTrainedTokenizer["apply_chat_template"]>[1]) as unknown as string;
      return { text, wrapperName: "apply_chat_template", templateSource: `jinja:${pinned}\n\u0000${JSON.stringify(dateRenderParameters(date))}` };
    } catch (cause) {
      throw new ChatTemplateError(`The chat template does not render: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
    }
  }

  async countTokens(text: string): Promise<number> {
    return this.#encode(text).length;
  }

  /**
   * GPT-style models have no BOS of their own; <|endoftext|> starts a prompt so even "" has a predictor. A
   * rendered chat prompt is taken as transformers tokenizes one: its text alone, special tokens parsed.
   */
  #prompt(text: string, rendered = false): number[] {
    const tokens = this.#encode(text);
    if (rendered && tokens.length > 0) return tokens;
    const config = this.lm.config as { bos_token_id?: number; eos_token_id?: number };
    const start = config.bos_token_id ?? config.eos_token_id;
    return start === undefined ? tokens : [start, ...tokens];
  }

  async #forward(ids: number[]): Promise<ForwardOutput> {
    const input = new this.TensorClass("int64", BigInt64Array.from(ids.map((i) => BigInt(i))), [1, ids.length]);
    const mask = new this.TensorClass("int64", new BigInt64Array(ids.length).fill(1n), [1, ids.length]);
    try {
      return (await this.lm({ input_ids: input, attention_mask: mask })) as ForwardOutput;
    } catch (cause) {
      throw new AdapterError(`onnxruntime failed on ${this.model}: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
    }
  }

  /** Log-probabilities of tokens[k] for k ≥ from, from one forward pass. */
  async #scoreTokens(tokens: number[], from: number): Promise<number[]> {
    const out = await this.#forward(tokens);
    const [, , vocab] = out.logits.dims as [number, number, number];
    const data = out.logits.data as Float32Array;
    const result: number[] = [];
    for (let k = from; k < tokens.length; k++) result.push(logSoftmax(data, (k - 1) * vocab, vocab)[tokens[k]!]!);
    return result;
  }

  #path(prefix: string, continuation: string, rendered = false): { tokens: number[]; scoreFrom: number } {
    const head = this.#prompt(prefix, rendered);
    const joint = this.#prompt(prefix + continuation, rendered);
    const aligned = joint.length > head.length && head.every((t, i) => joint[i] === t);
    return { tokens: aligned ? joint : [...head, ...this.#encode(continuation)], scoreFrom: head.length };
  }

  async scoreContinuations(items: ScoreItem[], options: CallOptions = {}): Promise<number[][]> {
    this.#check();
    requireLevel(this.accessLevel, "L2", "scoring continuations");
    const out: number[][] = [];
    for (const item of items) {
      const row: number[] = [];
      for (const c of item.continuations) {
        options.signal?.throwIfAborted();
        const path = this.#path(item.prefix, c, item.rendered);
        row.push((await this.#scoreTokens(path.tokens, path.scoreFrom)).reduce((s, lp) => s + lp, 0));
      }
      out.push(row);
    }
    return out;
  }

  async firstTokenLogProbs(prefix: string, continuations: string[], options: CallOptions = {}): Promise<number[]> {
    this.#check();
    requireLevel(this.accessLevel, "L1", "first-token log-probabilities");
    options.signal?.throwIfAborted();
    const head = this.#prompt(prefix, options.rendered);
    const out = await this.#forward(head);
    const [, , vocab] = out.logits.dims as [number, number, number];
    const row = logSoftmax(out.logits.data as Float32Array, (head.length - 1) * vocab, vocab);
    return continuations.map((c) => {
      const path = this.#path(prefix, c, options.rendered);
      const first = path.tokens[path.scoreFrom];
      return first === undefined ? 0 : row[first]!;
    });
  }

  async sample(prompt: string, n: number, options: SampleOptions = {}): Promise<string[]> {
    this.#check();
    const { seed = 0, maxTokens = 32, temperature = 1, stop = [], signal } = options;
    const head = this.#prompt(prompt, options.rendered);
    const eos = (this.lm.config as { eos_token_id?: number }).eos_token_id;
    const samples: string[] = [];
    for (let i = 0; i < n; i++) {
      const rng = seededRng(sampleSeed(seed, i));
      const ids = [...head];
      let text = "";
      for (let step = 0; step < maxTokens; step++) {
        signal?.throwIfAborted();
        const out = await this.#forward(ids);
        const [, , vocab] = out.logits.dims as [number, number, number];
        const row = logSoftmax(out.logits.data as Float32Array, (ids.length - 1) * vocab, vocab);
        const token = drawToken([...row].map((lp, t) => [t, lp] as [number, number]), temperature, rng);
        if (token === eos) break;
        ids.push(token);
        const cut = cutAtStop(this.tokenizer.decode(ids.slice(head.length), { skip_special_tokens: true }), stop);
        text = cut.text;
        if (cut.stopped) break;
      }
      samples.push(text);
    }
    return samples;
  }

  /** The greedy answer, then each sample, one after the other (onnxGeneration.ts). */
  async generate(prompt: string, options: GenerateOptions = {}): Promise<GenerationResult> {
    this.#check();
    const s = generationSettings(options);
    requireGenerationLevel(this.accessLevel, s);
    return generateSequentially({
      nextLogProbs: async (ids) => {
        const out = await this.#forward(ids);
        const [, , vocab] = out.logits.dims as [number, number, number];
        return logSoftmax(out.logits.data as Float32Array, (ids.length - 1) * vocab, vocab);
      },
      decode: (ids) => this.tokenizer.decode([...ids], { skip_special_tokens: true }),
      piece: (id) => this.tokenizer.decode([id], { skip_special_tokens: false }),
      eos: (this.lm.config as { eos_token_id?: number }).eos_token_id,
      embed: (text) => this.#embed(text),
    }, this.#prompt(prompt, options.rendered), s, options.signal);
  }

  async hiddenState(text: string, options: CallOptions = {}): Promise<number[]> {
    this.#check();
    requireLevel(this.accessLevel, "L4", "hidden states");
    options.signal?.throwIfAborted();
    return this.#embed(text);
  }

  async #embed(text: string): Promise<number[]> {
    const out = await this.#forward(this.#prompt(text));
    const states = out[this.hiddenOutput!]!;
    const [, tokens, width] = states.dims as [number, number, number];
    const data = states.data as Float32Array;
    // Mean over tokens, matching the pooled vectors the llama.cpp adapter returns.
    const mean = new Array<number>(width).fill(0);
    for (let t = 0; t < tokens; t++) for (let d = 0; d < width; d++) mean[d]! += data[t * width + d]! / tokens;
    return mean;
  }

  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    await this.lm.dispose();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}

export async function createOnnxAdapter(options: OnnxAdapterOptions): Promise<ModelAdapter> {
  const dir = resolve(options.modelDir);
  const weights = join(dir, "onnx", "model.onnx");
  if (!existsSync(weights)) throw new ModelNotFoundError(`No onnx/model.onnx in ${dir}`);
  // Loaded on first use, so that importing the adapters does not load the ONNX runtime.
  const { AutoModelForCausalLM, AutoTokenizer, env, Tensor } = await import("@huggingface/transformers");
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = dirname(dir) + "/";
  const name = basename(dir);
  try {
    const tokenizer = await AutoTokenizer.from_pretrained(name);
    const lm = await AutoModelForCausalLM.from_pretrained(name, { dtype: "fp32" });
    const outputs: string[] = (lm as unknown as { sessions: Record<string, { outputNames: string[] }> }).sessions.model?.outputNames ?? [];
    const hiddenOutput = outputs.find((o) => o === "last_hidden_state") ?? outputs.find((o) => o.startsWith("hidden_states"));
    const files = [weights, join(dir, "tokenizer.json"), join(dir, "config.json")].filter((f) => existsSync(f));
    const fingerprint = await computeFingerprint(files, { provider: "transformers", dtype: "fp32" });
    return new OnnxAdapter(name, hiddenOutput ? "L4" : "L3", fingerprint, tokenizer, lm, hiddenOutput, Tensor);
  } catch (cause) {
    if (cause instanceof CalibkitError) throw cause;
    throw new AdapterError(`Could not load ${dir} with transformers.js: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
  }
}

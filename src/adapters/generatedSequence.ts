// What every engine that decodes token by token shares when it generates: the draw (greedy argmax, or a
// seeded sample within top-k and top-p), the per-token statistics of the full distribution, and the builder
// that turns drawn tokens into a GeneratedSequence cut before the first stop string.
import { requireLevel } from "./accessLevel.js";
import { drawFromLogProbs, drawToken, sampleSeed, seededRng } from "./seededSampler.js";
import type { AccessLevel } from "../api/index.js";
import type { GeneratedSequence, GenerateOptions } from "./types.js";

/** GenerateOptions with every default filled in (docs/adapters.md, "Generation"). */
export type GenerationSettings = Required<Omit<GenerateOptions, "signal" | "rendered" | "onUsage">>;

export function generationSettings(options: GenerateOptions): GenerationSettings {
  const s: GenerationSettings = {
    samples: options.samples ?? 0, temperature: options.temperature ?? 1, topP: options.topP ?? 1, topK: options.topK ?? 0,
    seed: options.seed ?? 0, maxTokens: options.maxTokens ?? 64, stop: options.stop ?? [], topLogprobs: options.topLogprobs ?? 0,
    fullDistribution: options.fullDistribution ?? false, embedding: options.embedding ?? false,
  };
  const bad = (field: string, why: string) => new RangeError(`generate: ${field} ${why}`);
  if (!Number.isInteger(s.samples) || s.samples < 0) throw bad("samples", `must be a whole number ≥ 0, not ${s.samples}`);
  if (!(s.temperature >= 0)) throw bad("temperature", `must be ≥ 0, not ${s.temperature}`);
  if (!(s.topP > 0 && s.topP <= 1)) throw bad("topP", `must be in (0, 1], not ${s.topP}`);
  if (!Number.isInteger(s.topK) || s.topK < 0) throw bad("topK", `must be a whole number ≥ 0, not ${s.topK}`);
  if (!Number.isInteger(s.maxTokens) || s.maxTokens < 1) throw bad("maxTokens", `must be a whole number ≥ 1, not ${s.maxTokens}`);
  if (!Number.isInteger(s.topLogprobs) || s.topLogprobs < 0) throw bad("topLogprobs", `must be a whole number ≥ 0, not ${s.topLogprobs}`);
  return s;
}

/** Refuses what the backend's level cannot give: alternatives need L1, full distributions L3, embeddings L4. */
export function requireGenerationLevel(level: AccessLevel, s: GenerationSettings): void {
  if (s.topLogprobs > 0) requireLevel(level, "L1", "top log-probabilities of generated tokens");
  if (s.fullDistribution) requireLevel(level, "L3", "full next-token distributions of generated tokens");
  if (s.embedding) requireLevel(level, "L4", "embeddings of generated answers");
}

/**
 * How sequence `index` picks its tokens from the next-token log-probabilities indexed by token id (-Infinity
 * where a token has no mass): 0 is the greedy answer, 1..K the samples, each seeded by its own index.
 */
export function tokenPicker(s: GenerationSettings, index: number): (logProbs: ArrayLike<number>) => number {
  if (index === 0 || s.temperature === 0) return argmax;
  const rng = seededRng(sampleSeed(s.seed, index - 1));
  if (s.topK === 0) return (logProbs) => drawFromLogProbs(logProbs, s.temperature, rng, s.topP);
  return (logProbs) => drawToken(topKPairs(presentPairs(logProbs), s.topK), s.temperature, rng, s.topP);
}

/** The most probable token, ties to the lower id (as drawToken at temperature 0). */
function argmax(logProbs: ArrayLike<number>): number {
  let best = -1;
  for (let t = 0; t < logProbs.length; t++) if (logProbs[t]! > -Infinity && (best < 0 || logProbs[t]! > logProbs[best]!)) best = t;
  if (best < 0) throw new Error("empty distribution");
  return best;
}

/** (token, logProb) pairs of the tokens with any mass. */
function presentPairs(logProbs: ArrayLike<number>): [number, number][] {
  const pairs: [number, number][] = [];
  for (let t = 0; t < logProbs.length; t++) if (logProbs[t]! > -Infinity) pairs.push([t, logProbs[t]!]);
  return pairs;
}

/** The k most probable (token, logProb) pairs, ties to the lower token id (top-k sampling, Fan et al. 2018). */
export function topKPairs(pairs: readonly [number, number][], k: number): [number, number][] {
  return [...pairs].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k);
}

/** Shannon entropy (nats) of a distribution given as log-probabilities. */
export function entropyOfLogProbs(logProbs: Iterable<number>): number {
  let h = 0;
  for (const lp of logProbs) if (lp > -Infinity) h -= Math.exp(lp) * lp;
  return h;
}

/** What the backend tells about one generated token. */
export interface TokenFacts {
  logProb?: number;
  top?: Record<string, number>;
  entropy?: number;
  distribution?: Float32Array;
}

/**
 * Collects drawn tokens into a GeneratedSequence. Pieces are differences of the decoded text, so their
 * concatenation is the text exactly; a stop string cuts the text, and the tokens wholly inside the stop (or
 * after it) are dropped with their statistics, while a token that begins before it is kept.
 */
export class SequenceBuilder {
  readonly ids: number[] = [];
  #pieces: string[] = [];
  #facts: TokenFacts[] = [];
  #full = "";
  #text = "";
  #finish: GeneratedSequence["finishReason"] | undefined;

  /** `provides` names the facts the backend gives for every token: exactly those fields are filled. */
  constructor(
    private readonly decode: (ids: readonly number[]) => string,
    private readonly stop: readonly string[],
    private readonly provides: ReadonlySet<keyof TokenFacts>,
  ) {}

  get done(): boolean {
    return this.#finish !== undefined;
  }

  /** Adds a drawn token; returns true once the sequence has ended (a stop string appeared). */
  push(id: number, facts: TokenFacts): boolean {
    this.ids.push(id);
    const full = this.decode(this.ids);
    this.#pieces.push(full.startsWith(this.#full) ? full.slice(this.#full.length) : full.slice(Math.min(this.#full.length, full.length)));
    this.#full = full;
    this.#facts.push(facts);
    const cut = this.#cut(full);
    this.#text = cut ?? full;
    if (cut !== undefined) this.#finish = "stop";
    return this.done;
  }

  #cut(text: string): string | undefined {
    let at = -1;
    for (const s of this.stop) {
      const i = s.length > 0 ? text.indexOf(s) : -1;
      if (i >= 0 && (at < 0 || i < at)) at = i;
    }
    return at < 0 ? undefined : text.slice(0, at);
  }

  end(reason: "eos" | "length"): void {
    this.#finish ??= reason;
  }

  /** The sequence, with the statistics the backend gave (a field is left out where no token had it). */
  get text(): string {
    return this.#text;
  }

  build(embedding?: number[]): GeneratedSequence {
    let kept = 0;
    for (let start = 0; kept < this.#pieces.length && start < this.#text.length; kept++) start += this.#pieces[kept]!.length;
    const facts = this.#facts.slice(0, kept);
    const out: GeneratedSequence = {
      text: this.#text, tokens: this.#pieces.slice(0, kept), tokenIds: this.ids.slice(0, kept), finishReason: this.#finish ?? "length",
    };
    const has = (key: keyof TokenFacts) => this.provides.has(key);
    if (has("logProb")) out.logProbs = facts.map((f) => f.logProb!);
    if (has("top")) out.topLogProbs = facts.map((f) => f.top!);
    if (has("entropy")) out.entropies = facts.map((f) => f.entropy!);
    if (has("distribution")) out.distributions = facts.map((f) => f.distribution!);
    if (embedding) out.embedding = embedding;
    return out;
  }
}

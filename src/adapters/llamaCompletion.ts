// One OpenAI-style completion on node-llama-cpp with per-token log-probabilities, for `calibkit serve-model`:
// optional echo of the prompt with its token log-probabilities (as vLLM and llama.cpp's server do), then
// seeded generation recording each chosen token's log-probability and the top-k alternatives.
import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { cutAtStop, drawToken, seededRng } from "./seededSampler.js";

export interface CompletionOptions {
  /** Most tokens to generate. Default 16. */
  maxTokens?: number;
  /** Softmax temperature; 0 is greedy. Default 1. */
  temperature?: number;
  /** Nucleus mass, in (0, 1]. Default 1 (every token). */
  topP?: number;
  /** Seed of our sampler. Default 0. */
  seed?: number;
  /** How many alternatives to report per position; 0 reports none. */
  topLogprobs?: number;
  echo?: boolean;
  stop?: string[];
  /** OpenAI's penalties, subtracted from a token's logit per use (frequency) and once used (presence). Default 0. */
  frequencyPenalty?: number;
  presencePenalty?: number;
  /** Token id → value added to its logit. */
  logitBias?: ReadonlyMap<number, number>;
  /** Keep generating past the end-of-sequence token. Default false. */
  ignoreEos?: boolean;
  /** Called once the prompt is evaluated, with its echoed tokens (empty without `echo`). */
  onPrompt?: (promptTokens: CompletionToken[]) => void;
  /** Called after each generated token with the text so far (already cut at a stop string). */
  onToken?: (token: CompletionToken, textSoFar: string) => void;
  signal?: AbortSignal;
}

export interface TopToken {
  text: string;
  logprob: number;
}

export interface CompletionToken {
  text: string;
  /** null for the first prompt token, which has no predictor. */
  logprob: number | null;
  /** Most probable alternatives first; null when none were asked for or the position has no predictor. */
  top: TopToken[] | null;
}

export interface CompletionResult {
  text: string;
  promptTokens: CompletionToken[];
  tokens: CompletionToken[];
  finishReason: "stop" | "length";
}

function topOf(model: LlamaModel, probs: Map<Token, number> | undefined, k: number, before: Token[]): TopToken[] | null {
  if (!probs || k <= 0) return null;
  const top: TopToken[] = [];
  // The map is sorted by probability, highest first (node-llama-cpp's contract).
  for (const [t, p] of probs) {
    if (top.length >= k) break;
    // Detokenised after the tokens before it, so a word keeps its leading space.
    top.push({ text: model.detokenize([t], false, before), logprob: Math.log(p) });
  }
  return top;
}

function logOf(probs: Map<Token, number> | undefined, t: Token): number {
  const p = probs?.get(t) ?? 0;
  return p > 0 ? Math.log(p) : -1e4;
}

/** The distribution the sampler draws from: log-probabilities with bias and penalties added. */
function adjusted(probs: Map<Token, number> | undefined, counts: Map<Token, number>, options: CompletionOptions): [number, number][] {
  const { frequencyPenalty = 0, presencePenalty = 0, logitBias } = options;
  const pairs: [number, number][] = [];
  if (!probs) return pairs;
  const plain = frequencyPenalty === 0 && presencePenalty === 0 && !logitBias?.size;
  for (const [t, p] of probs) {
    if (p <= 0) continue;
    let lp = Math.log(p);
    if (!plain) {
      const used = counts.get(t) ?? 0;
      lp += (logitBias?.get(t) ?? 0) - used * frequencyPenalty - (used > 0 ? presencePenalty : 0);
    }
    pairs.push([t, lp]);
  }
  return pairs;
}

export async function completeOnSequence(
  model: LlamaModel, seq: LlamaContextSequence, promptTokens: Token[], withBos: boolean, options: CompletionOptions,
): Promise<CompletionResult> {
  const { maxTokens = 16, temperature = 1, topP = 1, seed = 0, topLogprobs = 0, echo = false, stop = [], signal } = options;
  await seq.clearHistory();
  signal?.throwIfAborted();
  const input = promptTokens.map((t, i) =>
    echo || i === promptTokens.length - 1 ? ([t, { generateNext: { probabilities: true } }] as const) : t);
  const output = await seq.controlledEvaluate(input as Parameters<LlamaContextSequence["controlledEvaluate"]>[0]);
  const shown = promptTokens.slice(withBos ? 1 : 0);
  const promptOut: CompletionToken[] = [];
  if (echo) {
    for (let i = withBos ? 1 : 0; i < promptTokens.length; i++) {
      const prev = i > 0 ? output[i - 1]?.next.probabilities : undefined;
      const before = promptTokens.slice(withBos ? 1 : 0, i);
      promptOut.push({
        text: model.detokenize([promptTokens[i]!], false, before),
        logprob: prev ? logOf(prev, promptTokens[i]!) : null,
        top: prev ? topOf(model, prev, topLogprobs, before) : null,
      });
    }
  }
  options.onPrompt?.(promptOut);
  const rng = seededRng(seed);
  let probs = output[promptTokens.length - 1]?.next.probabilities;
  const generated: Token[] = [];
  const counts = new Map<Token, number>();
  const tokens: CompletionToken[] = [];
  let text = "";
  let finishReason: "stop" | "length" = "length";
  for (let step = 0; step < maxTokens; step++) {
    signal?.throwIfAborted();
    const token = drawToken(adjusted(probs, counts, options), temperature, rng, topP) as Token;
    if (model.isEogToken(token) && !options.ignoreEos) {
      finishReason = "stop";
      break;
    }
    const before = [...shown, ...generated];
    const chosen: CompletionToken = { text: model.detokenize([token], false, before), logprob: logOf(probs, token), top: topOf(model, probs, topLogprobs, before) };
    tokens.push(chosen);
    generated.push(token);
    counts.set(token, (counts.get(token) ?? 0) + 1);
    const cut = cutAtStop(model.detokenize(generated), stop);
    text = cut.text;
    options.onToken?.(chosen, text);
    if (cut.stopped) {
      finishReason = "stop";
      break;
    }
    if (step + 1 < maxTokens) {
      const next = await seq.controlledEvaluate([[token, { generateNext: { probabilities: true } }]]);
      probs = next[0]?.next.probabilities;
    }
  }
  return { text, promptTokens: promptOut, tokens, finishReason };
}

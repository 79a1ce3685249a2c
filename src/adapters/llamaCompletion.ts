// One OpenAI-style completion on node-llama-cpp with per-token log-probabilities, for `calibkit serve-model`:
// optional echo of the prompt with its token log-probabilities (as vLLM and llama.cpp's server do), then
// seeded generation recording each chosen token's log-probability and the top-k alternatives.
import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { cutAtStop, drawToken, seededRng } from "./seededSampler.js";

export interface CompletionOptions {
  maxTokens?: number;
  temperature?: number;
  seed?: number;
  /** How many alternatives to report per position; 0 reports none. */
  topLogprobs?: number;
  echo?: boolean;
  stop?: string[];
  signal?: AbortSignal;
}

export interface CompletionToken {
  text: string;
  /** null for the first prompt token, which has no predictor. */
  logprob: number | null;
  top: Record<string, number> | null;
}

export interface CompletionResult {
  text: string;
  promptTokens: CompletionToken[];
  tokens: CompletionToken[];
  finishReason: "stop" | "length";
}

function topOf(model: LlamaModel, probs: Map<Token, number> | undefined, k: number, before: Token[]): Record<string, number> | null {
  if (!probs || k <= 0) return null;
  const top: Record<string, number> = {};
  let taken = 0;
  // The map is sorted by probability, highest first (node-llama-cpp's contract).
  for (const [t, p] of probs) {
    if (taken >= k) break;
    // Detokenised after the tokens before it, so a word keeps its leading space.
    const text = model.detokenize([t], false, before);
    if (!(text in top)) top[text] = Math.log(p);
    taken++;
  }
  return top;
}

function logOf(probs: Map<Token, number> | undefined, t: Token): number {
  const p = probs?.get(t) ?? 0;
  return p > 0 ? Math.log(p) : -1e4;
}

export async function completeOnSequence(
  model: LlamaModel, seq: LlamaContextSequence, promptTokens: Token[], withBos: boolean, options: CompletionOptions,
): Promise<CompletionResult> {
  const { maxTokens = 16, temperature = 1, seed = 0, topLogprobs = 0, echo = false, stop = [], signal } = options;
  await seq.clearHistory();
  const input = promptTokens.map((t, i) =>
    echo || i === promptTokens.length - 1 ? ([t, { generateNext: { probabilities: true } }] as const) : t);
  const output = await seq.controlledEvaluate(input as Parameters<LlamaContextSequence["controlledEvaluate"]>[0]);
  const promptOut: CompletionToken[] = [];
  if (echo) {
    for (let i = withBos ? 1 : 0; i < promptTokens.length; i++) {
      const prev = i > 0 ? output[i - 1]?.next.probabilities : undefined;
      promptOut.push({
        text: model.detokenize([promptTokens[i]!], false, promptTokens.slice(withBos ? 1 : 0, i)),
        logprob: prev ? logOf(prev, promptTokens[i]!) : null,
        top: prev ? topOf(model, prev, topLogprobs, promptTokens.slice(withBos ? 1 : 0, i)) : null,
      });
    }
  }
  const rng = seededRng(seed);
  let probs = output[promptTokens.length - 1]?.next.probabilities;
  const generated: Token[] = [];
  const tokens: CompletionToken[] = [];
  let text = "";
  let finishReason: "stop" | "length" = "length";
  for (let step = 0; step < maxTokens; step++) {
    signal?.throwIfAborted();
    const pairs: [number, number][] = probs ? [...probs].filter(([, p]) => p > 0).map(([t, p]) => [t, Math.log(p)]) : [];
    const token = drawToken(pairs, temperature, rng) as Token;
    if (model.isEogToken(token)) {
      finishReason = "stop";
      break;
    }
    const before = [...promptTokens.slice(withBos ? 1 : 0), ...generated];
    tokens.push({ text: model.detokenize([token], false, before), logprob: logOf(probs, token), top: topOf(model, probs, topLogprobs, before) });
    generated.push(token);
    const cut = cutAtStop(model.detokenize(generated), stop);
    text = cut.text;
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

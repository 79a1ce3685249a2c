// One OpenAI-style completion on node-llama-cpp with per-token log-probabilities, for `calibkit serve-model`:
// optional echo of the prompt with its token log-probabilities (as vLLM and llama.cpp's server do), then
// seeded generation recording each chosen token's log-probability and the top-k alternatives.
import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { cutAtStop, drawToken, seededRng } from "./seededSampler.js";
import { recentTokens, TokenPieces } from "./tokenPieces.js";

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
  /** The generated text: its tokens' pieces joined, cut before a stop string. */
  text: string;
  /** With `echo`: one entry per prompt token, BOS included; the first has no log-probability. */
  promptTokens: CompletionToken[];
  tokens: CompletionToken[];
  /** The end-of-sequence token that ended the completion (its text is ""); null otherwise. */
  stopToken: CompletionToken | null;
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
  // A leading BOS is echoed like any token (lm-eval reads `token_logprobs[ctxlen:-1]`, counting it), but its
  // text is "" and the text after it is decoded as if it were not there, so the echo joins to the prompt's text.
  const start = withBos ? 1 : 0;
  const pieces = new TokenPieces(model, echo ? [] : promptTokens.slice(start));
  const promptOut: CompletionToken[] = [];
  if (echo) {
    for (let i = 0; i < promptTokens.length; i++) {
      const prev = i > 0 ? output[i - 1]?.next.probabilities : undefined;
      const before = recentTokens(promptTokens, i, start);
      promptOut.push({
        text: i < start ? "" : pieces.push(promptTokens[i]!),
        logprob: prev ? logOf(prev, promptTokens[i]!) : null,
        top: prev ? topOf(model, prev, topLogprobs, before) : null,
      });
    }
    const held = pieces.flush();
    if (held !== "") promptOut[promptOut.length - 1]!.text += held;
  }
  options.onPrompt?.(promptOut);
  const rng = seededRng(seed);
  let probs = output[promptTokens.length - 1]?.next.probabilities;
  const shown = promptTokens.slice(start);
  const counts = new Map<Token, number>();
  const tokens: CompletionToken[] = [];
  let raw = "";
  let text = "";
  let stopToken: CompletionToken | null = null;
  let finishReason: "stop" | "length" = "length";
  for (let step = 0; step < maxTokens; step++) {
    signal?.throwIfAborted();
    const token = drawToken(adjusted(probs, counts, options), temperature, rng, topP) as Token;
    const top = topOf(model, probs, topLogprobs, recentTokens(shown, shown.length));
    if (model.isEogToken(token) && !options.ignoreEos) {
      // Reported with the log-probabilities (as vLLM does), so `max_tokens: 1` always yields one entry.
      stopToken = { text: "", logprob: logOf(probs, token), top };
      finishReason = "stop";
      break;
    }
    const chosen: CompletionToken = { text: pieces.push(token), logprob: logOf(probs, token), top };
    tokens.push(chosen);
    shown.push(token);
    counts.set(token, (counts.get(token) ?? 0) + 1);
    raw += chosen.text;
    const cut = cutAtStop(raw, stop);
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
  const held = pieces.flush();
  if (held !== "" && tokens.length > 0) {
    // An unfinished character at the end belongs to the last token, as its bytes do.
    tokens[tokens.length - 1]!.text += held;
    text = cutAtStop(raw + held, stop).text;
  }
  return { text, promptTokens: promptOut, tokens, stopToken, finishReason };
}

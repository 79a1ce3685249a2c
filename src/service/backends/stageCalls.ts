// What one call of a cascade stage computes from its adapter, kept apart from the request bookkeeping so that
// a client (calibkit run) computing a stage's calibration evidence gets exactly the service's numbers.
import type { ModelAdapter } from "../../adapters/index.js";
import { levelRank } from "../../api/index.js";

/** Tokens the server reports over a stage call's requests; undefined when it reported none. */
class UsageTally {
  tokens: number | undefined;
  readonly onUsage = (u: { promptTokens: number; completionTokens: number }) => {
    this.tokens = (this.tokens ?? 0) + u.promptTokens + u.completionTokens;
  };
}

/** Samples per L0 judgement or confidence. */
export const L0_SAMPLES = 8;

/** Normalised probabilities from log-probabilities. */
function softmax(logits: readonly number[]): Float64Array {
  const max = Math.max(...logits);
  const out = Float64Array.from(logits, (l) => Math.exp(l - max));
  const sum = out.reduce((s, v) => s + v, 0);
  for (let i = 0; i < out.length; i++) out[i]! /= sum;
  return out;
}

/**
 * p(candidate) for a judge stage: first-token log-probabilities of " <name>" at L1+, else sample frequencies
 * with add-one smoothing (every candidate stays possible when no sample names it). `sampled` is the text
 * sampled (for token counts), empty at L1+.
 */
export async function stageJudgement(adapter: ModelAdapter, prompt: string, candidates: readonly string[]): Promise<{ probabilities: Float64Array; sampled: string; tokens: number | undefined }> {
  const tally = new UsageTally();
  if (levelRank(adapter.accessLevel) >= 1) {
    const logps = await adapter.firstTokenLogProbs(prompt, candidates.map((c) => ` ${c}`), { onUsage: tally.onUsage });
    return { probabilities: softmax(logps), sampled: "", tokens: tally.tokens };
  }
  const samples = await adapter.sample(prompt, L0_SAMPLES, { seed: 0, maxTokens: 8, onUsage: tally.onUsage });
  const counts = candidates.map((c) => 1 + samples.filter((s) => s.trim().toLowerCase().startsWith(c.toLowerCase())).length);
  const total = counts.reduce((s, v) => s + v, 0);
  return { probabilities: Float64Array.from(counts, (v) => v / total), sampled: samples.join(""), tokens: tally.tokens };
}

/**
 * A route stage's greedy output and its confidence: the probability of the output's first token at L1+, the
 * agreement of 8 samples at L0, 0 for an empty output. `calls` counts the adapter calls made.
 */
export async function stageGeneration(adapter: ModelAdapter, prompt: string, maxTokens: number | undefined): Promise<{ output: string; confidence: number; calls: number; sampled: string; tokens: number | undefined }> {
  const tally = new UsageTally();
  const [output = ""] = await adapter.sample(prompt, 1, { seed: 0, temperature: 0, onUsage: tally.onUsage, ...(maxTokens !== undefined ? { maxTokens } : {}) });
  if (output.trim() === "") return { output, confidence: 0, calls: 1, sampled: "", tokens: tally.tokens };
  if (levelRank(adapter.accessLevel) >= 1) {
    const [logp] = await adapter.firstTokenLogProbs(prompt, [output], { onUsage: tally.onUsage });
    return { output, confidence: Math.exp(logp ?? -Infinity), calls: 2, sampled: "", tokens: tally.tokens };
  }
  const samples = await adapter.sample(prompt, L0_SAMPLES, { seed: 1, onUsage: tally.onUsage, ...(maxTokens !== undefined ? { maxTokens } : {}) });
  return { output, confidence: samples.filter((s) => s.trim() === output.trim()).length / samples.length, calls: 2, sampled: samples.join(""), tokens: tally.tokens };
}

const normalise = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");
/** Whether a route stage's output counts as the reference answer: it starts with it, case and spacing aside. */
export const matchesReference = (output: string, reference: string): boolean => normalise(output).startsWith(normalise(reference));

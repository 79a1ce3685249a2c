// Generation for engines without KV reuse (transformers.js): each step is one forward pass over the prompt and
// the answer so far, and the greedy answer and the samples are decoded one after the other.
import {
  entropyOfLogProbs, SequenceBuilder, tokenPicker, type GenerationSettings, type TokenFacts,
} from "./generatedSequence.js";
import type { GeneratedSequence, GenerationResult } from "./types.js";

export interface StepEngine {
  /** Log-probabilities of the next token after `ids`, over the whole vocabulary. */
  nextLogProbs(ids: number[]): Promise<Float64Array>;
  decode(ids: readonly number[]): string;
  /** One token's text, for the top alternatives. */
  piece(id: number): string;
  eos: number | undefined;
  embed(text: string): Promise<number[]>;
}

/** The k most likely tokens as {piece: log-probability}, in one pass (a vocabulary of 50k is never sorted per token). */
function topOf(engine: StepEngine, row: Float64Array, k: number): Record<string, number> {
  const order: number[] = [];
  for (let t = 0; t < row.length; t++) {
    if (order.length === k && row[t]! <= row[order[k - 1]!]!) continue;
    if (order.length === k) order.pop();
    let at = order.length;
    while (at > 0 && row[order[at - 1]!]! < row[t]!) at--;
    order.splice(at, 0, t);
  }
  const top: Record<string, number> = {};
  // Two tokens with one piece keep the likelier.
  for (const t of order) {
    const piece = engine.piece(t);
    if (!(piece in top)) top[piece] = row[t]!;
  }
  return top;
}

export async function generateSequentially(
  engine: StepEngine, head: readonly number[], s: GenerationSettings, signal?: AbortSignal,
): Promise<GenerationResult> {
  const provides = new Set<keyof TokenFacts>(["logProb", "entropy"]);
  if (s.topLogprobs > 0) provides.add("top");
  if (s.fullDistribution) provides.add("distribution");
  const out: GeneratedSequence[] = [];
  for (let index = 0; index <= s.samples; index++) {
    const pick = tokenPicker(s, index);
    const b = new SequenceBuilder(engine.decode, s.stop, provides);
    for (let step = 0; step < s.maxTokens && !b.done; step++) {
      signal?.throwIfAborted();
      const row = await engine.nextLogProbs([...head, ...b.ids]);
      const token = pick(row);
      if (token === engine.eos) {
        b.end("eos");
        break;
      }
      const facts: TokenFacts = { logProb: row[token]!, entropy: entropyOfLogProbs(row) };
      if (s.topLogprobs > 0) facts.top = topOf(engine, row, s.topLogprobs);
      if (s.fullDistribution) facts.distribution = Float32Array.from(row);
      b.push(token, facts);
    }
    b.end("length");
    out.push(b.build(s.embedding ? await engine.embed(b.text) : undefined));
  }
  return { greedy: out[0]!, samples: out.slice(1) };
}

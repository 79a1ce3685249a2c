// Generation on node-llama-cpp: the prompt is evaluated once on the root sequence, the greedy answer and the K
// samples each continue on their own copy of its KV state (llama_memory_seq_cp), and every live sequence
// advances one token per step in one batch (node-llama-cpp batches the evaluations pending at once).
import type { LlamaContextSequence, LlamaModel, Token } from "node-llama-cpp";
import { alignRoot, copyPrefix, type ScorerSequences } from "./llamaPrefixScorer.js";
import {
  SequenceBuilder, tokenPicker, type GenerationSettings, type TokenFacts,
} from "./generatedSequence.js";
import type { GenerationResult } from "./types.js";

export interface LlamaGenerationContext {
  model: LlamaModel;
  seqs: ScorerSequences;
  /** Token ids run from 0 to this (the size of a full distribution); else the distribution's own size. */
  vocabularySize: number | undefined;
  /** L4: an embedding of an answer's text. */
  embed?: (text: string) => Promise<number[]>;
}

/** Tokens of the prompt's end given to the detokenizer, so a first piece keeps its leading space. */
const CONTEXT_TOKENS = 8;

/**
 * Writes the distribution's log-probabilities into `into` by token id (-Infinity where a token has no mass) and
 * returns its entropy, in one pass over node-llama-cpp's Map (in its order, so the sum is always the same).
 */
function readDistribution(probs: Map<Token, number>, into: Float64Array): number {
  into.fill(-Infinity);
  let entropy = 0;
  for (const [t, p] of probs) {
    if (!(p > 0)) continue;
    const lp = Math.log(p);
    into[t] = lp;
    entropy -= p * lp;
  }
  return entropy;
}

function factsOf(
  ctx: LlamaGenerationContext, probs: Map<Token, number>, logProbs: Float64Array, entropy: number, token: Token, s: GenerationSettings,
  before: () => Token[],
): TokenFacts {
  const facts: TokenFacts = { logProb: logProbs[token] ?? -Infinity, entropy };
  if (s.topLogprobs > 0) {
    const top: Record<string, number> = {};
    const context = before();
    let n = 0;
    // The map is sorted by probability, highest first; two tokens with the same piece keep the likelier.
    for (const [t, q] of probs) {
      if (n++ >= s.topLogprobs) break;
      const piece = ctx.model.detokenize([t], false, context);
      if (!(piece in top)) top[piece] = Math.log(q);
    }
    facts.top = top;
  }
  if (s.fullDistribution) facts.distribution = Float32Array.from(logProbs);
  return facts;
}

/** Greedy answer (index 0) and `samples` samples of `promptTokens`, in waves of as many sequences as there are workers. */
export async function generateOnRoot(
  ctx: LlamaGenerationContext, promptTokens: Token[], s: GenerationSettings, signal?: AbortSignal,
): Promise<GenerationResult> {
  const head = promptTokens.slice(0, -1);
  const last = promptTokens[promptTokens.length - 1]!;
  const tail = head.slice(-CONTEXT_TOKENS);
  const provides = new Set<keyof TokenFacts>(["logProb", "entropy"]);
  if (s.topLogprobs > 0) provides.add("top");
  if (s.fullDistribution) provides.add("distribution");
  await alignRoot(ctx.seqs.root, head);
  const total = s.samples + 1;
  const built: SequenceBuilder[] = [];
  for (let from = 0; from < total; from += ctx.seqs.workers.length) {
    const wave = ctx.seqs.workers.slice(0, Math.min(ctx.seqs.workers.length, total - from));
    await Promise.all(wave.map((seq) => copyPrefix(seq, ctx.seqs.root, head.length)));
    built.push(...(await decodeWave(ctx, wave, from, last, tail, s, provides, signal)));
  }
  const sequences = await Promise.all(built.map(async (b) =>
    b.build(s.embedding && ctx.embed ? await ctx.embed(b.text) : undefined)));
  return { greedy: sequences[0]!, samples: sequences.slice(1) };
}

async function decodeWave(
  ctx: LlamaGenerationContext, wave: LlamaContextSequence[], from: number, last: Token, tail: Token[],
  s: GenerationSettings, provides: ReadonlySet<keyof TokenFacts>, signal?: AbortSignal,
): Promise<SequenceBuilder[]> {
  const decode = (ids: readonly number[]) => ctx.model.detokenize(ids as Token[], false, tail);
  const builders = wave.map(() => new SequenceBuilder(decode, s.stop, provides));
  const pickers = wave.map((_, i) => tokenPicker(s, from + i));
  const next: Token[] = wave.map(() => last);
  // One row reused for every token: what a token keeps of it is copied out (its log-probability, a distribution).
  // The Map holds the whole vocabulary, so its size is the row's where the GGUF file lists none.
  let logProbs: Float64Array | undefined;
  for (let step = 0; step < s.maxTokens; step++) {
    signal?.throwIfAborted();
    const live = wave.map((_, i) => i).filter((i) => !builders[i]!.done);
    if (live.length === 0) break;
    const outputs = await Promise.all(live.map((i) =>
      wave[i]!.controlledEvaluate([[next[i]!, { generateNext: { probabilities: true } }]])));
    live.forEach((i, k) => {
      const probs = outputs[k]![0]?.next.probabilities ?? new Map<Token, number>();
      logProbs ??= new Float64Array(Math.max(ctx.vocabularySize ?? 0, probs.size));
      const entropy = readDistribution(probs, logProbs);
      const token = pickers[i]!(logProbs) as Token;
      const b = builders[i]!;
      if (ctx.model.isEogToken(token)) return b.end("eos");
      b.push(token, factsOf(ctx, probs, logProbs, entropy, token, s, () => [...tail, ...(b.ids as Token[])]));
      next[i] = token;
    });
  }
  builders.forEach((b) => b.end("length"));
  return builders;
}

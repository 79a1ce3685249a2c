// L0 sampling on node-llama-cpp with our seeded sampler: the prompt is evaluated once, each sample runs on
// its own copy of it, and all samples advance together one token per batch.
import type { LlamaModel, Token } from "node-llama-cpp";
import { alignRoot, copyPrefix, type ScorerSequences } from "./llamaPrefixScorer.js";
import { cutAtStop, drawFromLogProbs, sampleSeed, seededRng } from "./seededSampler.js";
import { TokenPieces, withoutBos } from "./tokenPieces.js";
import type { SampleOptions } from "./types.js";

export async function sampleFromRoot(
  model: LlamaModel, seqs: ScorerSequences, promptTokens: Token[], n: number, options: SampleOptions,
): Promise<string[]> {
  const { seed = 0, maxTokens = 32, temperature = 1, stop = [], signal } = options;
  const head = promptTokens.slice(0, -1);
  const last = promptTokens[promptTokens.length - 1]!;
  await alignRoot(seqs.root, head);
  const out: string[] = [];
  for (let from = 0; from < n; from += seqs.workers.length) {
    const count = Math.min(seqs.workers.length, n - from);
    const wave = seqs.workers.slice(0, count);
    await Promise.all(wave.map((seq) => copyPrefix(seq, seqs.root, head.length)));
    const rngs = wave.map((_, i) => seededRng(sampleSeed(seed, from + i)));
    // Each sample's text is its tokens' pieces after the prompt, so a first word keeps its leading space.
    const context = withoutBos(model, promptTokens);
    const pieces = wave.map(() => new TokenPieces(model, context));
    const raw = wave.map(() => "");
    const done = wave.map(() => false);
    const next: Token[] = wave.map(() => last);
    // The distribution by token id (node-llama-cpp's Map holds the whole vocabulary), reused for every token.
    let row: Float64Array | undefined;
    for (let step = 0; step < maxTokens && done.includes(false); step++) {
      signal?.throwIfAborted();
      const active = wave.map((_, i) => i).filter((i) => !done[i]);
      const results = await Promise.all(active.map((i) =>
        wave[i]!.controlledEvaluate([[next[i]!, { generateNext: { probabilities: true } }]])));
      active.forEach((i, k) => {
        const probs = results[k]![0]?.next.probabilities ?? new Map<Token, number>();
        row ??= new Float64Array(Math.max(0, ...probs.keys()) + 1);
        row.fill(-Infinity);
        for (const [t, p] of probs) if (p > 0) row[t] = Math.log(p);
        const token = drawFromLogProbs(row, temperature, rngs[i]!) as Token;
        if (model.isEogToken(token)) {
          done[i] = true;
          return;
        }
        next[i] = token;
        raw[i] += pieces[i]!.push(token);
        if (cutAtStop(raw[i]!, stop).stopped) done[i] = true;
      });
    }
    // An unfinished character at the end is kept, as the text of all the tokens has it.
    out.push(...raw.map((r, i) => cutAtStop(r + pieces[i]!.flush(), stop).text));
  }
  return out;
}

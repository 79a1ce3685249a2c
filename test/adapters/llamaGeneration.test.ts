// generate() on the real stories260K.gguf: the greedy answer and K samples decoded together on copies of the
// prompt's KV state, checked against the sequential decode, a rescoring of the tokens, and their own stops.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLlamaCppAdapter, defaultModelsDir, logSumExp, type LlamaCppModelAdapter } from "../../src/adapters/index.js";

const PROMPT = "Once upon a time, there was a little girl named Lily. She";
const MODEL = join(defaultModelsDir(), "stories260K.gguf");
let adapter: LlamaCppModelAdapter;
let narrow: LlamaCppModelAdapter;

beforeAll(async () => {
  adapter = await createLlamaCppAdapter({ modelPath: MODEL, gpu: false });
  // Three sequences: 1 + 7 answers run in three waves.
  narrow = await createLlamaCppAdapter({ modelPath: MODEL, gpu: false, parallelSequences: 3, embeddings: false });
});
afterAll(async () => {
  await adapter.dispose();
  await narrow.dispose();
});

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);

describe("generate on llama.cpp (stories260K)", () => {
  it("is deterministic for a seed, differs across seeds, and a sample does not depend on K", async () => {
    const a = await adapter.generate(PROMPT, { samples: 6, seed: 5, maxTokens: 24 });
    expect(a.samples).toHaveLength(6);
    expect(await adapter.generate(PROMPT, { samples: 6, seed: 5, maxTokens: 24 })).toEqual(a);
    const b = await adapter.generate(PROMPT, { samples: 6, seed: 6, maxTokens: 24 });
    expect(b.samples.map((s) => s.text)).not.toEqual(a.samples.map((s) => s.text));
    const fewer = await adapter.generate(PROMPT, { samples: 3, seed: 5, maxTokens: 24 });
    expect(fewer.samples.map((s) => s.text)).toEqual(a.samples.slice(0, 3).map((s) => s.text));
    // Samples differ among themselves (temperature 1 on a model with real uncertainty).
    expect(new Set(a.samples.map((s) => s.text)).size).toBeGreaterThan(1);
  });

  it("the greedy answer equals the sequential greedy decode, token for token, with its log-probabilities", async () => {
    const together = await adapter.generate(PROMPT, { samples: 10, seed: 1, maxTokens: 30 });
    const sequential = await adapter.complete(PROMPT, { temperature: 0, maxTokens: 30 });
    expect(together.greedy.tokens).toEqual(sequential.tokens.map((t) => t.text));
    // One sequence and eleven in a batch take different matrix kernels: values agree to float32 rounding.
    together.greedy.logProbs!.forEach((lp, i) => expect(Math.abs(lp - sequential.tokens[i]!.logprob!)).toBeLessThan(1e-3));
    const alone = (await adapter.generate(PROMPT, { samples: 0, maxTokens: 30 })).greedy;
    expect(alone.tokenIds).toEqual(together.greedy.tokenIds);
    alone.logProbs!.forEach((lp, i) => expect(Math.abs(lp - together.greedy.logProbs![i]!)).toBeLessThan(1e-3));
  });

  it("waves of fewer sequences give the same answers as one wave", async () => {
    const wide = await adapter.generate(PROMPT, { samples: 7, seed: 2, maxTokens: 16 });
    const waves = await narrow.generate(PROMPT, { samples: 7, seed: 2, maxTokens: 16 });
    expect(waves.greedy.text).toBe(wide.greedy.text);
    expect(waves.samples.map((s) => s.text)).toEqual(wide.samples.map((s) => s.text));
  });

  it("a sample's log-probabilities equal a rescoring of its tokens within 1e-4", async () => {
    const r = await adapter.generate(PROMPT, { samples: 12, seed: 9, maxTokens: 20, temperature: 1.2 });
    const promptIds = adapter.tokenizePrompt(PROMPT);
    let compared = 0;
    for (const s of [r.greedy, ...r.samples]) {
      expect(s.logProbs).toHaveLength(s.tokens.length);
      expect(s.tokenIds).toHaveLength(s.tokens.length);
      expect(s.tokens.join("")).toBe(s.text);
      // Rescoring goes through the text, so it applies where the text tokenizes back to the same tokens.
      if (adapter.tokenizePrompt(PROMPT + s.text).join() !== [...promptIds, ...s.tokenIds!].join()) continue;
      const [[rescored]] = (await adapter.scoreContinuations([{ prefix: PROMPT, continuations: [s.text] }])) as [[number]];
      expect(Math.abs(sum(s.logProbs!) - rescored)).toBeLessThan(1e-4);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(7);
  });

  it("stops: the text is the unstopped answer cut before the first stop, the stop's tokens dropped", async () => {
    const free = await adapter.generate(PROMPT, { samples: 8, seed: 4, maxTokens: 40 });
    const stopped = await adapter.generate(PROMPT, { samples: 8, seed: 4, maxTokens: 40, stop: [".", "\n"] });
    let cut = 0;
    [free.greedy, ...free.samples].forEach((f, i) => {
      const s = i === 0 ? stopped.greedy : stopped.samples[i - 1]!;
      const at = Math.min(...[".", "\n"].map((x) => f.text.indexOf(x)).filter((x) => x >= 0));
      if (!Number.isFinite(at)) return expect(s.text).toBe(f.text);
      cut++;
      expect(s.text).toBe(f.text.slice(0, at));
      expect(s.finishReason).toBe("stop");
      expect(s.text).not.toMatch(/[.\n]/);
      expect(s.tokens.join("").startsWith(s.text)).toBe(true);
      expect(s.tokens.slice(0, -1).join("").length).toBeLessThan(Math.max(1, s.text.length));
      // Batches shrink differently as sequences stop, so values agree to float32 rounding.
      s.logProbs!.forEach((lp, j) => expect(Math.abs(lp - f.logProbs![j]!)).toBeLessThan(1e-4));
    });
    expect(cut).toBeGreaterThanOrEqual(4);
  });

  it("ends at maxTokens with finishReason length", async () => {
    const r = await adapter.generate(PROMPT, { samples: 5, seed: 3, maxTokens: 6 });
    for (const s of [r.greedy, ...r.samples]) {
      expect(s.finishReason === "length" ? s.tokens.length === 6 : s.finishReason === "eos" && s.tokens.length < 6).toBe(true);
    }
  });

  it("top-k 1 and a tiny top-p sample the greedy answer; temperature 0 too", async () => {
    const r = await adapter.generate(PROMPT, { samples: 3, seed: 8, maxTokens: 12 });
    for (const options of [{ topK: 1 }, { topP: 1e-6 }, { temperature: 0 }]) {
      const g = await adapter.generate(PROMPT, { samples: 3, seed: 8, maxTokens: 12, ...options });
      for (const s of g.samples) expect(s.text).toBe(r.greedy.text);
    }
  });

  it("L3/L4: entropies and full distributions agree with the chosen token; top-k alternatives; an embedding", async () => {
    const r = await adapter.generate(PROMPT, { samples: 2, seed: 1, maxTokens: 8, topLogprobs: 3, fullDistribution: true, embedding: true });
    for (const s of [r.greedy, ...r.samples]) {
      expect(s.distributions).toHaveLength(s.tokens.length);
      s.distributions!.forEach((d, i) => {
        expect(d.length).toBe(adapter.vocabularySize);
        expect(logSumExp([...d])).toBeCloseTo(0, 4);
        expect(d[s.tokenIds![i]!]).toBeCloseTo(s.logProbs![i]!, 4);
        const h = -[...d].reduce((acc, lp) => (lp > -Infinity ? acc + Math.exp(lp) * lp : acc), 0);
        expect(s.entropies![i]).toBeCloseTo(h, 4);
        const top = Object.values(s.topLogProbs![i]!);
        expect(top.length).toBeLessThanOrEqual(3);
        expect(top[0]).toBeCloseTo(Math.max(...d), 4);
      });
      expect(s.embedding).toHaveLength(64);
    }
    // The greedy token is the top alternative.
    r.greedy.logProbs!.forEach((lp, i) => expect(lp).toBeCloseTo(Math.max(...Object.values(r.greedy.topLogProbs![i]!)), 6));
    expect(r.greedy.embedding).toEqual(await adapter.hiddenState(r.greedy.text));
  });

  it("refuses bad settings by name, a prompt too long for the context, and honours an abort", async () => {
    await expect(adapter.generate(PROMPT, { samples: -1 })).rejects.toThrow(/samples/);
    await expect(adapter.generate(PROMPT, { topP: 0 })).rejects.toThrow(/topP/);
    await expect(adapter.generate(PROMPT, { maxTokens: 5000 })).rejects.toThrow(/context/);
    await expect(narrow.generate(PROMPT, { embedding: true })).rejects.toMatchObject({ code: "ACCESS_LEVEL_UNAVAILABLE" });
    const controller = new AbortController();
    controller.abort();
    await expect(adapter.generate(PROMPT, { samples: 2, signal: controller.signal })).rejects.toThrow();
    expect((await adapter.generate(PROMPT, { maxTokens: 2 })).greedy.tokens.length).toBeGreaterThan(0);
  });
});

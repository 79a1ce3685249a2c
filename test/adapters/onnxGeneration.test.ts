// generate() on the real tiny-gpt2 ONNX export (its outputs are noise; the decoding path is real).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOnnxAdapter, defaultModelsDir, logSumExp, type ModelAdapter } from "../../src/adapters/index.js";

const PROMPT = "The sky is";
let adapter: ModelAdapter;
beforeAll(async () => {
  adapter = await createOnnxAdapter({ modelDir: join(defaultModelsDir(), "tiny-gpt2") });
});
afterAll(async () => {
  await adapter.dispose();
});

describe("generate on transformers.js (tiny-gpt2)", () => {
  it("is deterministic for a seed; the greedy answer is the argmax at each step", async () => {
    const a = await adapter.generate(PROMPT, { samples: 3, seed: 2, maxTokens: 5, topLogprobs: 2 });
    expect(await adapter.generate(PROMPT, { samples: 3, seed: 2, maxTokens: 5, topLogprobs: 2 })).toEqual(a);
    expect((await adapter.generate(PROMPT, { samples: 3, seed: 7, maxTokens: 5 })).samples.map((s) => s.text))
      .not.toEqual(a.samples.map((s) => s.text));
    a.greedy.logProbs!.forEach((lp, i) => expect(lp).toBeCloseTo(Math.max(...Object.values(a.greedy.topLogProbs![i]!)), 6));
    expect(a.greedy.tokens.join("")).toBe(a.greedy.text);
  });

  it("a sample's log-probabilities equal a rescoring of its tokens within 1e-4", async () => {
    const r = await adapter.generate(PROMPT, { samples: 4, seed: 1, maxTokens: 4 });
    let compared = 0;
    for (const s of [r.greedy, ...r.samples]) {
      const [[rescored]] = (await adapter.scoreContinuations([{ prefix: PROMPT, continuations: [s.text] }])) as [[number]];
      // GPT-2's byte-level BPE may tokenize the text back differently; rescoring applies where it does not.
      if (s.tokens.length !== (await adapter.countTokens(s.text))) continue;
      expect(Math.abs(s.logProbs!.reduce((x, y) => x + y, 0) - rescored)).toBeLessThan(1e-4);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(3);
  });

  it("full distributions and entropies at L3; stops cut the unstopped answer", async () => {
    const r = await adapter.generate(PROMPT, { samples: 1, seed: 1, maxTokens: 3, fullDistribution: true });
    for (const s of [r.greedy, ...r.samples]) {
      s.distributions!.forEach((d, i) => {
        expect(logSumExp([...d])).toBeCloseTo(0, 3);
        expect(d[s.tokenIds![i]!]).toBeCloseTo(s.logProbs![i]!, 4);
        expect(s.entropies![i]).toBeGreaterThan(0);
      });
    }
    const free = await adapter.generate(PROMPT, { samples: 2, seed: 3, maxTokens: 6 });
    const stop = free.greedy.tokens[2]!;
    const stopped = await adapter.generate(PROMPT, { samples: 2, seed: 3, maxTokens: 6, stop: [stop] });
    expect(stopped.greedy.text).toBe(free.greedy.text.slice(0, free.greedy.text.indexOf(stop)));
    expect(stopped.greedy.finishReason).toBe("stop");
    await expect(adapter.generate(PROMPT, { embedding: true })).rejects.toMatchObject({ code: "ACCESS_LEVEL_UNAVAILABLE" });
  });
});

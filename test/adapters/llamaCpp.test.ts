// Model tests on the real stories260K.gguf (loaded once for the file).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLlamaCppAdapter, defaultModelsDir, openAdapter, type LlamaCppModelAdapter } from "../../src/adapters/index.js";

const LILY = "Once upon a time, there was a little girl named Lily. She loved to play with her";
let adapter: LlamaCppModelAdapter;

beforeAll(async () => {
  adapter = await createLlamaCppAdapter({ modelPath: join(defaultModelsDir(), "stories260K.gguf"), gpu: false });
});
afterAll(async () => {
  await adapter.dispose();
});

describe("llama.cpp adapter on stories260K", () => {
  it("reports provider, model, L4 and a sha256 fingerprint that includes the weights", async () => {
    expect([adapter.provider, adapter.model, adapter.accessLevel]).toEqual(["llama.cpp", "stories260K.gguf", "L4"]);
    expect(adapter.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('gives " toys" more probability than " doll" and " dog"', async () => {
    const [[toys, doll, dog]] = (await adapter.scoreContinuations([{ prefix: LILY, continuations: [" toys", " doll", " dog"] }])) as [[number, number, number]];
    expect(toys).toBeGreaterThan(doll);
    expect(toys).toBeGreaterThan(dog);
  });

  it("shared-prefix batched scoring equals scoring each item alone", async () => {
    const items = [
      { prefix: LILY, continuations: [" toys", " doll", " big red ball"] },
      { prefix: `${LILY} friend`, continuations: [" Tom", " Sue"] },
      { prefix: "One day", continuations: [" the sun", " a cat"] },
    ];
    const together = await adapter.scoreContinuations(items);
    for (const [i, item] of items.entries()) {
      const [alone] = await adapter.scoreContinuations([item]);
      alone!.forEach((lp, j) => expect(together[i]![j]).toBeCloseTo(lp, 4));
    }
  });

  it("scores are identical across two runs", async () => {
    const items = [{ prefix: LILY, continuations: [" toys", " doll"] }];
    expect(await adapter.scoreContinuations(items)).toEqual(await adapter.scoreContinuations(items));
  });

  it("samples the requested number, reproducibly by seed", async () => {
    const a = await adapter.sample("Once upon a time", 5, { seed: 3, maxTokens: 8 });
    expect(a).toHaveLength(5);
    expect(await adapter.sample("Once upon a time", 5, { seed: 3, maxTokens: 8 })).toEqual(a);
    expect(await adapter.sample("Once upon a time", 5, { seed: 4, maxTokens: 8 })).not.toEqual(a);
  });

  it("hidden states have 64 dimensions", async () => {
    const v = await adapter.hiddenState("Lily had a red ball.");
    expect(v).toHaveLength(64);
    expect(v.every(Number.isFinite)).toBe(true);
  });

  it("openAdapter picks llama.cpp for a .gguf path and an error for a missing one", async () => {
    await expect(openAdapter("no-such-model.gguf")).rejects.toMatchObject({ code: "MODEL_NOT_FOUND" });
  });

  it("honours an abort signal", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(adapter.sample("Once", 2, { signal: controller.signal })).rejects.toThrow();
    expect((await adapter.sample("Once", 1, { maxTokens: 2 })).length).toBe(1);
  });
});

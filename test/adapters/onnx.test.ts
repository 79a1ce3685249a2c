// Model tests on the real tiny-gpt2 ONNX export (its outputs are noise; the code path is real).
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessLevelError, createOnnxAdapter, defaultModelsDir, type ModelAdapter } from "../../src/adapters/index.js";
import { buildEvaluateRequest } from "../../src/evidence/index.js";

let adapter: ModelAdapter;
beforeAll(async () => {
  adapter = await createOnnxAdapter({ modelDir: join(defaultModelsDir(), "tiny-gpt2") });
});
afterAll(async () => {
  await adapter.dispose();
});

const query = { type: "set", instructions: "Pick one", options: { red: "", green: "", "light blue": "" }, calibration_profile: "colours" };

describe("ONNX adapter on tiny-gpt2", () => {
  it("is L3 (this export has no hidden-state output) with a sha256 fingerprint", () => {
    expect([adapter.provider, adapter.model, adapter.accessLevel]).toEqual(["transformers", "tiny-gpt2", "L3"]);
    expect(adapter.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("multi-token option probabilities sum to 1 within 1e-6 and repeat exactly", async () => {
    const build = () => buildEvaluateRequest({ context: "The sky", queries: { q: query }, adapter });
    const a = await build();
    const probs = (a.queries.q as { evidence: { option_probabilities: Record<string, number> } }).evidence.option_probabilities;
    expect(Math.abs(Object.values(probs).reduce((s, p) => s + p, 0) - 1)).toBeLessThan(1e-6);
    expect(await build()).toEqual(a);
  });

  it("L0 returns the requested number of samples", async () => {
    expect(await adapter.sample("Hello", 3, { seed: 1, maxTokens: 3 })).toHaveLength(3);
  });

  it("a hidden-state hint above L3 fails with a clear error", async () => {
    const err = await buildEvaluateRequest({ context: "x", queries: { q: query }, adapter, accessHint: "hidden-state" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AccessLevelError);
    expect((err as Error).message).toBe('access_hint "hidden-state" needs access level L4, but the backend exposes only L3');
  });
});

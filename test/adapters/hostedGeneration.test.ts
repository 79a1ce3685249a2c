// generate() on a hosted provider (OpenAI's chat API through its SDK) against the loopback fake that speaks
// its wire format: the greedy answer at temperature 0, the samples with n, stops applied, text only.
import { afterAll, beforeAll, expect, it } from "vitest";
import { openHostedAdapter, type HostedAdapter } from "../../src/adapters/index.js";
import { startFakeProviders, type FakeProviders } from "../service/providers/fakeProviders.js";

let fake: FakeProviders;
let adapter: HostedAdapter;
beforeAll(async () => {
  fake = await startFakeProviders();
  adapter = await openHostedAdapter({ provider: "openai", model: "gpt-4o-mini", base_url: `${fake.url}/gen/v1`, apiKey: "k", timeoutMs: 5000 });
});
afterAll(async () => {
  await adapter?.dispose();
  await fake?.close();
});

it("answers the greedy request at temperature 0 and the samples with n, cut at the stops, with no tokens", async () => {
  fake.seen.length = 0;
  const r = await adapter.generate("How is the dog?", { samples: 4, seed: 2, maxTokens: 8, stop: ["pp"] });
  const bodies = fake.seen.filter((s) => s.prefix === "gen").map((s) => s.body as { temperature: number; n?: number; stop?: string[] });
  expect(bodies[0]).toMatchObject({ temperature: 0, stop: ["pp"] });
  expect(bodies.slice(1).reduce((k, b) => k + (b.n ?? 1), 0)).toBe(4);
  expect(r.greedy).toEqual({ text: "ha", tokens: [], finishReason: "stop" });
  // The fake answers "happy" but every fourth choice "sad", which has no stop.
  expect(r.samples.map((s) => s.text)).toEqual(["ha", "ha", "ha", "sad"]);
  expect(r.samples[3]!.finishReason).toBe("eos");
});

it("refuses what a hosted chat API is not sent or does not give, by name", async () => {
  await expect(adapter.generate("x", { topK: 5 })).rejects.toThrow(/topK/);
  await expect(adapter.generate("x", { topLogprobs: 2 })).rejects.toThrow(/topLogprobs/);
  await expect(adapter.generate("x", { fullDistribution: true })).rejects.toMatchObject({ code: "ACCESS_LEVEL_UNAVAILABLE" });
});

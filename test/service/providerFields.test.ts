// Provider-specific fields of the backend object, validated per provider by a real `calibkit serve`: each
// field typed, taken only by the providers that take it, a 422 naming the field otherwise (docs/service.md
// "Providers"); the configuration file is held to the same table.
import { afterAll, beforeAll, expect, it } from "vitest";
import { spawnCalibkit, startServer, tempDir, type Spawned } from "./helpers.js";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

let server: Spawned;
beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

async function createProfile(name: string, backend: unknown) {
  const res = await fetch(`${server.url}/api/v1/calibration-profiles`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name, backend, alpha: 0.1 }) });
  return { status: res.status, body: (await res.json()) as { field?: string; message: string; issues?: { field: string; message: string }[] } };
}

it.each([
  [{ provider: "openai", model: "gpt-4o", deployment: "d" }, "backend.deployment", /not taken by provider "openai".*azure-openai/],
  [{ provider: "anthropic", model: "claude", reasoning_effort: "low" }, "backend.reasoning_effort", /taken by: openai, azure-openai, openrouter/],
  [{ provider: "gemini", model: "g", region: "us-east-1" }, "backend.region", /bedrock/],
  [{ provider: "bedrock", model: "m", upstream: "x" }, "backend.upstream", /openrouter/],
  [{ provider: "vllm", model: "m", thinking_level: "low" }, "backend.thinking_level", /gemini/],
  [{ provider: "openrouter", model: "m", quantization: "fp8" }, "backend.quantization", /vllm, sglang/],
  [{ provider: "gemini", model: "g", sample_count: 9 }, "backend.sample_count", /8/],
  [{ provider: "gemini", model: "g", thinking_level: "extreme" }, "backend.thinking_level", /minimal.*high/],
  [{ provider: "anthropic", model: "c", effort: 3 }, "backend.effort", /low/],
  [{ provider: "azure-openai", model: "m", api_version: "yesterday" }, "backend.api_version", /api-version/],
  [{ provider: "bedrock", model: "m", region: "Mars" }, "backend.region", /AWS region/],
  [{ provider: "vllm", model: "m", deterministic: "yes" }, "backend.deterministic", /boolean/],
  [{ provider: "sglang", model: "m", logprobs_mode: "raw" }, "backend.logprobs_mode", /raw_logprobs/],
])("refuses %j with a 422 naming the field", async (backend, field, message) => {
  const r = await createProfile("p", backend);
  expect(r.status).toBe(422);
  expect(r.body.field).toBe(field);
  expect(r.body.message).toMatch(message);
});

it.each([
  { provider: "openai", model: "o4-mini", reasoning_effort: "high" },
  { provider: "azure-openai", model: "gpt-4o", deployment: "prod-4o", api_version: "2024-10-21", base_url: "https://x.openai.azure.com" },
  { provider: "openrouter", model: "meta-llama/llama-3.1-8b-instruct", upstream: "together", pin_upstream: true },
  { provider: "anthropic", model: "claude-opus-4-5", effort: "medium" },
  { provider: "gemini", model: "gemini-2.5-flash", thinking_level: "low", sample_count: 4 },
  { provider: "bedrock", model: "arn:aws:bedrock:us-east-1:1:imported-model/x", region: "us-east-1", custom_model_import: true },
  { provider: "vllm", model: "m", quantization: "awq", engine_version: "0.11.0", logprobs_mode: "processed_logprobs", deterministic: true },
  { provider: "sglang", model: "m", base_url: "http://127.0.0.1:30000/v1" },
])("accepts the fields provider $provider takes", async (backend) => {
  const r = await createProfile(`ok-${backend.provider}`, backend);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
});

it("refuses a configuration file that gives a backend a field its provider does not take", async () => {
  const file = join(await tempDir("calibkit-config-"), "config.json");
  await writeFile(file, JSON.stringify({ backends: [{ name: "a", provider: "anthropic", model: "c", reasoning_effort: "low" }] }));
  await expect(spawnCalibkit(["serve", "--port", "0", "--data", await tempDir(), "--config", file])).rejects.toThrow(/backends\.0\.reasoning_effort.*not taken by provider "anthropic"/);
}, 30_000);

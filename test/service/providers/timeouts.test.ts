// A provider that accepts the connection and never answers, once per SDK family (openai, @anthropic-ai/sdk,
// @google/genai, @aws-sdk/client-bedrock-runtime): each attempt is abandoned at backend_timeout_ms, retried
// with backoff, and the query is then a 502 naming the backend.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServer, type Spawned } from "../helpers.js";
import { startFakeProviders, type FakeProviders } from "./fakeProviders.js";
import { serviceCalls } from "./serviceCalls.js";

const TIMEOUT_MS = 400;
const FAMILIES = { oa: "openai", an: "anthropic", g: "gemini", bd: "bedrock" } as const;
let fake: FakeProviders;
let server: Spawned;
const calls = serviceCalls(() => server);

beforeAll(async () => {
  fake = await startFakeProviders();
  Object.assign(process.env, { CALIBKIT_TEST_TIMEOUT_KEY: "k-timeout", CALIBKIT_TEST_TIMEOUT_ID: "AKIAFAKETIMEOUT", CALIBKIT_TEST_TIMEOUT_SECRET: "timeout-secret" });
  server = await startServer({
    config: {
      backend_timeout_ms: TIMEOUT_MS,
      connections: {
        k: { api_key_env: "CALIBKIT_TEST_TIMEOUT_KEY" },
        aws: { aws_access_key_id_env: "CALIBKIT_TEST_TIMEOUT_ID", aws_secret_access_key_env: "CALIBKIT_TEST_TIMEOUT_SECRET" },
      },
      backends: [
        { name: "oa", provider: "openai", model: "gpt-4o-mini", base_url: `${fake.url}/oa/v1`, connection: "k" },
        { name: "an", provider: "anthropic", model: "claude-haiku-4-5", base_url: `${fake.url}/an`, connection: "k" },
        { name: "g", provider: "gemini", model: "gemini-2.0-flash", base_url: `${fake.url}/g`, connection: "k" },
        { name: "bd", provider: "bedrock", model: "amazon.nova-micro-v1:0", region: "us-east-1", base_url: `${fake.h2url}/bd`, connection: "aws" },
      ],
    },
  });
  await calls.createMood({ provider: "openai", name: "oa" });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

it("retries a provider that never answers, then answers 502 naming the backend", async () => {
  expect(await calls.levels()).toEqual({ oa: ["L1", "ok"], an: ["L0", "ok"], g: ["L1", "ok"], bd: ["L0", "ok"] });
  const before = Object.fromEntries(Object.keys(FAMILIES).map((name) => [name, fake.seen.filter((s) => s.prefix === name).length]));
  for (const name of Object.keys(FAMILIES)) fake.faults.set(name, { status: 0, times: 100 });
  const started = Date.now();
  const answers = await Promise.all(Object.entries(FAMILIES).map(([name, provider]) => calls.mood(provider, name)));
  const elapsed = Date.now() - started;
  for (const [i, name] of Object.keys(FAMILIES).entries()) {
    const r = answers[i]!;
    expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(502);
    expect(r.body.message).toContain(`Backend "${name}"`);
    expect(r.body.message).toMatch(/timed out|did not answer within 400 ms/i);
    const tries = fake.seen.filter((s) => s.prefix === name).slice(before[name]);
    // The first attempt and 3 retries, each abandoned after TIMEOUT_MS, with backoff between them.
    expect(tries, name).toHaveLength(4);
    expect(tries[3]!.at - tries[0]!.at, name).toBeGreaterThanOrEqual(3 * TIMEOUT_MS + 1000);
  }
  expect(elapsed).toBeLessThan(30_000);
}, 60_000);

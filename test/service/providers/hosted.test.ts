// Hosted providers as backends of a real `calibkit serve`, each through its official SDK against a loopback
// fake speaking the provider's wire format: the level GET /backends detects, the evidence computed from
// the answer, usage and cost, retries of 429 (retry-after) and 5xx, malformed bodies, and the credential
// of a `connection` reaching the fake's auth header and nowhere else.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServer, type Spawned } from "../helpers.js";
import { startFakeProviders, type FakeProviders } from "./fakeProviders.js";

const SECRET = "sk-test-0123456789-secret";
let fake: FakeProviders;
let server: Spawned;
const bodies: string[] = [];

beforeAll(async () => {
  fake = await startFakeProviders();
  fake.noLogprobs.add("oalp0");
  process.env.CALIBKIT_TEST_PROVIDER_KEY = SECRET;
  const base = { connection: "k", cost_cents_per_call: 0.5, cost_cents_per_1k_tokens: 1 };
  server = await startServer({
    config: {
      backend_timeout_ms: 5000,
      connections: { k: { api_key_env: "CALIBKIT_TEST_PROVIDER_KEY" } },
      backends: [
        { ...base, name: "oa", provider: "openai", model: "gpt-4o-mini", base_url: `${fake.url}/oa/v1` },
        { ...base, name: "oalp0", provider: "openai", model: "gpt-4o-mini", base_url: `${fake.url}/oalp0/v1` },
        { ...base, name: "reason", provider: "openai", model: "o4-mini", base_url: `${fake.url}/reason/v1`, reasoning_effort: "low" },
        { ...base, name: "az", provider: "azure-openai", model: "gpt-4o", base_url: `${fake.url}/az`, deployment: "dep", api_version: "2024-10-21" },
        { ...base, name: "or", provider: "openrouter", model: "meta-llama/llama-3.1-8b-instruct", base_url: `${fake.url}/or/api/v1`, upstream: "together", pin_upstream: true },
        { ...base, name: "an", provider: "anthropic", model: "claude-haiku-4-5", base_url: `${fake.url}/an`, effort: "low" },
      ],
    },
  });
  await post("/calibration-profiles", { name: "mood", backend: { provider: "openai", name: "oa" }, alpha: 0.2, strict_fingerprint: false });
  await post("/calibration-profiles/mood/examples", { examples: Array.from({ length: 40 }, (_, i) => {
    const p = 0.2 + (0.7 * i) / 40;
    return { context: `story ${i}`, label: p > 0.5 ? "happy" : "sad", metadata: { evidence: { option_probabilities: { happy: p, sad: 1 - p } } } };
  }) });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

async function post(path: string, body: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  bodies.push(text);
  return { status: res.status, body: JSON.parse(text) as any };
}
const mood = (name: string, extra: Record<string, unknown> = {}) => post("/evaluate", {
  context: "Once upon a time, there was a happy dog.", backend: { provider: providerOf[name], name, ...extra },
  queries: { mood: { type: "set", instructions: "Is the story happy or sad?", options: { happy: "happy", sad: "sad" }, calibration_profile: "mood" } },
});
const providerOf: Record<string, string> = { oa: "openai", oalp0: "openai", reason: "openai", az: "azure-openai", or: "openrouter", an: "anthropic" };
const seenOf = (prefix: string) => fake.seen.filter((s) => s.prefix === prefix);

it("lists each hosted backend with the level its provider exposes", async () => {
  const res = await fetch(`${server.url}/api/v1/backends`);
  const text = await res.text();
  bodies.push(text);
  const levels = Object.fromEntries((JSON.parse(text).backends as any[]).map((b) => [b.name, [b.access_level, b.status]]));
  expect(levels).toEqual({ oa: ["L1", "ok"], oalp0: ["L0", "ok"], reason: ["L0", "ok"], az: ["L1", "ok"], or: ["L1", "ok"], an: ["L0", "ok"] });
});

it("computes L1 option probabilities from the provider's top log-probabilities, and counts its usage", async () => {
  for (const name of ["oa", "az", "or"]) {
    const r = await mood(name);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.answers.mood.guarantee.evidence_level).toBe("L1");
    expect(r.body.answers.mood.probabilities.happy).toBeCloseTo(0.7, 9);
    expect(r.body.usage.backend_tokens).toBe(12);
    const last = seenOf(name).at(-1)!;
    expect(last.body).toMatchObject({ logprobs: true, top_logprobs: 20, max_tokens: 1 });
  }
  // Each provider's own request shape and auth header, with the connection's credential.
  expect(seenOf("oa").at(-1)!.headers.authorization).toBe(`Bearer ${SECRET}`);
  const az = seenOf("az").at(-1)!;
  expect(az.path).toBe("/az/openai/deployments/dep/chat/completions?api-version=2024-10-21");
  expect(az.headers["api-key"]).toBe(SECRET);
  expect(seenOf("or").at(-1)!.body.provider).toEqual({ order: ["together"], allow_fallbacks: false });
});

it("computes L0 option probabilities from samples where the model gives no log-probabilities", async () => {
  for (const name of ["oalp0", "reason", "an"]) {
    const r = await mood(name);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.answers.mood.guarantee.evidence_level).toBe("L0");
    // OpenAI fakes answer 6 happy and 2 sad of 8 samples (add-one: 7/10); Anthropic's always happy (9/10).
    expect(r.body.answers.mood.probabilities.happy).toBeCloseTo(name === "an" ? 0.9 : 0.7, 9);
  }
  expect(seenOf("oalp0").at(-1)!.body).toMatchObject({ n: 8 });
  const reason = seenOf("reason").at(-1)!.body;
  expect(reason).toMatchObject({ reasoning_effort: "low", max_completion_tokens: 8 });
  expect(reason.logprobs).toBeUndefined();
  expect(reason.temperature).toBeUndefined();
  const an = seenOf("an").at(-1)!;
  expect(an.path).toBe("/an/v1/messages");
  expect(an.body).toMatchObject({ model: "claude-haiku-4-5", output_config: { effort: "low" }, messages: [{ role: "user" }] });
  // This SDK version sends the key as a bearer token; older ones as x-api-key: either is Anthropic's auth.
  expect([an.headers["x-api-key"], an.headers.authorization]).toContain(an.headers["x-api-key"] ? SECRET : `Bearer ${SECRET}`);
  expect(an.headers["anthropic-version"]).toBeTruthy();
});

it("answers 502 when the query needs more than the provider exposes, never downgrading", async () => {
  const r = await mood("an", { access_hint: "logprobs" });
  expect(r.status).toBe(502);
  expect(r.body.message).toMatch(/"an".*L0.*L1/);
});

it("waits out a 429 for the provider's retry-after, then answers", async () => {
  fake.faults.set("oa", { status: 429, times: 1, headers: { "retry-after": "1" } });
  const before = seenOf("oa").length;
  const r = await mood("oa");
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const calls = seenOf("oa").slice(before);
  expect(calls).toHaveLength(2);
  expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(950);
}, 20_000);

it("retries 5xx with backoff, then answers 502 naming the backend", async () => {
  for (const name of ["or", "an"]) {
    fake.faults.set(name, { status: 503, times: 100 });
    const before = seenOf(name).length;
    const r = await mood(name);
    fake.faults.delete(name);
    expect(r.status).toBe(502);
    expect(r.body.message).toContain(`Backend "${name}"`);
    const calls = seenOf(name).slice(before);
    expect(calls).toHaveLength(4);
    expect(calls[3]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1000);
  }
}, 40_000);

it("answers 502 naming the backend when the provider answers a malformed body", async () => {
  for (const name of ["oa", "an"]) {
    fake.faults.set(name, { status: 200, times: 1, body: JSON.stringify({ unexpected: true }) });
    const r = await mood(name);
    fake.faults.delete(name);
    expect(r.status).toBe(502);
    expect(r.body.message).toContain(`Backend "${name}"`);
  }
});

it("prices a route stage from the provider's reported usage", async () => {
  await post("/calibration-profiles", { name: "cost", backend: { provider: "client_evidence", name: "x", access_level: "L0" }, alpha: 0.3, strict_fingerprint: false });
  await post("/calibration-profiles/cost/examples", { examples: Array.from({ length: 40 }, (_, i) => ({
    context: `s ${i}`, label: { stages: { an: "correct" } }, metadata: { evidence: { stage_confidence: { an: 0.5 } } },
  })) });
  const r = await post("/evaluate", { context: "c", queries: { r: { type: "route", calibration_profile: "cost", guarantee: "cost_budget", target_cents: 100, cascade: [{ backend: { provider: "anthropic", name: "an" } }] } } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  // L0: one greedy call and 8 samples, each reporting 10 + 2 tokens.
  expect(r.body.usage.backend_tokens).toBe(9 * 12);
  expect(r.body.answers.r.cost_cents).toBeCloseTo(0.5 + (1 * 9 * 12) / 1000, 12);
});

it("never shows the connection's credential in a response or the service's log", () => {
  expect(fake.seen.some((s) => JSON.stringify(s.headers).includes(SECRET))).toBe(true);
  for (const b of bodies) expect(b).not.toContain(SECRET);
  expect(server.stderr()).not.toContain(SECRET);
});

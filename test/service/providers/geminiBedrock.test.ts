// gemini (@google/genai generateContent) and bedrock (@aws-sdk/client-bedrock-runtime Converse) as backends
// of a real `calibkit serve`, against a loopback fake speaking their wire formats (Bedrock's over cleartext
// HTTP/2, as its SDK speaks): the level GET /backends detects, the evidence computed from the answers, usage
// and cost, 429 with retry-after, 5xx, a refused request, malformed bodies, SigV4 with the connection's
// access key (or the standard chain's), and no credential in any response or log.
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServer, type Spawned } from "../helpers.js";
import { startFakeProviders, type FakeProviders } from "./fakeProviders.js";
import { serviceCalls } from "./serviceCalls.js";

const GEMINI_KEY = "AIza-test-gemini-0123456789-secret";
const AWS_ID = "AKIAFAKECONNECTION01";
const AWS_SECRET = "wJalrXUtnFEMI/fake/bedrock-secret-0123";
const CHAIN_ID = "AKIAFAKESTANDARDCHAIN";
const CHAIN_SECRET = "chain/fake/secret-from-the-environment";
const BEDROCK_KEY = "ABSKQmVkcm9ja0FQSUtleS1mYWtl-secret";
const IMPORTED = "arn:aws:bedrock:us-west-2:123456789012:imported-model/abc123xyz";
let fake: FakeProviders;
let server: Spawned;
const calls = serviceCalls(() => server);
const providerOf: Record<string, string> = { g: "gemini", glp0: "gemini", g400: "gemini", bd: "bedrock", bdchain: "bedrock", bi: "bedrock", bdkey: "bedrock" };
const mood = (name: string, extra?: Record<string, unknown>) => calls.mood(providerOf[name]!, name, extra);
const seenOf = (prefix: string) => fake.seen.filter((s) => s.prefix === prefix);

beforeAll(async () => {
  fake = await startFakeProviders();
  fake.noLogprobs.add("glp0");
  fake.refuseLogprobs.add("g400");
  Object.assign(process.env, {
    CALIBKIT_TEST_GEMINI_KEY: GEMINI_KEY, CALIBKIT_TEST_AWS_ID: AWS_ID, CALIBKIT_TEST_AWS_SECRET: AWS_SECRET, CALIBKIT_TEST_BEDROCK_KEY: BEDROCK_KEY,
    // The standard chain's first link, for the backend without a connection (the child inherits them).
    AWS_ACCESS_KEY_ID: CHAIN_ID, AWS_SECRET_ACCESS_KEY: CHAIN_SECRET, AWS_EC2_METADATA_DISABLED: "true",
  });
  const cost = { cost_cents_per_call: 0.5, cost_cents_per_1k_tokens: 1 };
  server = await startServer({
    config: {
      backend_timeout_ms: 5000,
      connections: {
        gk: { api_key_env: "CALIBKIT_TEST_GEMINI_KEY" },
        aws: { aws_access_key_id_env: "CALIBKIT_TEST_AWS_ID", aws_secret_access_key_env: "CALIBKIT_TEST_AWS_SECRET" },
        bk: { api_key_env: "CALIBKIT_TEST_BEDROCK_KEY" },
      },
      backends: [
        { ...cost, name: "g", provider: "gemini", model: "gemini-2.0-flash", base_url: `${fake.url}/g`, connection: "gk" },
        { ...cost, name: "glp0", provider: "gemini", model: "gemini-2.0-flash-lite", base_url: `${fake.url}/glp0`, connection: "gk", sample_count: 4 },
        { ...cost, name: "g400", provider: "gemini", model: "gemini-3-pro", base_url: `${fake.url}/g400`, connection: "gk", thinking_level: "low" },
        { ...cost, name: "bd", provider: "bedrock", model: "anthropic.claude-3-haiku-20240307-v1:0", region: "us-east-1", base_url: `${fake.h2url}/bd`, connection: "aws" },
        { ...cost, name: "bdchain", provider: "bedrock", model: "amazon.nova-micro-v1:0", region: "eu-west-1", base_url: `${fake.h2url}/bdchain` },
        { ...cost, name: "bi", provider: "bedrock", model: IMPORTED, custom_model_import: true, base_url: `${fake.h2url}/bi`, connection: "aws" },
        { ...cost, name: "bdkey", provider: "bedrock", model: "amazon.nova-lite-v1:0", region: "us-east-1", base_url: `${fake.h2url}/bdkey`, connection: "bk" },
      ],
    },
  });
  await calls.createMood({ provider: "gemini", name: "g" });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await fake?.close();
});

it("lists gemini at L1 where the model returns logprobsResult, L0 where not, and bedrock at L0", async () => {
  expect(await calls.levels()).toEqual({
    g: ["L1", "ok"], glp0: ["L0", "ok"], g400: ["L0", "ok"], bd: ["L0", "ok"], bdchain: ["L0", "ok"], bi: ["L0", "ok"], bdkey: ["L0", "ok"],
  });
  // The refusing model was asked once with responseLogprobs (a 400), then without.
  expect(seenOf("g400").slice(0, 2).map((s) => s.body.generationConfig.responseLogprobs)).toEqual([true, undefined]);
});

it("computes L1 option probabilities from gemini's top log-probabilities, and counts its usage", async () => {
  const r = await mood("g");
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.answers.mood.guarantee.evidence_level).toBe("L1");
  expect(r.body.answers.mood.probabilities.happy).toBeCloseTo(0.7, 9);
  expect(r.body.usage.backend_tokens).toBe(12);
  const last = seenOf("g").at(-1)!;
  expect(last.path).toBe("/g/v1beta/models/gemini-2.0-flash:generateContent");
  expect(last.body.generationConfig).toMatchObject({ responseLogprobs: true, logprobs: 20, maxOutputTokens: 1, candidateCount: 1 });
  expect(last.body.contents).toEqual([{ role: "user", parts: [{ text: expect.stringContaining("happy dog") }] }]);
  expect(last.headers["x-goog-api-key"]).toBe(GEMINI_KEY);
});

it("computes L0 option probabilities from gemini candidates and bedrock samples", async () => {
  // glp0: 4 candidates a request (sample_count), every 4th sad: 6 of 8 happy, add-one 7/10. The others
  // always answer happy: 9/10.
  for (const [name, happy] of [["glp0", 0.7], ["g400", 0.9], ["bd", 0.9], ["bdchain", 0.9], ["bi", 0.9], ["bdkey", 0.9]] as const) {
    const r = await mood(name);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.answers.mood.guarantee.evidence_level).toBe("L0");
    expect(r.body.answers.mood.probabilities.happy).toBeCloseTo(happy, 9);
  }
  expect(seenOf("glp0").at(-1)!.body.generationConfig).toMatchObject({ candidateCount: 4 });
  const thinking = seenOf("g400").at(-1)!.body.generationConfig;
  expect(thinking.thinkingConfig).toEqual({ thinkingLevel: "LOW" });
  expect(thinking.responseLogprobs).toBeUndefined();
  const bd = seenOf("bd").at(-1)!;
  expect(bd.path).toBe("/bd/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse");
  expect(bd.body).toMatchObject({ messages: [{ role: "user", content: [{ text: expect.stringContaining("happy dog") }] }], inferenceConfig: { temperature: 1 } });
});

it("signs bedrock requests with SigV4 (the connection's access key, the standard chain's without one, the imported model's region), or sends a Bedrock API key", () => {
  const sigv4 = (id: string, region: string) => new RegExp(`^AWS4-HMAC-SHA256 Credential=${id}/\\d{8}/${region}/bedrock/aws4_request, SignedHeaders=[a-z0-9;:-]+, Signature=[0-9a-f]{64}$`);
  expect(seenOf("bd").at(-1)!.headers.authorization).toMatch(sigv4(AWS_ID, "us-east-1"));
  expect(seenOf("bdchain").at(-1)!.headers.authorization).toMatch(sigv4(CHAIN_ID, "eu-west-1"));
  const bi = seenOf("bi").at(-1)!;
  expect(bi.path).toBe(`/bi/model/${encodeURIComponent(IMPORTED)}/converse`);
  expect(bi.headers.authorization).toMatch(sigv4(AWS_ID, "us-west-2"));
  expect(seenOf("bdkey").at(-1)!.headers.authorization).toBe(`Bearer ${BEDROCK_KEY}`);
});

it("answers 502 when a query needs log-probabilities that bedrock does not give", async () => {
  const r = await mood("bd", { access_hint: "logprobs" });
  expect(r.status).toBe(502);
  expect(r.body.message).toMatch(/"bd".*L0.*L1/);
});

it("waits out a 429 for the provider's retry-after, then answers", async () => {
  fake.faults.set("g", { status: 429, times: 1, headers: { "retry-after": "1" }, body: JSON.stringify({ error: { code: 429, message: "Resource has been exhausted", status: "RESOURCE_EXHAUSTED" } }) });
  fake.faults.set("bd", { status: 429, times: 1, headers: { "retry-after": "1", "x-amzn-errortype": "ThrottlingException" }, body: JSON.stringify({ message: "Too many requests, please wait before trying again." }) });
  for (const name of ["g", "bd"]) {
    const before = seenOf(name).length;
    const r = await mood(name);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const tries = seenOf(name).slice(before);
    expect(tries.length).toBeGreaterThanOrEqual(2);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(950);
  }
}, 20_000);

it("retries 5xx with backoff, then answers 502 naming the backend; a refused request is not retried", async () => {
  for (const name of ["g", "bd"]) {
    fake.faults.set(name, { status: 503, times: 100, headers: { "x-amzn-errortype": "ServiceUnavailableException" }, body: JSON.stringify({ message: "unavailable" }) });
    const before = seenOf(name).length;
    const r = await mood(name);
    fake.faults.delete(name);
    expect(r.status).toBe(502);
    expect(r.body.message).toContain(`Backend "${name}"`);
    const tries = seenOf(name).slice(before);
    expect(tries).toHaveLength(4);
    expect(tries[3]!.at - tries[0]!.at).toBeGreaterThanOrEqual(1000);
  }
  fake.faults.set("bd", { status: 403, times: 1, headers: { "x-amzn-errortype": "AccessDeniedException" }, body: JSON.stringify({ message: "not authorized to invoke this model" }) });
  const before = seenOf("bd").length;
  const r = await mood("bd");
  expect(r.status).toBe(502);
  expect(r.body.message).toMatch(/Backend "bd".*not authorized/);
  expect(seenOf("bd").length - before).toBe(1);
}, 40_000);

it("answers 502 naming the backend when the provider answers a malformed body", async () => {
  for (const [name, body] of [["g", { unexpected: true }], ["g", { candidates: [{ content: { parts: "text" } }] }], ["bd", { unexpected: true }]] as const) {
    fake.faults.set(name, { status: 200, times: 1, body: JSON.stringify(body) });
    const r = await mood(name);
    fake.faults.delete(name);
    expect(r.status).toBe(502);
    expect(r.body.message).toContain(`Backend "${name}"`);
  }
});

it("prices a route stage from the provider's reported usage", async () => {
  // L1 (g): the greedy output and its first-token probability; L0 (bd): one greedy call and 8 samples;
  // each call reports 10 + 2 tokens.
  for (const [name, provider, calls_] of [["g", "gemini", 2], ["bd", "bedrock", 9]] as const) {
    await calls.post("/calibration-profiles", { name: `cost-${name}`, backend: { provider: "client_evidence", name: "x", access_level: "L0" }, alpha: 0.3, strict_fingerprint: false });
    await calls.post(`/calibration-profiles/cost-${name}/examples`, { examples: Array.from({ length: 40 }, (_, i) => ({
      context: `s ${i}`, label: { stages: { [name]: "correct" } }, metadata: { evidence: { stage_confidence: { [name]: 0.5 } } },
    })) });
    const r = await calls.post("/evaluate", { context: "c", queries: { r: { type: "route", calibration_profile: `cost-${name}`, guarantee: "cost_budget", target_cents: 100, cascade: [{ backend: { provider, name } }] } } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.usage.backend_tokens, name).toBe(calls_ * 12);
    expect(r.body.answers.r.cost_cents, name).toBeCloseTo(0.5 + (1 * calls_ * 12) / 1000, 12);
  }
});

it("never shows a credential in a response or the service's log; AWS secrets never leave the service", () => {
  for (const key of [GEMINI_KEY, BEDROCK_KEY]) expect(fake.seen.some((s) => JSON.stringify(s.headers).includes(key))).toBe(true);
  const wire = JSON.stringify(fake.seen);
  for (const secret of [AWS_SECRET, CHAIN_SECRET]) expect(wire).not.toContain(secret);
  for (const secret of [GEMINI_KEY, BEDROCK_KEY, AWS_SECRET, AWS_ID, CHAIN_SECRET]) {
    for (const b of calls.bodies) expect(b).not.toContain(secret);
    expect(server.stderr()).not.toContain(secret);
  }
});

// generate() through the OpenAI-compatible adapter, against loopback servers backed by the real stories260K:
// one answering `n` choices with log-probabilities in vLLM's shape (legacy logprobs, `stop_reason`), one
// answering a single choice whatever `n` is, in llama.cpp's `logprobs.content` shape, and `calibkit serve-model`.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLlamaCppAdapter, createOpenAICompatibleAdapter, defaultModelsDir, startModelServer,
  type GenerationResult, type LlamaCppModelAdapter, type ModelAdapter, type ModelServer,
} from "../../src/adapters/index.js";

const PROMPT = "Once upon a time, there was a little girl named Lily. She";
let model: LlamaCppModelAdapter;
const servers: Server[] = [];
const adapters: ModelAdapter[] = [];
let serveModel: ModelServer;

type Json = Record<string, unknown>;
type Shape = "vllm" | "llama.cpp";
/** Every /v1/completions body each fake server received. */
const received: Record<Shape, Json[]> = { vllm: [], "llama.cpp": [] };

async function body(req: IncomingMessage): Promise<Json> {
  let text = "";
  for await (const c of req) text += c;
  return text ? (JSON.parse(text) as Json) : {};
}

/** One choice from the real model, as vLLM (legacy shape, stop_reason) or llama.cpp's server (content shape) writes it. */
async function choice(shape: Shape, b: Json, index: number, seed: number): Promise<Json> {
  const k = typeof b.logprobs === "number" ? b.logprobs : 0;
  const stop = typeof b.stop === "string" ? [b.stop] : ((b.stop as string[] | undefined) ?? []);
  const out = await model.complete(String(b.prompt), {
    maxTokens: Number(b.max_tokens ?? 16), temperature: Number(b.temperature ?? 1), seed, stop, topLogprobs: Math.max(k, 1),
    ...(typeof b.top_p === "number" ? { topP: b.top_p } : {}),
  });
  // The model's own text drops a first piece's leading space; servers send the pieces' concatenation.
  const tokens = out.tokens;
  const full = tokens.map((t) => t.text).join("");
  const at = Math.min(...stop.map((s) => full.indexOf(s)).filter((i) => i >= 0));
  const text = Number.isFinite(at) ? full.slice(0, at) : full;
  const stopString = Number.isFinite(at) ? stop.find((s) => full.indexOf(s) === at) : undefined;
  const logprobs = b.logprobs === undefined || b.logprobs === null ? null : shape === "vllm"
    ? { tokens: tokens.map((t) => t.text), token_logprobs: tokens.map((t) => t.logprob), top_logprobs: tokens.map((t) => Object.fromEntries((t.top ?? []).slice(0, k).map((x) => [x.text, x.logprob]))) }
    : { content: tokens.map((t) => ({ token: t.text, logprob: t.logprob, top_logprobs: (t.top ?? []).slice(0, k).map((x) => ({ token: x.text, logprob: x.logprob })) })) };
  return {
    index, text, finish_reason: out.finishReason, logprobs,
    ...(shape === "vllm" ? { stop_reason: stopString ?? null } : {}),
  };
}

function startServer(shape: Shape): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      const b = await body(req);
      if (req.url === "/v1/models") return send(200, { data: [{ id: "stories260K" }] });
      if (req.url !== "/v1/completions") return send(404, { error: "not found" });
      if (b.echo === true || b.prompt_logprobs !== undefined) return send(400, { error: "no prompt log-probabilities here" });
      received[shape].push(b);
      const seed = Number(b.seed ?? 0);
      // vLLM draws n choices from the request's seed; llama.cpp's server answers one choice whatever n asks.
      const n = shape === "vllm" ? Number(b.n ?? 1) : 1;
      const choices = await Promise.all(Array.from({ length: n }, (_, i) => choice(shape, b, i, seed * 64 + i)));
      send(200, { object: "text_completion", model: "stories260K", choices });
    })().catch((err: unknown) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

let vllm: ModelAdapter;
let llamaServer: ModelAdapter;
let served: ModelAdapter;

beforeAll(async () => {
  model = await createLlamaCppAdapter({ modelPath: join(defaultModelsDir(), "stories260K.gguf"), gpu: false, embeddings: false });
  vllm = await createOpenAICompatibleAdapter({ baseUrl: await startServer("vllm") });
  llamaServer = await createOpenAICompatibleAdapter({ baseUrl: await startServer("llama.cpp") });
  serveModel = await startModelServer({ adapter: model });
  served = await createOpenAICompatibleAdapter({ baseUrl: serveModel.url });
  adapters.push(vllm, llamaServer, served);
});
afterAll(async () => {
  for (const a of adapters) await a.dispose();
  for (const s of servers) await new Promise((r) => s.close(r));
  await serveModel?.close();
  await model.dispose();
});

/** Same answers; log-probabilities equal to float32 rounding (concurrent requests batch differently on the model, 1e-4 apart). */
function expectSame(a: GenerationResult, b: GenerationResult): void {
  const all = (r: GenerationResult) => [r.greedy, ...r.samples];
  expect(all(a).map((s) => [s.text, s.tokens, s.finishReason])).toEqual(all(b).map((s) => [s.text, s.tokens, s.finishReason]));
  all(a).forEach((s, i) => s.logProbs?.forEach((lp, j) => expect(Math.abs(lp - all(b)[i]!.logProbs![j]!)).toBeLessThan(1e-3)));
}

const OPTIONS = { samples: 4, seed: 3, maxTokens: 24, topLogprobs: 2, stop: ["."] };

describe("generate on OpenAI-compatible servers", () => {
  it("vLLM's shape: the greedy request at temperature 0 and one request with n = K, log-probabilities parsed", async () => {
    received.vllm.length = 0;
    const r = await vllm.generate(PROMPT, OPTIONS);
    expect(received.vllm).toHaveLength(2);
    const greedyBody = received.vllm.find((b) => b.temperature === 0)!;
    const samplesBody = received.vllm.find((b) => b.temperature !== 0)!;
    expect(greedyBody).toMatchObject({ prompt: PROMPT, max_tokens: 24, stop: ["."], logprobs: 2 });
    expect(greedyBody.n).toBeUndefined();
    expect(samplesBody).toMatchObject({ n: 4, seed: 3, temperature: 1, stop: ["."], logprobs: 2 });
    expect(r.samples).toHaveLength(4);
    const own = await model.complete(PROMPT, { temperature: 0, maxTokens: 24, stop: ["."], topLogprobs: 2 });
    expect(r.greedy.tokens).toEqual(own.tokens.slice(0, r.greedy.tokens.length).map((t) => t.text));
    r.greedy.logProbs!.forEach((lp, i) => expect(Math.abs(lp - own.tokens[i]!.logprob!)).toBeLessThan(1e-3));
    for (const s of [r.greedy, ...r.samples]) {
      expect(s.tokens.join("").startsWith(s.text)).toBe(true);
      expect(s.logProbs).toHaveLength(s.tokens.length);
      expect(s.topLogProbs).toHaveLength(s.tokens.length);
      for (const top of s.topLogProbs!) expect(Object.keys(top).length).toBeLessThanOrEqual(2);
      expect(s.text).not.toContain(".");
      expect(["stop", "length"]).toContain(s.finishReason);
      expect(s.entropies).toBeUndefined();
    }
    expect([r.greedy, ...r.samples].some((s) => s.finishReason === "stop")).toBe(true);
    expect(new Set(r.samples.map((s) => s.text)).size).toBeGreaterThan(1);
    expectSame(await vllm.generate(PROMPT, OPTIONS), r);
  });

  it("llama.cpp's shape, one choice whatever n: one request per sample from then on, deterministic by seed", async () => {
    received["llama.cpp"].length = 0;
    const r = await llamaServer.generate(PROMPT, OPTIONS);
    // The greedy request, the request with n (answered with one choice), then one per sample.
    expect(received["llama.cpp"]).toHaveLength(1 + 1 + 4);
    expect(new Set(received["llama.cpp"].filter((b) => b.n === undefined && b.temperature !== 0).map((b) => b.seed)).size).toBe(4);
    received["llama.cpp"].length = 0;
    const again = await llamaServer.generate(PROMPT, OPTIONS);
    expect(received["llama.cpp"]).toHaveLength(1 + 4);
    expectSame(again, r);
    // The content shape reads the same greedy answer as vLLM's legacy one.
    const v = await vllm.generate(PROMPT, OPTIONS);
    expectSame({ greedy: r.greedy, samples: [] }, { greedy: v.greedy, samples: [] });
    for (const s of r.samples) expect(s.logProbs).toHaveLength(s.tokens.length);
  });

  it("refuses what a server cannot give: full distributions and embeddings", async () => {
    await expect(vllm.generate(PROMPT, { fullDistribution: true })).rejects.toMatchObject({ code: "ACCESS_LEVEL_UNAVAILABLE" });
    await expect(vllm.generate(PROMPT, { embedding: true })).rejects.toMatchObject({ code: "ACCESS_LEVEL_UNAVAILABLE" });
  });

  it("calibkit serve-model takes n: one request for the samples, the greedy answer as the model's own", async () => {
    const r = await served.generate(PROMPT, { ...OPTIONS, samples: 3 });
    expect((served as unknown as { manyChoices: boolean }).manyChoices).toBe(true);
    expect(r.samples).toHaveLength(3);
    const local = await model.generate(PROMPT, { ...OPTIONS, samples: 0 });
    expect(r.greedy.tokens).toEqual(local.greedy.tokens);
    r.greedy.logProbs!.forEach((lp, i) => expect(Math.abs(lp - local.greedy.logProbs![i]!)).toBeLessThan(1e-3));
    expectSame(await served.generate(PROMPT, { ...OPTIONS, samples: 3 }), r);
    // top_k is sent only when it restricts anything, and serve-model refuses it by name.
    await expect(served.generate(PROMPT, { ...OPTIONS, samples: 2, topK: 5 })).rejects.toThrow(/top_k/);
  });
});

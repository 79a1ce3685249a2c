// The OpenAI-compatible adapter against loopback servers that answer as real ones do, backed by the real
// stories260K: one in the legacy logprobs shape (tokens / token_logprobs / top_logprobs), one in the newer
// `logprobs.content` shape with llama.cpp's /apply-template and no prompt log-probabilities (so L1, not L2),
// and one with vLLM's /tokenize and /detokenize taking chat messages.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLlamaCppAdapter, createOpenAICompatibleAdapter, defaultModelsDir, renderJinjaChat, type LlamaCppModelAdapter, type ModelAdapter,
} from "../../src/adapters/index.js";
import { readFileSync } from "node:fs";

const LILY = "Once upon a time, there was a little girl named Lily. She loved to play with her";
const CHATML = readFileSync(join(import.meta.dirname, "../../fixtures/chat-templates/chatml.jinja"), "utf8");
let model: LlamaCppModelAdapter;
const servers: Server[] = [];
const adapters: ModelAdapter[] = [];

type Shape = "legacy" | "content";
type Json = Record<string, unknown>;

async function body(req: IncomingMessage): Promise<Json> {
  let text = "";
  for await (const c of req) text += c;
  return text ? (JSON.parse(text) as Json) : {};
}

function chatml(messages: { role: string; content: string }[]): string {
  return renderJinjaChat(CHATML, messages as never, { addGenerationPrompt: true, date: new Date(0), specialTokens: {} });
}

/** A server that completes with the real model and answers log-probabilities in `shape`; it never echoes the prompt. */
function startServer(shape: Shape, extras: "apply-template" | "vllm" | "none"): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      const b = await body(req);
      if (req.url === "/v1/models") return send(200, { data: [{ id: "stories260K" }] });
      if (req.url === "/apply-template" && extras === "apply-template") return send(200, { prompt: chatml(b.messages as never) });
      if (req.url === "/tokenize" && extras === "vllm") {
        const text = b.messages ? chatml(b.messages as never) : String(b.prompt);
        return send(200, { tokens: [...Buffer.from(text, "utf8")], count: Buffer.byteLength(text) });
      }
      if (req.url === "/detokenize" && extras === "vllm") return send(200, { prompt: Buffer.from(b.tokens as number[]).toString("utf8") });
      if (req.url !== "/v1/completions") return send(404, { error: "not found" });
      const k = typeof b.logprobs === "number" ? b.logprobs : 0;
      const maxTokens = Math.max(1, Number(b.max_tokens ?? 16));
      const out = await model.complete(String(b.prompt), { maxTokens, temperature: 0, topLogprobs: Math.max(k, 1) });
      const tokens = out.tokens;
      const logprobs = b.logprobs === undefined || b.logprobs === null ? null : shape === "legacy"
        ? { tokens: tokens.map((t) => t.text), token_logprobs: tokens.map((t) => t.logprob), top_logprobs: tokens.map((t) => Object.fromEntries((t.top ?? []).slice(0, k).map((x) => [x.text, x.logprob]))) }
        : { content: tokens.map((t) => ({ token: t.text, logprob: t.logprob, top_logprobs: (t.top ?? []).slice(0, k).map((x) => ({ token: x.text, logprob: x.logprob })) })) };
      send(200, { choices: [{ index: 0, text: out.text, finish_reason: "length", logprobs }] });
    })().catch((err: unknown) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  servers.push(server);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

let legacy: ModelAdapter;
let content: ModelAdapter;
let vllm: ModelAdapter;

beforeAll(async () => {
  model = await createLlamaCppAdapter({ modelPath: join(defaultModelsDir(), "stories260K.gguf"), gpu: false });
  legacy = await createOpenAICompatibleAdapter({ baseUrl: await startServer("legacy", "none") });
  content = await createOpenAICompatibleAdapter({ baseUrl: await startServer("content", "apply-template") });
  vllm = await createOpenAICompatibleAdapter({ baseUrl: await startServer("content", "vllm") });
  adapters.push(legacy, content, vllm);
});
afterAll(async () => {
  for (const a of adapters) await a.dispose();
  for (const s of servers) await new Promise((r) => s.close(r));
  await model.dispose();
});

describe("OpenAI-compatible adapter: both logprobs shapes, honest levels, server-rendered chat", () => {
  it("detects L1 on both shapes: log-probabilities of generated tokens, none of the prompt", () => {
    expect(legacy.accessLevel).toBe("L1");
    expect(content.accessLevel).toBe("L1");
  });

  it("reads the same first-token log-probabilities from the legacy and the content shape, matching the model", async () => {
    const conts = [" toys", " doll", " dog"];
    const a = await legacy.firstTokenLogProbs(LILY, conts);
    const b = await content.firstTokenLogProbs(LILY, conts);
    expect(b).toEqual(a);
    const own = await model.firstTokenLogProbs(LILY, conts);
    // " toys" is the model's own continuation, so it is in the top 20 and its value is the model's exactly.
    expect(a[0]).toBeCloseTo(own[0]!, 4);
    expect(a[0]).toBeGreaterThan(a[2]!);
  });

  it("a server with /apply-template renders chat prompts itself; one without has no chat template", async () => {
    expect(legacy.hasChatTemplate).toBe(false);
    expect(content.hasChatTemplate).toBe(true);
    const r = await content.renderChat([{ role: "user", content: "Hi" }], { chatTemplate: "auto" });
    expect(r.text).toBe("<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
    expect(r.wrapperName).toBe("llama.cpp:/apply-template");
    await expect(legacy.renderChat([{ role: "user", content: "Hi" }], { chatTemplate: "auto" })).rejects.toThrow(/renders no chat template/);
  });

  it("a vLLM server renders through /tokenize with messages and /detokenize, and counts tokens", async () => {
    expect(vllm.hasChatTemplate).toBe(true);
    const r = await vllm.renderChat([{ role: "system", content: "S" }, { role: "user", content: "Hi" }], { chatTemplate: "auto" });
    expect(r.text).toBe("<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n");
    expect(r.wrapperName).toBe("vllm:/tokenize");
    expect(await vllm.countTokens("abc")).toBe(3);
  });
});

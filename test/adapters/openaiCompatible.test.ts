// The OpenAI-compatible adapter against a real `calibkit serve-model` process and a real text-only server.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let child: ChildProcess;
let serveUrl: string;
let textOnly: Server;
let textOnlyUrl: string;
let chatOnly: Server;
let chatOnlyUrl: string;

function startServeModel(): Promise<string> {
  child = spawn(process.execPath, ["bin/calibkit.js", "serve-model", "--model", "stories260K.gguf", "--port", "0"], {
    env: { ...process.env, CALIBKIT_FROM_SOURCE: "1" }, stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("serve-model printed no URL in 30 s")), 30_000);
    createInterface({ input: child.stdout! }).once("line", (line) => {
      clearTimeout(timer);
      const m = /^listening (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      m ? resolve(m[1]!) : reject(new Error(`unexpected first line: ${line}`));
    });
    child.once("exit", (code) => reject(new Error(`serve-model exited with ${code}`)));
  });
}

// serve-model starts before the adapters are imported, so its start-up overlaps with this file's imports.
const serving = startServeModel();
serving.catch(() => undefined);
const { AccessLevelError, createOpenAICompatibleAdapter, openAdapter } = await import("../../src/adapters/index.js");

beforeAll(async () => {
  // A server that answers completions with text only, ignoring logprobs and echo, like many hosted APIs.
  textOnly = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.url === "/v1/models") return res.end(JSON.stringify({ data: [{ id: "echo-less" }] }));
      const { seed = 0 } = JSON.parse(body) as { seed?: number };
      res.end(JSON.stringify({ choices: [{ index: 0, text: ` text ${seed % 7}`, finish_reason: "length", logprobs: null }] }));
    });
  });
  await new Promise<void>((r) => textOnly.listen(0, "127.0.0.1", r));
  textOnlyUrl = `http://127.0.0.1:${(textOnly.address() as AddressInfo).port}`;
  serveUrl = await serving;
  // A chat-only server: serve-model's chat and models routes passed through, /v1/completions answering 404.
  chatOnly = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      if (req.url !== "/v1/models" && req.url !== "/v1/chat/completions") {
        res.statusCode = 404;
        return res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
      }
      void fetch(`${serveUrl}${req.url}`, { method: req.method, body: req.method === "POST" ? body : undefined }).then(async (upstream) => {
        res.statusCode = upstream.status;
        res.setHeader("content-type", "application/json");
        res.end(await upstream.text());
      });
    });
  });
  await new Promise<void>((r) => chatOnly.listen(0, "127.0.0.1", r));
  chatOnlyUrl = `http://127.0.0.1:${(chatOnly.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  child?.kill("SIGTERM");
  await new Promise<void>((r) => textOnly.close(() => r()));
  await new Promise<void>((r) => chatOnly.close(() => r()));
});

describe("OpenAI-compatible adapter", () => {
  it("detects L2 against calibkit serve-model and scores like the local model", async () => {
    await using adapter = await createOpenAICompatibleAdapter({ baseUrl: serveUrl });
    expect([adapter.provider, adapter.model, adapter.accessLevel]).toEqual(["openai-compatible", "stories260K.gguf", "L2"]);
    const prefix = "Once upon a time, there was a little girl named Lily. She loved to play with her";
    const [[toys, doll, dog]] = (await adapter.scoreContinuations([{ prefix, continuations: [" toys", " doll", " dog"] }])) as [[number, number, number]];
    expect(toys).toBeGreaterThan(Math.max(doll, dog));
    const first = await adapter.firstTokenLogProbs(prefix, [" toys", " doll"]);
    expect(first.every((x) => x < 0)).toBe(true);
    expect(await adapter.sample("Once upon a time", 3, { seed: 2, maxTokens: 6 })).toHaveLength(3);
  });

  it("detects L0 against a text-only server, and refuses a higher hint's work with a typed error", async () => {
    await using adapter = await openAdapter(textOnlyUrl);
    expect(adapter.accessLevel).toBe("L0");
    expect(await adapter.sample("hi", 4)).toHaveLength(4);
    await expect(adapter.firstTokenLogProbs("hi", [" a", " b"])).rejects.toBeInstanceOf(AccessLevelError);
  });

  it("falls back to chat completions on a chat-only server and still finds its level (L1)", async () => {
    await using adapter = await createOpenAICompatibleAdapter({ baseUrl: chatOnlyUrl });
    expect([adapter.model, adapter.accessLevel]).toEqual(["stories260K.gguf", "L1"]);
    const direct = await (await fetch(`${chatOnlyUrl}/v1/chat/completions`, {
      method: "POST", body: JSON.stringify({ messages: [{ role: "user", content: "Tell me a story" }], max_tokens: 1, temperature: 0, logprobs: true, top_logprobs: 1 }),
    })).json() as { choices: [{ logprobs: { content: [{ top_logprobs: [{ token: string; logprob: number }] }] } }] };
    const top = direct.choices[0].logprobs.content[0].top_logprobs[0];
    const [likely, unlikely] = (await adapter.firstTokenLogProbs("Tell me a story", [top.token, "zzz"])) as [number, number];
    expect(likely).toBeCloseTo(top.logprob, 12);
    expect(unlikely).toBeLessThan(likely);
    const samples = await adapter.sample("Tell me a story", 3, { seed: 2, maxTokens: 6 });
    expect(samples).toHaveLength(3);
    expect(samples.some((s) => s.length > 0)).toBe(true);
    // The same seed gives the same samples through the chat endpoint.
    expect(await adapter.sample("Tell me a story", 3, { seed: 2, maxTokens: 6 })).toEqual(samples);
    await expect(adapter.scoreContinuations([{ prefix: "a", continuations: ["b"] }])).rejects.toBeInstanceOf(AccessLevelError);
  });

  it("serve-model answers /v1/models and rejects a bad body with 400", async () => {
    const models = await (await fetch(`${serveUrl}/v1/models`)).json() as { data: { id: string }[] };
    expect(models.data[0]!.id).toBe("stories260K.gguf");
    const bad = await fetch(`${serveUrl}/v1/completions`, { method: "POST", body: JSON.stringify({ prompt: 3 }) });
    expect(bad.status).toBe(400);
  });
});

// serve-model's slots, queue bound, disconnects and API key, through the official `openai` SDK against real
// serve-model processes on loopback.
import OpenAI from "openai";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServeModelHealth } from "../../src/api/index.js";
import { REPO, spawnCalibkit, type Spawned } from "../service/helpers.js";

const MODEL = `${REPO}../shared/models/stories260K.gguf`;
const M = "stories260K.gguf";
const KEY = "serve-model-test-key";
const LONG = { model: "stories260K.gguf", prompt: "Once upon a time", max_tokens: 1500, temperature: 1, ignore_eos: true } as OpenAI.CompletionCreateParamsNonStreaming & { ignore_eos: boolean };

let wide: Spawned;
let narrow: Spawned;

beforeAll(async () => {
  [wide, narrow] = await Promise.all([
    spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1", "--parallel", "4"], 60_000),
    spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1", "--parallel", "1", "--queue", "1", "--api-key", KEY], 60_000),
  ]);
}, 90_000);

afterAll(async () => {
  await Promise.all([wide?.stop(), narrow?.stop()]);
});

const health = async (s: Spawned): Promise<ServeModelHealth> => (await fetch(`${s.url}/health`)).json() as Promise<ServeModelHealth>;
const sdk = (s: Spawned, apiKey = KEY) => new OpenAI({ baseURL: `${s.url}/v1`, apiKey, maxRetries: 0 });

async function until<T>(what: string, probe: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(v)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("serve-model slots", () => {
  it("answers 8 concurrent requests on parallel slots, each as it answers alone", async () => {
    const client = sdk(wide);
    const ask = (seed: number) => client.chat.completions.create({
        model: M,
      messages: [{ role: "user", content: `Story number ${seed}` }], max_tokens: 40, seed, ignore_eos: true,
    } as OpenAI.ChatCompletionCreateParamsNonStreaming & { ignore_eos: boolean });
    let peak = 0;
    let running = true;
    const watcher = (async () => {
      while (running) {
        peak = Math.max(peak, (await health(wide)).slots.busy);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const together = await Promise.all(Array.from({ length: 8 }, (_, i) => ask(i)));
    running = false;
    await watcher;
    expect(together.map((r) => r.usage!.completion_tokens)).toEqual(Array(8).fill(40));
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(4);
    const alone = [];
    for (let i = 0; i < 8; i++) alone.push(await ask(i));
    expect(together.map((r) => r.choices[0]!.message.content)).toEqual(alone.map((r) => r.choices[0]!.message.content));
  });

  it("stops generating when a streaming client disconnects, freeing its slot", async () => {
    const client = sdk(narrow);
    const before = (await health(narrow)).completion_tokens_total;
    const stream = await client.completions.create({ ...LONG, stream: true });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.text) break;
    }
    stream.controller.abort();
    const after = await until("slot freed", () => health(narrow), (h) => h.in_flight === 0 && h.slots.busy === 0);
    expect(after.completion_tokens_total - before).toBeLessThan(LONG.max_tokens!);
    // The one slot (and the one queue place) serve the next request at once.
    const next = await client.completions.create({ model: M, prompt: "Once", max_tokens: 4 });
    expect(next.choices[0]!.finish_reason).toBeDefined();
  });

  it("answers 429 beyond the slots and the queue bound", async () => {
    const client = sdk(narrow);
    const results = await Promise.allSettled([0, 1, 2].map(() => client.completions.create({ ...LONG, max_tokens: 400 })));
    const rejected = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason as unknown);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toBeInstanceOf(OpenAI.RateLimitError);
    expect((rejected[0] as InstanceType<typeof OpenAI.RateLimitError>).code).toBe("rate_limit_exceeded");
  });

  it("requires the API key when one is set, and refuses to bind beyond loopback without one", async () => {
    const wrong = await sdk(narrow, "not-the-key").models.list().catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((await fetch(`${narrow.url}/v1/models`)).status).toBe(401);
    expect((await fetch(`${narrow.url}/health`)).status).toBe(200);
    const page = await sdk(narrow).models.list();
    expect(page.data[0]!.id).toBe("stories260K.gguf");
    const child = spawn(process.execPath, ["bin/calibkit.js", "serve-model", "--model", MODEL, "--host", "0.0.0.0"], {
      cwd: REPO, env: { ...process.env, CALIBKIT_FROM_SOURCE: "1", CALIBKIT_SERVE_MODEL_API_KEY: "" }, stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((r) => child.once("exit", r));
    expect(code).toBe(2);
    expect(stderr).toContain("--api-key");
  });
});

// `calibkit serve-model` driven by the official `openai` SDK, as a new user would: a real serve-model process
// on loopback serving stories260K with a ChatML template file.
import OpenAI from "openai";
import { getLlama } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAICompatibleAdapter, renderChatPrompt } from "../../src/adapters/index.js";
import { REPO, spawnCalibkit, type Spawned } from "../service/helpers.js";

const MODEL = `${REPO}../shared/models/stories260K.gguf`;
const CHATML = `${REPO}fixtures/chat-templates/chatml.jinja`;
const M = "stories260K.gguf";
const MESSAGES = [
  { role: "system" as const, content: "You tell short stories." },
  { role: "user" as const, content: "Tell me about Lily and her dog." },
];

let server: Spawned;
let client: OpenAI;

beforeAll(async () => {
  server = await spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1", "--chat-template", CHATML], 60_000);
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: "unused-on-loopback", maxRetries: 0 });
}, 90_000);

afterAll(async () => {
  await server?.stop();
});

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

describe("serve-model through the openai SDK", () => {
  it("lists the model with its context size and chat template", async () => {
    const models = [];
    for await (const m of client.models.list()) models.push(m as OpenAI.Models.Model & { context_length?: number; chat_template?: string });
    expect(models.map((m) => [m.id, m.context_length, m.chat_template])).toEqual([["stories260K.gguf", 2048, "file:chatml.jinja"]]);
    expect((await client.models.retrieve(M)).id).toBe(M);
    expect(await client.models.retrieve("gpt-4o").catch((e: unknown) => e)).toBeInstanceOf(OpenAI.NotFoundError);
  });

  it("completes with logprobs and echo, usage counting real tokens", async () => {
    const prompt = "Once upon a time";
    const res = await client.completions.create({ model: M, prompt, max_tokens: 12, logprobs: 3, seed: 4, temperature: 0.8 });
    const choice = res.choices[0]!;
    expect(choice.logprobs!.tokens!.join("")).toBe(choice.text);
    // The top 3 and the chosen token, as OpenAI documents: 3 entries, or 4 when the chosen one is not among them.
    choice.logprobs!.top_logprobs!.forEach((top, i) => {
      expect(top[choice.logprobs!.tokens![i]!]).toBe(choice.logprobs!.token_logprobs![i]);
      expect(Object.keys(top).length).toBe(Object.values(top).filter((lp) => lp > choice.logprobs!.token_logprobs![i]!).length >= 3 ? 4 : 3);
    });
    expect(res.usage!.completion_tokens).toBe(choice.logprobs!.tokens!.length);
    const echoed = await client.completions.create({ model: M, prompt, max_tokens: 0, echo: true, logprobs: 0 });
    // One echoed entry per prompt token, BOS included (its text is ""), as usage counts them.
    expect(echoed.choices[0]!.logprobs!.tokens!.join("")).toBe(prompt);
    expect(echoed.choices[0]!.logprobs!.tokens![0]).toBe("");
    expect(res.usage!.prompt_tokens).toBe(echoed.choices[0]!.logprobs!.tokens!.length);
    expect(res.usage!.total_tokens).toBe(res.usage!.prompt_tokens + res.usage!.completion_tokens);
  });

  it("answers chat completions with logprobs and top_logprobs in the logprobs.content shape", async () => {
    const res = await client.chat.completions.create({
        model: M,
      messages: MESSAGES, max_completion_tokens: 10, logprobs: true, top_logprobs: 5, seed: 7,
    });
    const choice = res.choices[0]!;
    expect(choice.message.role).toBe("assistant");
    const content = choice.logprobs!.content!;
    expect(content.map((c) => c.token).join("")).toBe(choice.message.content);
    expect(content).toHaveLength(res.usage!.completion_tokens);
    for (const c of content) {
      expect(c.top_logprobs).toHaveLength(5);
      expect(c.bytes).toEqual([...Buffer.from(c.token)]);
      // The alternatives come most probable first, and the chosen token is no more probable than the first.
      expect(c.top_logprobs[0]!.logprob).toBeGreaterThanOrEqual(c.logprob - 1e-9);
    }
    expect(["stop", "length"]).toContain(choice.finish_reason);
  });

  it("renders chat prompts byte for byte as the prompts renderer does", async () => {
    const llama = await getLlama({ gpu: false });
    const model = await llama.loadModel({ modelPath: MODEL });
    try {
      const expected = await renderChatPrompt(model, MESSAGES, { chatTemplate: { file: CHATML }, addGenerationPrompt: true });
      const served = await (await fetch(`${server.url}/apply-template`, { method: "POST", body: JSON.stringify({ messages: MESSAGES }) })).json() as { prompt: string };
      expect(Buffer.from(served.prompt)).toEqual(Buffer.from(expected.text));
      expect(expected.text).toContain("<|im_start|>assistant\n");
      // The tokens the model is given are the renderer's: same count, and greedy chat equals greedy completion on them.
      const chat = await client.chat.completions.create({ model: M, messages: MESSAGES, max_tokens: 12, temperature: 0, logprobs: true });
      expect(chat.usage!.prompt_tokens).toBe(expected.tokens.length);
      const completion = await client.completions.create({ model: M, prompt: [...expected.tokens], max_tokens: 12, temperature: 0, logprobs: 0 });
      expect(chat.choices[0]!.message.content).toBe(completion.choices[0]!.text);
      expect(chat.choices[0]!.logprobs!.content!.map((c) => c.logprob)).toEqual(completion.choices[0]!.logprobs!.token_logprobs);
      // calibkit's own adapter pointed at this server renders chat on it (llama.cpp's /apply-template), identically.
      await using remote = await createOpenAICompatibleAdapter({ baseUrl: server.url });
      expect(remote.hasChatTemplate).toBe(true);
      expect((await remote.renderChat(MESSAGES, { chatTemplate: "auto" })).text).toBe(expected.text);
    } finally {
      await model.dispose();
    }
  });

  it("streams completions: chunks arrive and join to the non-streamed text with the same seed", async () => {
    const body = { model: M, prompt: "Once upon a time", max_tokens: 24, seed: 11, temperature: 1, stop: [" dog"] };
    const whole = await client.completions.create(body);
    const chunks = await collect(await client.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }));
    const texts = chunks.flatMap((c) => c.choices.map((ch) => ch.text));
    expect(texts.filter((t) => t !== "").length).toBeGreaterThan(1);
    expect(texts.join("")).toBe(whole.choices[0]!.text);
    expect(chunks.flatMap((c) => c.choices).at(-1)!.finish_reason).toBe(whole.choices[0]!.finish_reason);
    expect(chunks.at(-1)!.usage).toEqual(whole.usage);
  });

  it("streams chat completions with logprobs, joining to the non-streamed message, usage last", async () => {
    const body = { model: M, messages: MESSAGES, max_tokens: 24, seed: 3, logprobs: true, top_logprobs: 2 } as const;
    const whole = await client.chat.completions.create(body);
    const chunks = await collect(await client.chat.completions.create({ ...body, stream: true, stream_options: { include_usage: true } }));
    const deltas = chunks.flatMap((c) => c.choices);
    expect(deltas[0]!.delta.role).toBe("assistant");
    expect(deltas.map((d) => d.delta.content ?? "").join("")).toBe(whole.choices[0]!.message.content);
    const streamedLogprobs = deltas.flatMap((d) => d.logprobs?.content ?? []);
    expect(streamedLogprobs).toEqual(whole.choices[0]!.logprobs!.content);
    expect(deltas.at(-1)!.finish_reason).toBe(whole.choices[0]!.finish_reason);
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage).toEqual(whole.usage);
  });

  it("gives n choices, each the same as asked alone", async () => {
    const three = await client.chat.completions.create({ model: M, messages: MESSAGES, max_tokens: 8, n: 3, seed: 5 });
    expect(three.choices.map((c) => c.index)).toEqual([0, 1, 2]);
    const first = await client.chat.completions.create({ model: M, messages: MESSAGES, max_tokens: 8, n: 1, seed: 5 });
    expect(three.choices[0]!.message.content).toBe(first.choices[0]!.message.content);
    expect(three.usage!.completion_tokens).toBeGreaterThan(first.usage!.completion_tokens);
  });

  it("refuses unsupported parameters with a 400 naming them, in OpenAI's error shape", async () => {
    const refusals: [string, () => Promise<unknown>][] = [
      ["tools", () => client.chat.completions.create({ model: M, messages: MESSAGES, tools: [{ type: "function", function: { name: "f" } }] })],
      ["response_format", () => client.chat.completions.create({ model: M, messages: MESSAGES, response_format: { type: "json_object" } })],
      ["suffix", () => client.completions.create({ model: M, prompt: "Once", suffix: "end" })],
      ["messages[1].content[0].type", () => client.chat.completions.create({
        model: M,
        messages: [MESSAGES[0]!, { role: "user", content: [{ type: "image_url", image_url: { url: "data:," } }] }],
      })],
      ["top_k", () => client.chat.completions.create({ model: M, messages: MESSAGES, top_k: 3 } as OpenAI.ChatCompletionCreateParamsNonStreaming & { top_k: number })],
    ];
    for (const [param, call] of refusals) {
      const err = await call().then(() => undefined, (e: unknown) => e);
      expect(err, param).toBeInstanceOf(OpenAI.BadRequestError);
      const e = err as InstanceType<typeof OpenAI.BadRequestError>;
      expect([e.status, e.param], param).toEqual([400, param]);
      expect(e.message).toContain(param);
    }
    const wrongModel = await client.completions.create({ model: "gpt-4o", prompt: "x" }).catch((e: unknown) => e);
    expect(wrongModel).toBeInstanceOf(OpenAI.NotFoundError);
    const raw = async (path: string, body?: string) => {
      const res = await fetch(`${server.url}${path}`, body === undefined ? {} : { method: "POST", body });
      return [res.status, ((await res.json()) as { error: { param: string | null; code: string | null } }).error] as const;
    };
    expect(await raw("/v1/chat/completions", "{not json")).toEqual([400, expect.objectContaining({ code: "invalid_json", param: null })]);
    expect(await raw("/v1/chat/completions", "[1]")).toEqual([400, expect.objectContaining({ param: null })]);
    expect(await raw("/v1/models/%E0%A4%A")).toEqual([404, expect.objectContaining({ code: "model_not_found" })]);
    expect(await raw("/v1/embeddings", "{}")).toEqual([404, expect.objectContaining({ code: "not_found" })]);
  });

  it("honours stop, top_p, penalties and logit_bias on the full distribution", async () => {
    const prompt = "Once upon a time";
    const greedy = await client.completions.create({ model: M, prompt, max_tokens: 40, temperature: 0 });
    const stopped = await client.completions.create({ model: M, prompt, max_tokens: 40, temperature: 0, stop: [" the"] });
    expect(greedy.choices[0]!.text.startsWith(stopped.choices[0]!.text)).toBe(true);
    expect([stopped.choices[0]!.text.includes(" the"), stopped.choices[0]!.finish_reason]).toEqual([false, "stop"]);
    const nucleus = await client.completions.create({ model: M, prompt, max_tokens: 40, temperature: 1, top_p: 1e-6, seed: 9 });
    expect(nucleus.choices[0]!.text).toBe(greedy.choices[0]!.text);
    const penalised = await client.completions.create({ model: M, prompt, max_tokens: 40, temperature: 0, frequency_penalty: 2, presence_penalty: 1 });
    expect(penalised.choices[0]!.text).not.toBe(greedy.choices[0]!.text);
    // A +100 bias on token 300 makes it the greedy choice; its text is what echoing it alone gives.
    const token300 = (await client.completions.create({ model: M, prompt: [300], max_tokens: 0, echo: true })).choices[0]!.text;
    const forced = await client.completions.create({ model: M, prompt, max_tokens: 1, temperature: 0, logit_bias: { "300": 100 }, logprobs: 0 });
    expect(forced.choices[0]!.logprobs!.tokens![0]!.trim()).toBe(token300.trim());
    const outside = await client.completions.create({ model: M, prompt, logit_bias: { "512": 5 } }).catch((e: unknown) => e);
    expect((outside as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("logit_bias");
  });
});

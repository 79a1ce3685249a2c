// serve-model as lm-evaluation-harness's `local-completions` backend: the exact request bodies lm-eval sends, and
// what it reads back. The bodies and lm-eval's parsed answers below were produced by lm-eval's own code (commit
// 4e7e0d4, 0.4.13.dev0) against this server, with
//   calibkit serve-model --model ../shared/models/stories260K.gguf --threads 1   # prints `listening URL`
//   python3 test/adapters/reference/lmEvalReplay.py LM_EVAL_CHECKOUT URL
// The log-likelihoods are also checked against calibkit's own scorer (another code path on the same model).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLlamaCppAdapter, type LlamaCppModelAdapter } from "../../src/adapters/index.js";
import { REPO, spawnCalibkit, type Spawned } from "../service/helpers.js";

const MODEL = `${REPO}../shared/models/stories260K.gguf`;
const M = "stories260K.gguf";

let server: Spawned;
let adapter: LlamaCppModelAdapter;

beforeAll(async () => {
  server = await spawnCalibkit(["serve-model", "--model", MODEL, "--threads", "1"], 60_000);
  adapter = await createLlamaCppAdapter({ modelPath: MODEL, threads: 1, embeddings: false });
}, 90_000);

afterAll(async () => {
  await server?.stop();
  await adapter?.dispose();
});

interface Logprobs { tokens: string[]; token_logprobs: (number | null)[]; top_logprobs: (Record<string, number> | null)[]; text_offset: number[] }
interface Choice { index: number; text: string; finish_reason: string; logprobs: Logprobs | null }
interface Completion { choices: Choice[]; usage: { prompt_tokens: number; completion_tokens: number } }

async function post<T>(path: string, body: unknown): Promise<[number, T]> {
  const res = await fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return [res.status, (await res.json()) as T];
}

/** lm-eval's LocalCompletionsAPI.parse_logprobs, line for line. */
function parseLogprobs(out: Completion, ctxlens: number[]): [number, boolean][] {
  return [...out.choices].sort((a, b) => a.index - b.index).map((choice, i) => {
    const lps = choice.logprobs!.token_logprobs.slice(ctxlens[i]!, -1) as number[];
    const tops = choice.logprobs!.top_logprobs.slice(ctxlens[i]!, -1);
    const greedy = lps.every((lp, k) => lp === Math.max(...Object.values(tops[k]!)));
    return [lps.reduce((s, x) => s + x, 0), greedy];
  });
}

const LOGLIKELIHOOD = { model: M, temperature: 0, max_tokens: 1, logprobs: 1, seed: 1234, echo: true };
// lm-eval's (context, continuation) pairs as its _encode_pair splits them (a trailing space moves to the continuation).
const PAIRS: [string, string][] = [
  ["Once upon a time, there was a little girl named Lily. She", " went"],
  ["Lily and her mom went to the", " park to play"],
  ["One day,", " Tom saw a big dog."],
  ["", "Once upon a time"],
];
// Token ids from the remote tokenizer (/tokenize, add_special_tokens false); the empty context is lm-eval's prefix
// token, BOS. `ctxlens` and the parsed log-likelihoods are lm-eval's.
const REMOTE = [
  { prompt: [403, 407, 261, 378, 432, 383, 286, 261, 376, 298, 315, 421, 395, 317, 426, 338, 263, 377], ctxlen: 16, parsed: [-5.382476339337109, false] },
  { prompt: [317, 269, 311, 357, 263, 377, 267, 265, 282, 295, 433, 267, 337], ctxlen: 8, parsed: [-2.783557596339988, false] },
  { prompt: [385, 328, 432, 274, 287, 394, 261, 370, 400, 428, 426], ctxlen: 3, parsed: [-11.468497361451128, false] },
  { prompt: [1, 403, 407, 261, 378], ctxlen: 1, parsed: [-0.2741022342187859, true] },
] as const;
// The same pairs as the huggingface tokenizer with add_bos_token=True encodes them, in one batched request.
const WITH_BOS = {
  ctxlens: [17, 9, 4, 1],
  parsed: [[-5.479601741854666, false], [-3.3886247600914876, false], [-14.541406122325386, false], [-0.2741022342187859, true]],
};

function checkEcho(choice: Choice, prompt: readonly number[], generated: number): void {
  const lp = choice.logprobs!;
  // One entry per prompt token (BOS included), then the generated ones; null only for the very first.
  expect(lp.tokens).toHaveLength(prompt.length + generated);
  expect(lp.token_logprobs[0]).toBeNull();
  expect(lp.token_logprobs.slice(1).every((x) => typeof x === "number" && x <= 0)).toBe(true);
  expect(lp.top_logprobs[0]).toBeNull();
  expect(lp.top_logprobs.slice(1).every((t) => t !== null && Object.keys(t).length >= 1)).toBe(true);
  expect(lp.tokens.join("")).toBe(choice.text);
  expect(lp.text_offset[lp.text_offset.length - 1]).toBe(lp.tokens.slice(0, -1).join("").length);
}

describe("serve-model replaying lm-evaluation-harness's requests", () => {
  it("serves the remote tokenizer lm-eval detects: /tokenizer_info, /tokenize, /detokenize", async () => {
    const info = await (await fetch(`${server.url}/tokenizer_info`)).json();
    expect(info).toEqual({
      tokenizer_class: "GGUF (llama.cpp)", tokenizer_model: "llama", bos_token: "<s>", eos_token: "</s>", unk_token: "<unk>",
      pad_token: null, add_bos_token: true, add_eos_token: false, model_max_length: 2048,
    });
    // check_remote_tokenizer_support's probe, then RemoteTokenizer.bos_token_id / eos_token_id: encode(token)[0].
    const [status, probe] = await post<{ tokens: number[]; count: number; max_model_len: number }>("/tokenize", { prompt: "test", add_special_tokens: false });
    expect([status, probe]).toEqual([200, { tokens: [259, 411, 356], count: 3, max_model_len: 2048 }]);
    expect((await post<{ tokens: number[] }>("/tokenize", { prompt: "<s>", add_special_tokens: false }))[1].tokens).toEqual([1]);
    expect((await post<{ tokens: number[] }>("/tokenize", { prompt: "</s>", add_special_tokens: false }))[1].tokens).toEqual([2]);
    // vLLM's default adds BOS, as the completions endpoint does to a text prompt; token_strs are vocabulary entries.
    const [, withBos] = await post<{ tokens: number[]; token_strs: string[] }>("/tokenize", { model: M, prompt: "Once upon", return_token_strs: true });
    expect(withBos).toMatchObject({ tokens: [1, 403, 407], token_strs: ["<s>", "▁Once", "▁upon"] });
    expect(withBos.tokens).toEqual(adapter.tokenizePrompt("Once upon"));
    // Every pair's tokens are the in-process tokenizer's; decoding writes special tokens out, as Hugging Face's does.
    expect((await post("/detokenize", { tokens: REMOTE[0].prompt }))[1]).toEqual({ prompt: PAIRS[0]!.join("") });
    expect((await post("/detokenize", { model: M, tokens: [1, 403, 407, 2] }))[1]).toEqual({ prompt: "<s> Once upon</s>" });
    // Bad input gets a 400 naming the field.
    const refused = await post<{ error: { param: string } }>("/tokenize", { messages: [{ role: "user", content: "hi" }] });
    expect([refused[0], refused[1].error.param]).toEqual([400, "prompt"]);
    const chat = await post<{ error: { param: string } }>("/tokenize", { prompt: "hi", messages: [] });
    expect([chat[0], chat[1].error.param]).toEqual([400, "messages"]);
    const outside = await post<{ error: { param: string } }>("/detokenize", { tokens: [512] });
    expect([outside[0], outside[1].error.param]).toEqual([400, "tokens"]);
    expect((await post<{ error: { param: string } }>("/detokenize", { model: "gpt-4o", tokens: [1] }))[0]).toBe(404);
  });

  it("answers lm-eval's loglikelihood requests: one echoed entry per prompt token, BOS or not, one per request or batched", async () => {
    for (const r of REMOTE) {
      const [status, out] = await post<Completion>("/v1/completions", { ...LOGLIKELIHOOD, prompt: [r.prompt] });
      expect(status).toBe(200);
      checkEcho(out.choices[0]!, r.prompt, 1);
      expect(out.usage.prompt_tokens).toBe(r.prompt.length);
      const [ll, greedy] = parseLogprobs(out, [r.ctxlen])[0]!;
      expect(ll).toBeCloseTo(r.parsed[0], 9);
      expect(greedy).toBe(r.parsed[1]);
    }
    const batch = REMOTE.map((r) => (r.prompt[0] === 1 ? [...r.prompt] : [1, ...r.prompt]));
    const [, out] = await post<Completion>("/v1/completions", { ...LOGLIKELIHOOD, prompt: batch });
    expect(out.choices.map((c) => c.index)).toEqual([0, 1, 2, 3]);
    out.choices.forEach((c, i) => checkEcho(c, batch[i]!, 1));
    const parsed = parseLogprobs(out, WITH_BOS.ctxlens);
    parsed.forEach(([ll, greedy], i) => {
      expect(ll).toBeCloseTo(WITH_BOS.parsed[i]![0] as number, 9);
      expect(greedy).toBe(WITH_BOS.parsed[i]![1]);
    });
    // The same continuations scored by calibkit's prefix scorer (BOS first, as the model wants): the same numbers,
    // the first continuation token included (the BOS bug lost it: accuracy 0.81 → 0.63 on lm-eval's tasks).
    const own = await adapter.scoreContinuations(PAIRS.map(([prefix, c]) => ({ prefix, continuations: [c] })));
    // (within 2e-3: llama.cpp's sums differ in the last digits between batch shapes)
    own.forEach(([score], i) => expect(Math.abs(parsed[i]![0] - score!)).toBeLessThan(2e-3));
  });

  it("echoes with max_tokens 0 and 1, with and without BOS, text equal to its tokens' pieces", async () => {
    // The issue's own request: four tokens echoed, the one after BOS with its real log-probability.
    const [, zero] = await post<Completion>("/v1/completions", { prompt: [1, 317, 263, 377], max_tokens: 0, echo: true, logprobs: 0 });
    checkEcho(zero.choices[0]!, [1, 317, 263, 377], 0);
    expect(zero.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 0 });
    expect(zero.choices[0]!.logprobs!.tokens[0]).toBe("");
    const [, bare] = await post<Completion>("/v1/completions", { prompt: [317, 263, 377], max_tokens: 0, echo: true, logprobs: 0 });
    checkEcho(bare.choices[0]!, [317, 263, 377], 0);
    // Without BOS the first token's predictor is gone, the rest are conditioned differently; the text is the same.
    expect(bare.choices[0]!.text).toBe(zero.choices[0]!.text);
    const [, one] = await post<Completion>("/v1/completions", { prompt: [1, 317, 263, 377], max_tokens: 1, echo: true, logprobs: 2, temperature: 0 });
    checkEcho(one.choices[0]!, [1, 317, 263, 377], 1);
    expect(one.choices[0]!.logprobs!.token_logprobs.slice(0, 4)).toEqual(zero.choices[0]!.logprobs!.token_logprobs);
    // A text prompt gets BOS from the server; the echo is the prompt, its tokens' pieces joined.
    const [, text] = await post<Completion>("/v1/completions", { prompt: "Once upon a time", max_tokens: 3, echo: true, logprobs: 1, temperature: 0 });
    expect(text.choices[0]!.logprobs!.tokens.slice(0, 5).join("")).toBe("Once upon a time");
    checkEcho(text.choices[0]!, [1, 403, 407, 261, 378], text.usage.completion_tokens);
    // An end-of-sequence token that ends the completion is reported (text ""), so max_tokens 1 always gives one entry.
    const [, eos] = await post<Completion>("/v1/completions", { prompt: [1, 317, 263], max_tokens: 1, echo: true, logprobs: 1, logit_bias: { 2: 100 } });
    checkEcho(eos.choices[0]!, [1, 317, 263], 1);
    expect([eos.choices[0]!.finish_reason, eos.choices[0]!.logprobs!.tokens.at(-1), eos.usage.completion_tokens]).toEqual(["stop", "", 1]);
  });

  it("answers lm-eval's generate_until requests: the first word keeps its space, a stop string with a space stops it", async () => {
    const context = [403, 407, 261, 378, 432, 383, 286, 261, 376, 298, 315, 421, 395, 317, 426, 338];
    const untilThe = { prompt: [context], model: M, max_tokens: 40, temperature: 0.0, stop: [" the", "</s>"], seed: 1234 };
    const [, out] = await post<Completion>("/v1/completions", untilThe);
    // lm-eval's parse_generations reads `text`; its answer then (the replay script's output):
    expect(out.choices[0]!.text).toBe(" loved to play with her toys and her friends. One day, Lily's mommy told her that she was going to");
    expect(out.choices[0]!.finish_reason).toBe("stop");
    const [, untilBlank] = await post<Completion>("/v1/completions", { ...untilThe, max_tokens: 24, temperature: 0, stop: ["\n\n", "</s>"] });
    expect(untilBlank.choices[0]!.text).toBe(" loved to play with her toys and her friends. One day, Lily's mommy told");
    // The text is its tokens' pieces: in full without a stop, up to the stop string with one.
    const [, pieces] = await post<Completion>("/v1/completions", { ...untilThe, logprobs: 0 });
    const joined = pieces.choices[0]!.logprobs!.tokens.join("");
    expect(joined.startsWith(`${out.choices[0]!.text} the`)).toBe(true);
    const [, full] = await post<Completion>("/v1/completions", { ...untilThe, stop: [], max_tokens: 12, logprobs: 0 });
    expect(full.choices[0]!.logprobs!.tokens.join("")).toBe(full.choices[0]!.text);
    // Streamed, the pieces join to the same text.
    const res = await fetch(`${server.url}/v1/completions`, { method: "POST", body: JSON.stringify({ ...untilThe, stream: true, logprobs: 0 }) });
    const events = (await res.text()).split("\n\n").filter((e) => e.startsWith("data: {")).map((e) => JSON.parse(e.slice(6)) as Completion);
    const streamed = events.flatMap((e) => e.choices);
    expect(streamed.map((c) => c.text).join("")).toBe(out.choices[0]!.text);
    expect(streamed.flatMap((c) => c.logprobs?.tokens ?? []).join("")).toBe(joined);
    // calibkit's own sampler gives the same text for the same greedy continuation (llamaSampling.ts).
    const prompt = "Once upon a time, there was a little girl named Lily. She";
    const [sampled] = await adapter.sample(prompt, 1, { temperature: 0, maxTokens: 12 });
    const [, served] = await post<Completion>("/v1/completions", { prompt, max_tokens: 12, temperature: 0 });
    expect(sampled).toBe(served.choices[0]!.text);
    expect(sampled!.startsWith(" loved")).toBe(true);
  });
});

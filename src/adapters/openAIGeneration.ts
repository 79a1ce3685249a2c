// Generation on an OpenAI-compatible server: the greedy answer is one request at temperature 0; the K samples
// are one request with `n` = K where the server answers that many choices (vLLM, SGLang, serve-model), else
// one request per sample, each with its own seed. Log-probabilities are read in either shape (openAILogprobs).
import type { CompletionResponse } from "../api/index.js";
import { AdapterError } from "./errors.js";
import type { GenerationSettings } from "./generatedSequence.js";
import { sampleSeed } from "./seededSampler.js";
import { legacyLogprobs } from "./openAILogprobs.js";
import type { GeneratedSequence, GenerationResult } from "./types.js";

type Choice = CompletionResponse["choices"][number];

export interface GenerationServer {
  /** One completion request (the adapter adds the model and the rendered-prompt fields). */
  post(body: Record<string, unknown>): Promise<CompletionResponse>;
  /** Requests in flight at once. */
  concurrency: number;
  /** Whether the server answers `n` choices: undefined until the first sampling request finds out. */
  manyChoices: boolean | undefined;
  /** L1+: ask for token log-probabilities. */
  logprobs: boolean;
}

/** The first stop string in `text`, as an index; -1 when none is there. */
function stopAt(text: string, stop: readonly string[]): number {
  let at = -1;
  for (const s of stop) {
    const i = s.length > 0 ? text.indexOf(s) : -1;
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at;
}

/**
 * One choice as a GeneratedSequence. The text is cut again at the stops (a server may have ignored them), and
 * only the tokens that begin before the cut are kept, as on the local engines. A server's "stop" is a stop
 * string where vLLM's `stop_reason` names one or, without that field, where tokens follow the cut; else EOS.
 */
export function sequenceOfChoice(choice: Choice, s: GenerationSettings, logprobs: boolean): GeneratedSequence {
  const cut = stopAt(choice.text, s.stop);
  const text = cut >= 0 ? choice.text.slice(0, cut) : choice.text;
  const lp = legacyLogprobs(choice.logprobs);
  const out: GeneratedSequence = { text, tokens: [], finishReason: "eos" };
  if (!lp && logprobs) throw new AdapterError("the server answered a choice without the log-probabilities asked for");
  // A server may send a first piece's leading space in the tokens but not in the text (serve-model does).
  const joined = lp?.tokens.join("") ?? "";
  const lead = joined.length - joined.trimStart().length;
  const end = text.length + (!joined.startsWith(text) && joined.slice(lead).startsWith(text) ? lead : 0);
  let kept = 0;
  for (let start = 0; lp && kept < lp.tokens.length && start < end; kept++) start += lp.tokens[kept]!.length;
  // "stop" covers EOS and stop strings alike: vLLM's stop_reason tells them apart, else tokens past the cut do.
  const stopReason = (choice as { stop_reason?: unknown }).stop_reason;
  const pastCut = lp !== undefined && kept < lp.tokens.length;
  out.finishReason = cut >= 0 || typeof stopReason === "string" || (stopReason === undefined && choice.finish_reason === "stop" && pastCut)
    ? "stop" : choice.finish_reason === "length" ? "length" : "eos";
  if (!lp) return out;
  out.tokens = lp.tokens.slice(0, kept);
  out.logProbs = lp.token_logprobs.slice(0, kept).map((x) => x ?? -Infinity);
  if (s.topLogprobs > 0) {
    out.topLogProbs = (lp.top_logprobs ?? []).slice(0, kept).map((top) =>
      Object.fromEntries(Object.entries(top ?? {}).sort((a, b) => b[1] - a[1]).slice(0, s.topLogprobs)));
    while (out.topLogProbs.length < kept) out.topLogProbs.push({});
  }
  return out;
}

async function pooled<R>(count: number, limit: number, fn: (i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return out;
}

export async function generateOnServer(server: GenerationServer, prompt: string, s: GenerationSettings): Promise<GenerationResult> {
  const common: Record<string, unknown> = {
    prompt, max_tokens: s.maxTokens, ...(s.stop.length > 0 ? { stop: s.stop } : {}),
    // llama.cpp's server sends no log-probabilities for `logprobs: 0`, so at least one alternative is asked for.
    ...(server.logprobs ? { logprobs: Math.max(1, s.topLogprobs) } : {}),
  };
  const sampling: Record<string, unknown> = {
    ...common, temperature: s.temperature, ...(s.topP < 1 ? { top_p: s.topP } : {}), ...(s.topK > 0 ? { top_k: s.topK } : {}),
  };
  const read = (res: CompletionResponse) => res.choices.map((c) => sequenceOfChoice(c, s, server.logprobs));
  const greedyCall = server.post({ ...common, temperature: 0 }).then((res) => read(res)[0]!);
  const samplesCall = (async (): Promise<GeneratedSequence[]> => {
    if (s.samples === 0) return [];
    let got: GeneratedSequence[] = [];
    if (server.manyChoices !== false && s.samples > 1) {
      const res = await server.post({ ...sampling, n: s.samples, seed: s.seed }).catch((err: unknown) => {
        // A server that refuses `n` (a 4xx) is asked once per sample instead, from then on.
        if (server.manyChoices === undefined && (err as { httpStatus?: number }).httpStatus !== undefined
          && (err as { httpStatus: number }).httpStatus < 500) return undefined;
        throw err;
      });
      const choices = res ? [...res.choices].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)) : [];
      server.manyChoices = choices.length >= s.samples;
      if (server.manyChoices) got = choices.slice(0, s.samples).map((c) => sequenceOfChoice(c, s, server.logprobs));
    }
    if (got.length === s.samples) return got;
    return pooled(s.samples, server.concurrency, async (i) =>
      read(await server.post({ ...sampling, seed: sampleSeed(s.seed, i) }))[0]!);
  })();
  const [greedy, samples] = await Promise.all([greedyCall, samplesCall]);
  return { greedy, samples };
}

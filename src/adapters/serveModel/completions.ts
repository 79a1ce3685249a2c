// POST /v1/completions: one or several prompts (text or token ids), n choices each, optional echo with the
// prompt's log-probabilities, answered as one JSON body or streamed as Server-Sent Events.
import type { ServerResponse } from "node:http";
import {
  completionRequestSchema, usageOf, type CompletionChunk, type CompletionLogprobs, type CompletionRequest,
} from "../../api/index.js";
import type { CompletionToken } from "../llamaCompletion.js";
import type { LlamaCppModelAdapter } from "../llamaCppAdapter.js";
import {
  checkModel, checkPrompt, choiceSeed, nowSeconds, parseRequest, responseId, samplingOf, streamingHook, type Tally,
} from "./generation.js";
import { SseStream } from "./sse.js";

/** OpenAI's legacy default: a completion is 16 tokens unless asked otherwise. */
const DEFAULT_MAX_TOKENS = 16;

/** The top alternatives and the token itself, as OpenAI and vLLM answer (up to `logprobs` + 1 entries). */
function topRecord(token: CompletionToken): Record<string, number> | null {
  if (token.logprob === null) return null;
  const out: Record<string, number> = {};
  for (const t of token.top ?? []) if (!(t.text in out)) out[t.text] = t.logprob;
  if (!(token.text in out)) out[token.text] = token.logprob;
  return out;
}

/** Log-probabilities in the completions shape, text offsets counted from `offset`. */
function logprobsOf(tokens: readonly CompletionToken[], offset: number): CompletionLogprobs {
  const offsets: number[] = [];
  let at = offset;
  for (const t of tokens) {
    offsets.push(at);
    at += t.text.length;
  }
  return {
    tokens: tokens.map((t) => t.text),
    token_logprobs: tokens.map((t) => t.logprob),
    top_logprobs: tokens.map(topRecord),
    text_offset: offsets,
  };
}

/** Token ids are taken as given (BOS only where the client put one, as vLLM does); text gets BOS where the model wants it. */
function promptsOf(adapter: LlamaCppModelAdapter, prompt: CompletionRequest["prompt"]): { tokens: number[] }[] {
  if (typeof prompt === "string") return [{ tokens: adapter.tokenizePrompt(prompt) }];
  if (prompt.every((p) => typeof p === "number")) return [{ tokens: prompt as number[] }];
  return (prompt as (string | number[])[]).map((p) => ({ tokens: typeof p === "string" ? adapter.tokenizePrompt(p) : p }));
}

export async function serveCompletions(adapter: LlamaCppModelAdapter, raw: unknown, signal: AbortSignal, res: ServerResponse, tally: Tally): Promise<unknown> {
  const body = parseRequest(completionRequestSchema, raw);
  checkModel(adapter, body.model);
  const n = body.n ?? 1;
  const maxTokens = body.max_tokens ?? DEFAULT_MAX_TOKENS;
  const prompts = promptsOf(adapter, body.prompt);
  prompts.forEach((p, i) => checkPrompt(adapter, p.tokens, maxTokens, prompts.length > 1 ? `prompt[${i}]` : "prompt", "max_tokens"));
  const sampling = samplingOf(adapter, body);
  const echo = body.echo ?? false;
  const wantLogprobs = body.logprobs !== undefined;
  const id = responseId("cmpl");
  const created = nowSeconds();
  const stream = body.stream ? new SseStream(res) : undefined;
  const withUsage = body.stream_options?.include_usage === true;
  const chunk = (choices: CompletionChunk["choices"]): CompletionChunk =>
    ({ id, object: "text_completion", created, model: adapter.model, choices, ...(withUsage ? { usage: null } : {}) });
  const choices = [];
  let promptCount = 0;
  let completionCount = 0;
  for (const [pi, p] of prompts.entries()) {
    promptCount += p.tokens.length;
    for (let j = 0; j < n; j++) {
      const index = pi * n + j;
      let offset = 0;
      const hook = stream && streamingHook(sampling.stop, (text, tokens) => {
        stream.send(chunk([{ index, text, finish_reason: null, logprobs: wantLogprobs ? logprobsOf(tokens, offset) : null }]));
        offset += tokens.reduce((s, t) => s + t.text.length, 0);
      });
      const result = await adapter.complete(p.tokens, {
        ...sampling, seed: choiceSeed(sampling.seed, j), maxTokens, signal,
        topLogprobs: body.logprobs ?? body.prompt_logprobs ?? 0, echo: echo || body.prompt_logprobs !== undefined,
        // The echoed prompt is the choice's first piece: its own text with its tokens' log-probabilities.
        onPrompt: stream && echo ? (promptTokens) => {
          const text = promptTokens.map((t) => t.text).join("");
          stream.send(chunk([{ index, text, finish_reason: null, logprobs: wantLogprobs ? logprobsOf(promptTokens, 0) : null }]));
          offset = promptTokens.reduce((s, t) => s + t.text.length, 0);
        } : undefined,
        onToken: (token, soFar) => {
          tally.tokens++;
          if (hook) hook.onToken(token, soFar);
        },
      });
      // The end-of-sequence token is counted and reported, as vLLM does; its text is "".
      const ending = result.stopToken ? [result.stopToken] : [];
      completionCount += result.tokens.length + ending.length;
      tally.tokens += ending.length;
      // The echo is the prompt's tokens' pieces, so the text is always its tokens' pieces joined.
      const promptText = result.promptTokens.map((t) => t.text).join("");
      if (stream && hook) {
        const rest = hook.finish(result.text);
        stream.send(chunk([{ index, text: rest.text, finish_reason: result.finishReason, logprobs: wantLogprobs ? logprobsOf([...rest.tokens, ...ending], offset) : null }]));
        continue;
      }
      const shown = echo ? [...result.promptTokens, ...result.tokens, ...ending] : [...result.tokens, ...ending];
      choices.push({
        index,
        text: echo ? promptText + result.text : result.text,
        finish_reason: result.finishReason,
        logprobs: wantLogprobs ? logprobsOf(shown, 0) : null,
        ...(body.prompt_logprobs !== undefined
          ? { prompt_logprobs: [null, ...result.promptTokens.slice(1).map((t) => ({ [t.text]: t.logprob }))] }
          : {}),
      });
    }
  }
  const usage = usageOf(promptCount, completionCount);
  if (stream) {
    if (withUsage) stream.send({ ...chunk([]), usage });
    stream.done();
    return undefined;
  }
  return { id, object: "text_completion", created, model: adapter.model, choices, usage };
}

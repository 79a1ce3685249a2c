// POST /v1/chat/completions: the messages rendered by the chat renderer (the model's template or a Jinja
// file, the same renderer the evidence prompts use), then generation as on /v1/completions, answered as one
// chat.completion or streamed as chat.completion.chunk events.
import type { ServerResponse } from "node:http";
import {
  applyTemplateRequestSchema, chatCompletionRequestSchema, usageOf, type ApplyTemplateResponse, type ChatCompletionChunk, type ChatLogprobs, type ChatMessageWire,
} from "../../api/index.js";
import type { CompletionToken } from "../llamaCompletion.js";
import type { LlamaCppModelAdapter } from "../llamaCppAdapter.js";
import { ChatTemplateError } from "../errors.js";
import { ServeModelError } from "./errors.js";
import {
  checkModel, checkPrompt, choiceSeed, nowSeconds, parseRequest, responseId, samplingOf, streamingHook, type Tally,
} from "./generation.js";
import { SseStream } from "./sse.js";

export interface ChatTurn {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Renders a conversation, ending with the assistant's header (a last assistant turn is continued). */
export type ChatRenderer = (turns: ChatTurn[]) => Promise<{ text: string; tokens: number[] }>;

/** `developer` is OpenAI's newer name for `system`; templates know only the latter. */
const turnOf = (m: ChatMessageWire): ChatTurn => ({
  role: m.role === "developer" ? "system" : (m.role as ChatTurn["role"]),
  content: (m as { content?: string }).content ?? "",
});

const bytesOf = (text: string): number[] => [...Buffer.from(text, "utf8")];

function logprobsOf(tokens: readonly CompletionToken[]): ChatLogprobs {
  return {
    content: tokens.map((t) => ({
      token: t.text, logprob: t.logprob ?? 0, bytes: bytesOf(t.text),
      top_logprobs: (t.top ?? []).map((a) => ({ token: a.text, logprob: a.logprob, bytes: bytesOf(a.text) })),
    })),
    refusal: null,
  };
}

async function rendered(render: ChatRenderer, messages: ChatMessageWire[]): Promise<{ text: string; tokens: number[] }> {
  try {
    return await render(messages.map(turnOf));
  } catch (err) {
    // A template may refuse a conversation (roles out of order, a system turn it has no place for).
    if (err instanceof ChatTemplateError) throw new ServeModelError(400, err.message, { param: "messages", code: "invalid_chat_template", cause: err });
    throw err;
  }
}

/** POST /apply-template (llama.cpp's server): the prompt text chat completions would give the model. */
export async function serveApplyTemplate(render: ChatRenderer | undefined, raw: unknown): Promise<ApplyTemplateResponse> {
  const body = parseRequest(applyTemplateRequestSchema, raw);
  if (!render) throw new ServeModelError(400, "This server was started without a chat renderer", { param: "messages", code: "chat_unavailable" });
  return { prompt: (await rendered(render, body.messages)).text };
}

export async function serveChat(
  adapter: LlamaCppModelAdapter, render: ChatRenderer | undefined, raw: unknown, signal: AbortSignal, res: ServerResponse, tally: Tally,
): Promise<unknown> {
  const body = parseRequest(chatCompletionRequestSchema, raw);
  checkModel(adapter, body.model);
  if (!render) {
    throw new ServeModelError(400, "This server was started without a chat renderer; chat completions are not served", { param: "messages", code: "chat_unavailable" });
  }
  const { tokens } = await rendered(render, body.messages);
  const maxParam = body.max_completion_tokens !== undefined ? "max_completion_tokens" : "max_tokens";
  // Without a bound, a reply may fill the rest of the context, as OpenAI's default does.
  const maxTokens = body.max_completion_tokens ?? body.max_tokens ?? Math.max(1, adapter.contextSize - tokens.length);
  checkPrompt(adapter, tokens, maxTokens, "messages", maxParam);
  const sampling = samplingOf(adapter, body);
  const wantLogprobs = body.logprobs === true;
  const n = body.n ?? 1;
  const id = responseId("chatcmpl");
  const created = nowSeconds();
  const stream = body.stream ? new SseStream(res) : undefined;
  const withUsage = body.stream_options?.include_usage === true;
  const chunk = (choices: ChatCompletionChunk["choices"]): ChatCompletionChunk =>
    ({ id, object: "chat.completion.chunk", created, model: adapter.model, choices, ...(withUsage ? { usage: null } : {}) });
  const choices = [];
  let completionCount = 0;
  for (let index = 0; index < n; index++) {
    stream?.send(chunk([{ index, delta: { role: "assistant", content: "" }, finish_reason: null, logprobs: null }]));
    const hook = stream && streamingHook(sampling.stop, (text, pieceTokens) =>
      stream.send(chunk([{ index, delta: { content: text }, finish_reason: null, logprobs: wantLogprobs ? logprobsOf(pieceTokens) : null }])));
    const result = await adapter.complete(tokens, {
      ...sampling, seed: choiceSeed(sampling.seed, index), maxTokens, signal, topLogprobs: wantLogprobs ? body.top_logprobs ?? 0 : 0,
      onToken: (token, soFar) => {
        tally.tokens++;
        if (hook) hook.onToken(token, soFar);
      },
    });
    completionCount += result.tokens.length;
    if (stream && hook) {
      const rest = hook.finish(result.text);
      if (rest.text !== "" || rest.tokens.length > 0) {
        stream.send(chunk([{ index, delta: { content: rest.text }, finish_reason: null, logprobs: wantLogprobs ? logprobsOf(rest.tokens) : null }]));
      }
      stream.send(chunk([{ index, delta: {}, finish_reason: result.finishReason, logprobs: null }]));
      continue;
    }
    choices.push({
      index,
      message: { role: "assistant", content: result.text, refusal: null },
      logprobs: wantLogprobs ? logprobsOf(result.tokens) : null,
      finish_reason: result.finishReason,
    });
  }
  const usage = usageOf(tokens.length, completionCount);
  if (stream) {
    if (withUsage) stream.send({ ...chunk([]), usage });
    stream.done();
    return undefined;
  }
  return { id, object: "chat.completion", created, model: adapter.model, choices, usage };
}

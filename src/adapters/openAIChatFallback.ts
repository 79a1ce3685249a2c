// A chat-only server (no /v1/completions) still serves calibkit: a completion request is sent to
// /v1/chat/completions with the prompt as one user message, and the answer read back as a completion, so
// sampling (L0) and first-token log-probabilities (L1) work unchanged. Echo and prompt log-probabilities have
// no chat counterpart, so such a server is never L2.
import { chatCompletionResponseSchema, type CompletionResponse } from "../api/index.js";
import { AdapterError } from "./errors.js";

/** The chat request for a completion request; undefined when it asks for what chat cannot give. */
export function chatBodyFor(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const { prompt, logprobs, echo, prompt_logprobs: promptLogprobs, ...rest } = body;
  if (echo === true || promptLogprobs !== undefined || typeof prompt !== "string") return undefined;
  // max_tokens 0 (prompt scoring) has no chat counterpart either.
  if (rest.max_tokens === 0) return undefined;
  return {
    ...rest,
    messages: [{ role: "user", content: prompt }],
    ...(typeof logprobs === "number" ? { logprobs: true, top_logprobs: logprobs } : {}),
  };
}

/** A chat answer as the completion it stands for, log-probabilities in the legacy shape. */
export function completionFromChat(json: unknown, where: string): CompletionResponse {
  const parsed = chatCompletionResponseSchema.safeParse(json);
  if (!parsed.success) throw new AdapterError(`${where} answered an unexpected body`);
  return {
    ...parsed.data,
    choices: parsed.data.choices.map((c, i) => {
      const content = c.logprobs?.content;
      return {
        index: c.index ?? i,
        text: c.message.content ?? "",
        finish_reason: c.finish_reason ?? null,
        logprobs: content ? {
          tokens: content.map((t) => t.token),
          token_logprobs: content.map((t) => t.logprob),
          top_logprobs: content.map((t) => Object.fromEntries(t.top_logprobs.map((a) => [a.token, a.logprob]))),
        } : null,
      };
    }),
  };
}

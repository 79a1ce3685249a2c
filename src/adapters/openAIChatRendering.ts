// Chat prompts rendered by the server itself, with its own template: vLLM's POST /tokenize taking `messages`
// (then /detokenize for the text), or llama.cpp's server's POST /apply-template. Which one a server offers is
// found once at open.
import { promptResponseSchema, tokenizeResponseSchema } from "../api/index.js";
import { dateRenderParameters, DEFAULT_PINNED_DATE, pinTemplateDate } from "./chatDate.js";
import { readChatTemplateFile, type ChatMessage } from "./chatTemplate.js";
import { AdapterError, ChatTemplateError } from "./errors.js";
import type { ChatRenderOptions, RenderedChat } from "./types.js";

export type ServerChatRendering = "vllm-tokenize" | "llamacpp-apply-template" | "none";

/** What the renderer needs of the adapter: its model id, its server root and a JSON call. */
export interface ServerCaller {
  readonly model: string;
  readonly root: string;
  readonly chatRendering: ServerChatRendering;
  call(method: "GET" | "POST", path: string, body: unknown, signal?: AbortSignal, root?: string): Promise<unknown>;
}

export async function renderOnServer(s: ServerCaller, messages: readonly ChatMessage[], options: ChatRenderOptions): Promise<RenderedChat> {
  if (s.chatRendering === "none") throw new ChatTemplateError(`${s.root} renders no chat template (neither vLLM's /tokenize nor llama.cpp's /apply-template answered)`);
  const date = options.pinnedDate ?? DEFAULT_PINNED_DATE;
  const file = typeof options.chatTemplate === "object" ? pinTemplateDate(readChatTemplateFile(options.chatTemplate.file), date) : undefined;
  const plain = messages.map((m) => ({ role: m.role, content: m.content }));
  if (s.chatRendering === "vllm-tokenize") {
    const body = {
      model: s.model, messages: plain, add_generation_prompt: true, add_special_tokens: false,
      chat_template_kwargs: dateRenderParameters(date), ...(file ? { chat_template: file } : {}),
    };
    const tokens = tokenizeResponseSchema.parse(await s.call("POST", "/tokenize", body, undefined, s.root)).tokens;
    const text = promptResponseSchema.parse(await s.call("POST", "/detokenize", { model: s.model, tokens }, undefined, s.root)).prompt;
    return { text, wrapperName: "vllm:/tokenize", templateSource: `server:vllm:${s.model}\n\u0000${file ?? "own"}\n\u0000${date.toISOString()}` };
  }
  if (file) throw new ChatTemplateError("llama.cpp's server renders only the template it was started with (--chat-template-file there)");
  const text = promptResponseSchema.parse(await s.call("POST", "/apply-template", { messages: plain }, undefined, s.root)).prompt;
  return { text, wrapperName: "llama.cpp:/apply-template", templateSource: `server:llama.cpp:${s.model}\n\u0000own` };
}

/** Counts on vLLM's /tokenize, which serve-model answers too (without rendering chats there). */
export async function countOnServer(s: ServerCaller, text: string): Promise<number> {
  const body = { model: s.model, prompt: text, add_special_tokens: false };
  let answer: unknown;
  try {
    answer = await s.call("POST", "/tokenize", body, undefined, s.root);
  } catch (cause) {
    throw new AdapterError(`${s.root} cannot count tokens (no vLLM /tokenize); use --normalize chars or none`, cause);
  }
  const parsed = tokenizeResponseSchema.safeParse(answer);
  if (!parsed.success) throw new AdapterError(`${s.root} cannot count tokens (its /tokenize answered no token list); use --normalize chars or none`);
  return parsed.data.tokens.length;
}

/** Which chat rendering the server offers: vLLM's /tokenize taking messages, else llama.cpp's /apply-template. */
export async function probeChatRendering(s: Omit<ServerCaller, "chatRendering">): Promise<ServerChatRendering> {
  const messages = [{ role: "user", content: "Hello" }];
  const answers = async (path: string, body: unknown, schema: { safeParse: (x: unknown) => { success: boolean } }) => {
    try {
      return schema.safeParse(await s.call("POST", path, body, undefined, s.root)).success;
    } catch {
      // Any failure means "not offered": a server without the endpoint may answer 404, 405 or 500.
      return false;
    }
  };
  if (await answers("/tokenize", { model: s.model, messages, add_generation_prompt: true }, tokenizeResponseSchema)) return "vllm-tokenize";
  if (await answers("/apply-template", { messages }, promptResponseSchema)) return "llamacpp-apply-template";
  return "none";
}

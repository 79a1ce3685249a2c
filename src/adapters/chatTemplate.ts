// One chat-template renderer for GGUF models, shared by the evidence prompts and serve-model's
// /v1/chat/completions so both give the model byte-identical input. A Jinja template (a file, or the GGUF
// metadata's) is rendered as transformers renders it (jinjaChat.ts); a model with none gets node-llama-cpp's
// chat wrapper for its name and architecture (resolveChatWrapper).
// The rendered text is tokenized whole with special tokens parsed, as transformers, vLLM and llama.cpp's server
// do (tokenizing the template's pieces apart shifts SentencePiece word boundaries), and BOS appears exactly once.
import { readFileSync } from "node:fs";
import type { ChatHistoryItem, ChatWrapper, LlamaModel, LlamaText, Token } from "node-llama-cpp";
import { dateRenderParameters, DEFAULT_PINNED_DATE } from "./chatDate.js";
import { ChatTemplateError } from "./errors.js";
import { pinnedTemplate, renderJinjaChat } from "./jinjaChat.js";

export type ChatRole = "system" | "user" | "assistant";

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/** `auto`: the model's own template (GGUF metadata); `none`: the messages' text joined by blank lines; or a Jinja file. */
export type ChatTemplateSetting = "auto" | "none" | { file: string };

export interface RenderChatOptions {
  chatTemplate: ChatTemplateSetting;
  /**
   * True: end with the assistant header, ready for the answer (a trailing assistant message is continued,
   * not closed). False: render the messages as they are.
   */
  addGenerationPrompt: boolean;
  /** The date templates print as today's. Default 2024-07-26 (DEFAULT_PINNED_DATE), never the clock. */
  pinnedDate?: Date;
}

export interface RenderedChatPrompt {
  /** The prompt as text, special tokens written out (`<s>`, `<|im_start|>`). */
  text: string;
  /** What the model is given: the text tokenized with special tokens parsed, BOS once. */
  tokens: Token[];
  /** node-llama-cpp's wrapper name (`JinjaTemplate`, `Llama3_1`, …) or `none`. */
  wrapperName: string;
  /** What decided the rendering, for prompt_template_hash: the Jinja text, or the wrapper name with its settings. */
  templateSource: string;
}

/** The chat template in a GGUF file's metadata, if it has one (base models do not). */
export function modelChatTemplate(model: LlamaModel): string | undefined {
  const template = model.fileInfo.metadata?.tokenizer?.chat_template;
  return typeof template === "string" && template.length > 0 ? template : undefined;
}

/** Reads a Jinja template file; a clear error names the file. */
export function readChatTemplateFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (cause) {
    throw new ChatTemplateError(`Cannot read the chat template file ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
  }
}

type NodeLlamaCpp = typeof import("node-llama-cpp");
let loaded: Promise<NodeLlamaCpp> | undefined;
// Loaded on first use, as in the adapter, so that importing the adapters stays cheap.
const nodeLlamaCpp = (): Promise<NodeLlamaCpp> => (loaded ??= import("node-llama-cpp"));

// Wrappers are resolved once per model and date (resolving renders candidate templates several times).
const wrappers = new WeakMap<LlamaModel, Map<string, ChatWrapper>>();

async function resolveWrapper(model: LlamaModel, date: Date): Promise<ChatWrapper> {
  const key = date.toISOString();
  let perModel = wrappers.get(model);
  if (!perModel) wrappers.set(model, (perModel = new Map()));
  let wrapper = perModel.get(key);
  if (!wrapper) {
    const lib = await nodeLlamaCpp();
    const dated = { todayDate: date };
    wrapper = lib.resolveChatWrapper(model, {
      warningLogs: false, noJinja: true,
      customWrapperSettings: { "llama3.1": dated, "llama3.2-lightweight": dated },
    });
    perModel.set(key, wrapper);
  }
  return wrapper;
}

/** The Jinja template to render: the file's, else the model's own; undefined when neither exists. */
function jinjaTemplateFor(model: LlamaModel, setting: Exclude<ChatTemplateSetting, "none">): string | undefined {
  return typeof setting === "object" ? readChatTemplateFile(setting.file) : modelChatTemplate(model);
}

function chatHistory(messages: readonly ChatMessage[], addGenerationPrompt: boolean): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((m): ChatHistoryItem => {
    if (m.role === "assistant") return { type: "model", response: [m.content] };
    return m.role === "system" ? { type: "system", text: m.content } : { type: "user", text: m.content };
  });
  if (addGenerationPrompt && messages.at(-1)?.role !== "assistant") history.push({ type: "model", response: [] });
  return history;
}

/** The text of a rendered LlamaText, each builtin special token (BOS, EOS) written as its own text. */
function textOf(lib: NodeLlamaCpp, model: LlamaModel, rendered: LlamaText): string {
  return rendered.values.map((v) => {
    if (v instanceof lib.SpecialToken) return model.detokenize(v.tokenize(model.tokenizer), true);
    return typeof v === "string" ? v : v.value;
  }).join("");
}

/** BOS exactly once: kept where the template wrote it, added where the model wants one and the template did not. */
export function withSingleBos(model: LlamaModel, tokens: Token[]): Token[] {
  const bos = model.tokens.bos;
  if (bos === null) return tokens;
  let start = 0;
  while (tokens[start] === bos && tokens[start + 1] === bos) start++;
  const out = tokens.slice(start);
  if (out[0] !== bos && model.tokens.shouldPrependBosToken) out.unshift(bos);
  return out;
}

export async function renderChatPrompt(
  model: LlamaModel, messages: readonly ChatMessage[], options: RenderChatOptions,
): Promise<RenderedChatPrompt> {
  if (messages.length === 0) throw new ChatTemplateError("A chat prompt needs at least one message");
  const tokensOf = (text: string) => withSingleBos(model, model.tokenize(text, true));
  if (options.chatTemplate === "none") {
    const text = messages.map((m) => m.content).join("\n\n");
    return { text, tokens: withSingleBos(model, model.tokenize(text, false)), wrapperName: "none", templateSource: "none" };
  }
  const date = options.pinnedDate ?? DEFAULT_PINNED_DATE;
  const template = jinjaTemplateFor(model, options.chatTemplate);
  if (template !== undefined) {
    const specialTokens: Record<string, string> = {};
    if (model.tokens.bosString != null) specialTokens.bos_token = model.tokens.bosString;
    if (model.tokens.eosString != null) specialTokens.eos_token = model.tokens.eosString;
    const text = renderJinjaChat(template, messages, { addGenerationPrompt: options.addGenerationPrompt, date, specialTokens });
    const templateSource = `jinja:${pinnedTemplate(template, date)}\n\u0000${JSON.stringify({ ...specialTokens, ...dateRenderParameters(date) })}`;
    return { text, tokens: tokensOf(text), wrapperName: "JinjaTemplate", templateSource };
  }
  // No Jinja template anywhere: node-llama-cpp's wrapper for this model (from its name and architecture).
  const lib = await nodeLlamaCpp();
  const wrapper = await resolveWrapper(model, date);
  let contextText: LlamaText;
  try {
    ({ contextText } = wrapper.generateContextState({ chatHistory: chatHistory(messages, options.addGenerationPrompt) }));
  } catch (cause) {
    throw new ChatTemplateError(`The chat wrapper ${wrapper.wrapperName} cannot render these messages: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
  }
  const text = textOf(lib, model, contextText);
  const templateSource = `wrapper:${wrapper.wrapperName}\n\u0000${JSON.stringify(wrapper.settings)}\n\u0000date=${date.toISOString()}`;
  return { text, tokens: tokensOf(text), wrapperName: wrapper.wrapperName, templateSource };
}

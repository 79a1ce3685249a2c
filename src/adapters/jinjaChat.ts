// A Jinja chat template rendered the way transformers' `apply_chat_template` renders it (the engine is
// @huggingface/jinja, the one transformers.js and node-llama-cpp use), so a prompt here is byte-identical to
// what lm-evaluation-harness and vLLM give the same model. node-llama-cpp's own Jinja wrapper renders the
// generation prompt as an empty assistant message instead of `add_generation_prompt`, which differs on
// templates whose two branches differ (docs/prompts.md), so it is not used for rendering.
import { Template } from "@huggingface/jinja";
import { dateRenderParameters, pinTemplateDate } from "./chatDate.js";
import { ChatTemplateError } from "./errors.js";

export interface JinjaChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface JinjaChatOptions {
  addGenerationPrompt: boolean;
  date: Date;
  /** Special-token texts the template may print (`bos_token`, `eos_token`). */
  specialTokens: Record<string, string>;
}

const compiled = new Map<string, Template>();

function compile(template: string): Template {
  let t = compiled.get(template);
  if (!t) {
    try {
      t = new Template(template);
    } catch (cause) {
      throw new ChatTemplateError(`The chat template is not valid Jinja: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
    }
    if (compiled.size > 64) compiled.clear();
    compiled.set(template, t);
  }
  return t;
}

/** The template with its date pinned, as it is rendered and hashed. */
export function pinnedTemplate(template: string, date: Date): string {
  return pinTemplateDate(template, date);
}

/**
 * Renders `messages`. With the generation prompt asked for and a final assistant message, that message is
 * continued rather than closed (transformers' `continue_final_message`): the text stops right after its content.
 */
export function renderJinjaChat(template: string, messages: readonly JinjaChatMessage[], options: JinjaChatOptions): string {
  const continueFinal = options.addGenerationPrompt && messages.at(-1)?.role === "assistant";
  const t = compile(pinTemplateDate(template, options.date));
  let text: string;
  try {
    text = t.render({
      ...options.specialTokens,
      ...dateRenderParameters(options.date),
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      add_generation_prompt: options.addGenerationPrompt && !continueFinal,
    });
  } catch (cause) {
    throw new ChatTemplateError(`The chat template cannot render these messages: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
  }
  if (continueFinal) {
    const last = messages.at(-1)!.content.trim();
    const at = text.lastIndexOf(last);
    if (last.length === 0 || at < 0) throw new ChatTemplateError("The chat template does not print the final assistant message, so it cannot be continued");
    text = text.slice(0, at + last.length);
  }
  return text;
}

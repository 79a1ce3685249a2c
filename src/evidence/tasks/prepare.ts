// Generation prompts as the adapter is given them: a chat template rendered where one is in use (the model's
// own, or a template file without a model), exactly as multiple-choice prompts are.
import type { ModelAdapter } from "../../adapters/index.js";
import { PromptFormatError } from "../format/index.js";
import { renderTemplateFileChat } from "../format/resolve.js";
import { assembleGenerations } from "./assemble.js";
import type { GenerationPromptItem, GenerationPromptSettings } from "./types.js";

export interface PreparedGeneration {
  id: string;
  /** Exactly the text the model is given. */
  prompt: string;
  /** A rendered chat prompt: special-token text is parsed as special tokens. */
  rendered: boolean;
  /** Decoding stops at the first of these (not included in the answer). */
  until: string[];
  references: string[];
}

export async function prepareGenerations(
  items: readonly GenerationPromptItem[], settings: GenerationPromptSettings, adapter: ModelAdapter | undefined,
): Promise<PreparedGeneration[]> {
  const out: PreparedGeneration[] = [];
  for (const a of assembleGenerations(items, settings)) {
    let prompt: string;
    if (typeof a.prompt === "string") prompt = a.prompt;
    else if (adapter) prompt = (await adapter.renderChat(a.prompt, { chatTemplate: settings.chat!.template, ...(settings.pinnedDate ? { pinnedDate: settings.pinnedDate } : {}) })).text;
    else if (typeof settings.chat!.template === "object") prompt = renderTemplateFileChat(settings.chat!.template.file, a.prompt, settings.pinnedDate!);
    else throw new PromptFormatError("--chat-template auto needs --model (the template is the model's own)", "chat_template");
    out.push({ id: a.id, prompt, rendered: typeof a.prompt !== "string", until: a.until, references: a.references });
  }
  return out;
}

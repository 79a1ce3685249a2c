// `auto` settled for one model, once per run: the chat template (the model's own, a file, or none) and the
// format (letters under a chat template, cloze for a base model). What is resolved here is what is hashed.
import { readChatTemplateFile, renderJinjaChat, DEFAULT_PINNED_DATE, type ModelAdapter } from "../../adapters/index.js";
import { PromptFormatError } from "./errors.js";
import { readTemplateFile } from "./templateFile.js";
import { DEFAULT_PROMPT_SETTINGS, type PromptMessage, type PromptSettings, type ResolvedPromptSettings } from "./types.js";

const PROBE: PromptMessage[] = [{ role: "user", content: "calibkit" }];

/** A model-less rendering of a chat template file (for `calibkit prompts` without --model): no special-token texts. */
export function renderTemplateFileChat(file: string, messages: PromptMessage[], date: Date): string {
  return renderJinjaChat(readChatTemplateFile(file), messages, { addGenerationPrompt: true, date, specialTokens: {} });
}

export async function resolvePromptSettings(
  partial: Partial<PromptSettings>, adapter: ModelAdapter | undefined,
): Promise<ResolvedPromptSettings> {
  const settings: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS, ...partial };
  const date = settings.pinnedDate ?? DEFAULT_PINNED_DATE;
  let chat: ResolvedPromptSettings["chat"] = null;
  const template = settings.chatTemplate;
  if (template === "auto" && adapter?.hasChatTemplate) {
    chat = { template: "auto", source: (await adapter.renderChat(PROBE, { chatTemplate: "auto", pinnedDate: date })).templateSource };
  } else if (typeof template === "object") {
    const source = adapter
      ? (await adapter.renderChat(PROBE, { chatTemplate: template, pinnedDate: date })).templateSource
      : `jinja:${readChatTemplateFile(template.file)}\n\u0000date=${date.toISOString()}`;
    chat = { template, source };
  }
  let format: ResolvedPromptSettings["format"];
  if (settings.format === "auto") format = chat ? "letters" : "cloze";
  else if (typeof settings.format === "object") format = { templateFile: settings.format.templateFile, text: readTemplateFile(settings.format.templateFile) };
  else format = settings.format;
  if (settings.normalize === "tokens" && !adapter) throw new PromptFormatError("--normalize tokens needs the model (to count tokens)", "normalize");
  return {
    format, fewshot: settings.fewshot, normalize: settings.normalize, chat,
    ...(settings.system !== undefined ? { system: settings.system } : {}),
    pinnedDate: date,
  };
}

// Public face of the prompt formats: items, settings, assembly, chat rendering, hashing, scoring.
export type {
  AssembledPrompt, ChatTemplateChoice, FormatName, FormatSetting, Normalization, PromptItem, PromptMessage,
  PromptSettings, ResolvedPromptSettings,
} from "./types.js";
export { DEFAULT_PROMPT_SETTINGS } from "./types.js";
export { PromptFormatError } from "./errors.js";
export { FORMATS, isCompletion, type Format } from "./formats.js";
export { parseTemplateFile } from "./templateFile.js";
export { assemblePrompt, formatOf } from "./assemble.js";
export { resolvePromptSettings } from "./resolve.js";
export { promptSettingsHash } from "./hash.js";
export { preparePrompts, scorePrepared, type PreparedPrompt } from "./prepare.js";
export { queryItem } from "./queryItems.js";

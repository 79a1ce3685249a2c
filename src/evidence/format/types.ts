// The types of the one prompt path: an item with choices, the settings that decide what the model sees,
// and the prepared prompt an adapter scores.

/** One multiple-choice style item, whatever it came from (a dataset row, a set/belief/gate/interval/judge query). */
export interface PromptItem {
  id: string;
  /** Text the question is asked about; may be empty (an MMLU question carries everything itself). */
  context: string;
  /** A question, or the start of a sentence to complete; empty or absent when the context ends where the answer goes. */
  question?: string;
  /** MMLU subject (underscores as in the data); the description line names it. */
  subject?: string;
  /** Evidence keys: option names or levels, in display order. */
  names: string[];
  /** The text of each choice (an option's description, else its name). */
  texts: string[];
  /** The gold name; exemplars need it. */
  answer?: string;
  /**
   * "question": asked with `Question: …\nAnswer:`; "completion": continued directly. Default: a question
   * when the item has a subject or `question` ends in "?", a completion otherwise.
   */
  style?: "question" | "completion";
  /** For the instruct format of spec queries: the query's own prompt and continuations (prompts.ts). */
  instruct?: { prompt: string; continuations: string[] };
}

export type FormatName = "letters" | "cloze" | "instruct";
/** `--format`: a named format, `auto`, or a template file. */
export type FormatSetting = FormatName | "auto" | { templateFile: string };
export type Normalization = "none" | "chars" | "tokens";
export type ChatTemplateChoice = "auto" | "none" | { file: string };

export interface PromptSettings {
  /** Default auto: letters when the model has a chat template, cloze for a base model. */
  format: FormatSetting;
  /** Exemplars before every item, the same for each (first-n of the few-shot file). Default none. */
  fewshot: PromptItem[];
  /** Default none. */
  normalize: Normalization;
  /** Default auto: the model's own template when it has one, none otherwise. */
  chatTemplate: ChatTemplateChoice;
  /** A system prompt (a system message under a chat template, a first paragraph otherwise). */
  system?: string;
  /** Date printed by date-printing chat templates. Default 2024-07-26. */
  pinnedDate?: Date;
}

export const DEFAULT_PROMPT_SETTINGS: PromptSettings = { format: "auto", fewshot: [], normalize: "none", chatTemplate: "auto" };

/** A chat message of a prompt before the chat template renders it. */
export interface PromptMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** What the model is given for one item, before any chat rendering. */
export interface AssembledPrompt {
  /** Plain text (no chat template), or the messages a chat template renders (the generation prompt added). */
  prompt: string | PromptMessage[];
  /** One continuation per name, scored right after the prompt. */
  continuations: string[];
  names: string[];
}

/** Settings with `auto` resolved for one model: what is hashed and what renders. */
export interface ResolvedPromptSettings {
  format: FormatName | { templateFile: string; text: string };
  fewshot: PromptItem[];
  normalize: Normalization;
  /** Null: no chat template. Otherwise what the adapter renders with, and its source for the hash. */
  chat: null | { template: "auto" | { file: string }; source: string };
  system?: string;
  pinnedDate?: Date;
}

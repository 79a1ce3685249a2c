// The multiple-choice formats, each a value picked by name (STYLE.md): `letters` is lm-evaluation-harness's
// `mmlu` task and `cloze` its `mmlu_continuation` task, byte for byte; `instruct` is calibkit's per-type
// instruction templates; a template file is the user's own (templateFile.ts). docs/prompts.md gives every text.
import { PromptFormatError } from "./errors.js";
import type { PromptItem } from "./types.js";

export interface Format {
  /** Identifies the format's text in prompt_template_hash. */
  id: string;
  /** The description line before everything (lm-eval's `description`); "" when none. */
  description(item: PromptItem): string;
  /** The item's own prompt (lm-eval's `doc_to_text`). */
  text(item: PromptItem): string;
  /** What is scored for each choice, without the delimiter (lm-eval's `doc_to_choice`). */
  targets(item: PromptItem): string[];
  /** Put between the prompt and a target without a chat template (lm-eval's `target_delimiter`). */
  delimiter: string;
}

const LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const subjectText = (s: string) => s.replace(/_/g, " ");
const question = (item: PromptItem) => item.question?.trim() ?? "";

/**
 * A completion is continued directly. An item without a question is one; an item with a subject (MMLU) asks
 * a question; otherwise a question ends in "?" and anything else is a sentence to complete.
 */
export function isCompletion(item: PromptItem): boolean {
  if (question(item) === "") return true;
  if (item.style) return item.style === "completion";
  return item.subject ? false : !question(item).endsWith("?");
}

/** Context and question as one stem: a sentence continues with a space, a question gets its own paragraph. */
function stem(item: PromptItem): string {
  const context = item.context.trim();
  if (isCompletion(item)) return [context, question(item)].filter((s) => s !== "").join(" ");
  return context === "" ? question(item) : `${context}\n\n${question(item)}`;
}

function checkChoices(item: PromptItem, most: number): void {
  if (item.texts.length < 2) throw new PromptFormatError(`item ${item.id} has ${item.texts.length} choice(s); a multiple-choice prompt needs 2 or more`);
  if (item.texts.length > most) throw new PromptFormatError(`item ${item.id} has ${item.texts.length} choices; the letters format labels at most ${most} (A–Z)`);
}

export const letters: Format = {
  id: "letters/lm-eval-mmlu",
  description: (item) => item.subject ? `The following are multiple choice questions (with answers) about ${subjectText(item.subject)}.\n\n` : "",
  text(item) {
    checkChoices(item, LETTERS.length);
    return `${stem(item)}\n${item.texts.map((t, i) => `${LETTERS[i]}. ${t}`).join("\n")}\nAnswer:`;
  },
  targets: (item) => item.texts.map((_, i) => LETTERS[i]!),
  delimiter: " ",
};

export const cloze: Format = {
  id: "cloze/lm-eval-mmlu_continuation",
  description: (item) => item.subject ? `The following are questions (with answers) about ${subjectText(item.subject)}.\n\n` : "",
  text(item) {
    checkChoices(item, Infinity);
    if (isCompletion(item)) return stem(item);
    const context = item.context.trim();
    return `${context === "" ? "" : `${context}\n\n`}Question: ${question(item)}\nAnswer:`;
  },
  // One space then the choice text, trimmed (an option named " toys" must not give "  toys").
  targets: (item) => item.texts.map((t) => t.trim()),
  delimiter: " ",
};

export const instruct: Format = {
  id: "instruct/v1",
  description: () => "",
  text(item) {
    if (!item.instruct) throw new PromptFormatError(`item ${item.id} has no instruct prompt`);
    return item.instruct.prompt;
  },
  targets: (item) => item.instruct!.continuations.map((c) => c.trim()),
  delimiter: " ",
};

export const FORMATS = { letters, cloze, instruct } as const;

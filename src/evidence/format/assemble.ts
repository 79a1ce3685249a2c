// One item's prompt from the resolved settings, as lm-evaluation-harness builds it: description, then each
// exemplar's prompt + delimiter + its gold target joined by "\n\n", then the item. Under a chat template the
// same parts become messages (system: the system text and the description; each exemplar a user turn and an
// assistant turn) and targets follow the assistant header with no delimiter, as lm-eval does.
import { PromptFormatError } from "./errors.js";
import { FORMATS, type Format } from "./formats.js";
import { parseTemplateFile } from "./templateFile.js";
import type { AssembledPrompt, PromptItem, PromptMessage, ResolvedPromptSettings } from "./types.js";

const FEWSHOT_DELIMITER = "\n\n";

export function formatOf(settings: ResolvedPromptSettings): Format {
  const f = settings.format;
  return typeof f === "string" ? FORMATS[f] : parseTemplateFile(f.text, f.templateFile);
}

function goldTarget(format: Format, exemplar: PromptItem): string {
  const k = exemplar.answer === undefined ? -1 : exemplar.names.indexOf(exemplar.answer);
  if (k < 0) throw new PromptFormatError(`few-shot exemplar ${exemplar.id} has no answer among its choices`, "fewshot");
  return format.targets(exemplar)[k]!;
}

export function assemblePrompt(item: PromptItem, settings: ResolvedPromptSettings, format: Format = formatOf(settings)): AssembledPrompt {
  const targets = format.targets(item);
  const description = format.description(item);
  if (settings.chat === null) {
    const shots = settings.fewshot.map((e) => format.text(e) + format.delimiter + goldTarget(format, e));
    const system = settings.system ? settings.system + FEWSHOT_DELIMITER : "";
    const prompt = system + description + shots.map((s) => s + FEWSHOT_DELIMITER).join("") + format.text(item);
    return { prompt, continuations: targets.map((t) => format.delimiter + t), names: [...item.names] };
  }
  const messages: PromptMessage[] = [];
  const system = [settings.system ?? "", description].filter((s) => s !== "").join(FEWSHOT_DELIMITER);
  if (system !== "") messages.push({ role: "system", content: system });
  for (const e of settings.fewshot) {
    messages.push({ role: "user", content: format.text(e) }, { role: "assistant", content: goldTarget(format, e) });
  }
  messages.push({ role: "user", content: format.text(item) });
  return { prompt: messages, continuations: targets, names: [...item.names] };
}

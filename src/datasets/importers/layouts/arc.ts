// AI2 ARC (`allenai/ai2_arc`, ARC-Easy and ARC-Challenge) and the Hugging Face CommonsenseQA
// (`tau/commonsense_qa`): {id, question, choices: {text: [...], label: [...]}, answerKey}. The labels
// are the option names as published (A–E, or 1–5 in some ARC rows); lm-eval scores choices.text and
// takes the gold from choices.label.index(answerKey).
import type { MultipleChoiceItem } from "../../types.js";
import { at, idAt, optionsFrom, stringAt, stringListAt, type Json } from "./fieldPath.js";
import { goldOf } from "./gold.js";

export function labelledChoicesOf(r: Json, fallbackId: string, group?: string): MultipleChoiceItem {
  const texts = stringListAt(r, "choices.text");
  const names = stringListAt(r, "choices.label").map((n) => n.trim());
  const options = optionsFrom(names, texts, "choices.text", "choices.label");
  const question = stringAt(r, "question", true);
  const item: MultipleChoiceItem = { id: idAt(r, "id", fallbackId), context: "", question, options, answer: goldOf(at(r, "answerKey"), options, "answerKey") };
  if (group) item.group = group;
  return item;
}

/** ARC rows carry no grouping field. */
export const arc = {
  name: "arc",
  source: "allenai/ai2_arc",
  matches: (r: Json) => "answerKey" in r && typeof r.question === "string" && !("question_concept" in r) && isLabelled(r.choices),
  read: (r: Json, fallbackId: string) => labelledChoicesOf(r, fallbackId),
} as const;

export function isLabelled(choices: unknown): boolean {
  return choices !== null && typeof choices === "object" && !Array.isArray(choices) && "text" in choices && "label" in choices;
}

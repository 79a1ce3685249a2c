// The published layouts a multiple-choice or generation record can come in, by name, and auto-detection
// from a record's fields (docs/datasets.md and docs/generation.md list each with its source).
import type { MultipleChoiceItem } from "../../types.js";
import { arc } from "./arc.js";
import { commonsenseQa } from "./commonsenseQa.js";
import type { Json } from "./fieldPath.js";
import { hellaswag } from "./hellaswag.js";
import { truthfulqaMc1 } from "./truthfulqa.js";
import { GENERATION_LAYOUTS } from "./generation.js";

export { FIELD_MAPPING_KEYS, mappedItemOf, type FieldMapping } from "./fieldMapping.js";
export { hellaswagClean } from "./hellaswag.js";
export { at, type Json } from "./fieldPath.js";
export { detectGenerationLayout, GENERATION_LAYOUTS, generationLayoutNamed, type GenerationLayout } from "./generation.js";
export { GENERATION_FIELD_KEYS, generationOf, mappedGenerationOf, type GenerationFieldMapping } from "./generationMapping.js";

export interface Layout {
  readonly name: string;
  /** Where the layout is published (a Hugging Face dataset id). */
  readonly source: string;
  /** Whether a record has this layout's distinctive fields. */
  matches(record: Json): boolean;
  read(record: Json, fallbackId: string): MultipleChoiceItem;
}

/** Most distinctive first: CommonsenseQA before ARC (both carry choices {label, text} and answerKey). */
export const LAYOUTS: readonly Layout[] = [truthfulqaMc1, hellaswag, commonsenseQa, arc];

/**
 * Layout names a user may give: the published ones, `mmlu` and `calibkit` (calibkit's own records,
 * which include the `cais/mmlu` rows {question, subject, choices, answer}), and `auto`.
 */
export const LAYOUT_NAMES = ["auto", "calibkit", "mmlu", ...LAYOUTS.map((l) => l.name), ...GENERATION_LAYOUTS.map((l) => l.name)] as const;

export function layoutNamed(name: string): Layout | undefined {
  return LAYOUTS.find((l) => l.name === name);
}

export function detectLayout(record: Json): Layout | undefined {
  return LAYOUTS.find((l) => l.matches(record));
}

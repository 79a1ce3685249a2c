// Any multiple-choice JSON Lines or Parquet file, read through a field mapping: which (dotted) field
// holds the question, the options, the gold answer, and optionally the context, option names, id and
// group. Options may be a list of texts (named A, B, … unless `labels` names them), a map of name →
// text, or a list of {label, text} objects.
import type { MultipleChoiceItem } from "../../types.js";
import { RecordProblem } from "../records.js";
import { at, describe, idAt, letters, optionsFrom, stringAt, stringListAt, type Json } from "./fieldPath.js";
import { goldOf } from "./gold.js";

export interface FieldMapping {
  /** Field of the question text (required unless `context` is given). */
  question?: string;
  /** Field of a passage the question is about; default none. */
  context?: string;
  /** Field of the options. */
  choices: string;
  /** Field of the option names, a list parallel to `choices`; default A, B, … */
  labels?: string;
  /** Field of the gold answer: an option name, a 0-based index, or the gold option's text. */
  answer: string;
  /** Field of the item id; default `<file stem>:<line or row>`. */
  id?: string;
  /** Field of the group (e.g. subject) used for per-group coverage. */
  group?: string;
}

export const FIELD_MAPPING_KEYS = ["question", "context", "choices", "labels", "answer", "id", "group"] as const;

function optionsAt(r: Json, m: FieldMapping): Record<string, string> {
  const raw = at(r, m.choices);
  if (Array.isArray(raw) && raw.length > 0 && raw.every((c) => c !== null && typeof c === "object" && !Array.isArray(c))) {
    const names: string[] = [];
    const texts: string[] = [];
    raw.forEach((c: Json, i) => {
      const label = c.label ?? c.name;
      if (typeof c.text !== "string") throw new RecordProblem(`${m.choices}[${i}].text`, `must be a string, got ${describe(c.text)}`);
      if (typeof label !== "string") throw new RecordProblem(`${m.choices}[${i}].label`, `must be a string, got ${describe(label)}`);
      names.push(label.trim());
      texts.push(c.text);
    });
    return optionsFrom(names, texts, m.choices);
  }
  if (Array.isArray(raw)) {
    const texts = stringListAt(r, m.choices);
    const names = m.labels ? stringListAt(r, m.labels).map((n) => n.trim()) : letters(texts.length, m.choices);
    return optionsFrom(names, texts, m.choices, m.labels ?? m.choices);
  }
  if (raw !== null && typeof raw === "object") {
    const entries = Object.entries(raw as Json);
    entries.forEach(([name, t]) => {
      if (typeof t !== "string") throw new RecordProblem(`${m.choices}.${name}`, `must be a string, got ${describe(t)}`);
    });
    return optionsFrom(entries.map(([n]) => n), entries.map(([, t]) => t as string), m.choices);
  }
  throw new RecordProblem(m.choices, raw === undefined ? "is missing" : `must be a list of texts or a map of name to text, got ${describe(raw)}`);
}

export function mappedItemOf(r: Json, m: FieldMapping, fallbackId: string): MultipleChoiceItem {
  const options = optionsAt(r, m);
  const context = m.context ? stringAt(r, m.context, true) : "";
  const question = m.question ? stringAt(r, m.question, context === "") : undefined;
  const item: MultipleChoiceItem = { id: m.id ? idAt(r, m.id, fallbackId) : fallbackId, context, options, answer: goldOf(at(r, m.answer), options, m.answer) };
  if (question !== undefined) item.question = question;
  if (m.group) {
    const g = at(r, m.group);
    if (g !== undefined && g !== null) {
      if (typeof g !== "string" && typeof g !== "number" && typeof g !== "bigint") throw new RecordProblem(m.group, `must be a string, got ${describe(g)}`);
      if (String(g).trim() !== "") item.group = String(g);
    }
  }
  return item;
}

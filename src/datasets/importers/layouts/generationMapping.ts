// Any generation JSON Lines or Parquet file through a field mapping (`question=prompt,references=golds`), and
// calibkit's own generation records ({id?, question, context?, references}): a question (or a passage to
// continue), an optional passage, and one or more reference answers (a string or a list of strings).
import type { GenerationItem } from "../../types.js";
import { RecordProblem } from "../records.js";
import { at, describe, idAt, stringAt, type Json } from "./fieldPath.js";

export interface GenerationFieldMapping {
  /** Field of the question; may be absent when `context` is given (a passage the model continues). */
  question?: string;
  /** Field of a passage the question is about; default none. */
  context?: string;
  /** Field of the reference answers: a string or a list of strings. */
  references: string;
  id?: string;
  group?: string;
}

export const GENERATION_FIELD_KEYS = ["question", "context", "references", "id", "group"] as const;

function referencesAt(r: Json, path: string): string[] {
  const v = at(r, path);
  if (typeof v === "string") {
    if (v.trim() === "") throw new RecordProblem(path, "is empty");
    return [v];
  }
  if (!Array.isArray(v)) throw new RecordProblem(path, v === undefined || v === null ? "is missing" : `must be a reference answer or a list of them, got ${describe(v)}`);
  if (v.length === 0) throw new RecordProblem(path, "holds no reference answers");
  return v.map((t, i) => {
    if (typeof t !== "string" || t.trim() === "") throw new RecordProblem(`${path}[${i}]`, `must be a non-empty string, got ${describe(t)}`);
    return t;
  });
}

export function mappedGenerationOf(r: Json, m: GenerationFieldMapping, fallbackId: string): GenerationItem {
  const context = m.context ? stringAt(r, m.context, false) ?? "" : "";
  const question = m.question ? stringAt(r, m.question, context.trim() === "") ?? "" : "";
  if (question.trim() === "" && context.trim() === "") throw new RecordProblem(m.question ?? m.context ?? "question", "a record needs a question or a context");
  const item: GenerationItem = { id: m.id ? idAt(r, m.id, fallbackId) : fallbackId, question, context, references: referencesAt(r, m.references) };
  if (m.group) {
    const g = at(r, m.group);
    if (typeof g === "string" || typeof g === "number") {
      if (String(g).trim() !== "") item.group = String(g);
    } else if (g !== undefined && g !== null) throw new RecordProblem(m.group, `must be a string, got ${describe(g)}`);
  }
  return item;
}

/** calibkit's own generation records. */
export const generationOf = (r: Json, fallbackId: string): GenerationItem =>
  mappedGenerationOf(r, { question: "question", context: "context", references: "references", id: "id", group: "group" }, fallbackId);

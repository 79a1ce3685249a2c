// A task's grade of one generation: the text cut at the task's stops (lm-eval's generate_until does so before
// any filter), the item prepared as the task prepares it, then the task's lm-eval metric (grading/).
import { cutAtStops, gradeGeneration, type Grade, type GradeOptions } from "../grading/index.js";
import type { GenerationPromptItem, GenerationTask } from "./types.js";

export function gradeAnswer(task: GenerationTask, generated: string, item: GenerationPromptItem, options: GradeOptions = {}): Grade {
  const prepared = task.prepare(item);
  const refs = { references: prepared.references, ...(prepared.incorrect ? { incorrect: prepared.incorrect } : {}) };
  return gradeGeneration(task.name, cutAtStops(generated, task.until(prepared)), refs, options);
}

// The types of generation prompts: an item as the prompt path takes it, a task (lm-eval's YAML as a value),
// and the settings that decide what the model sees.
import type { GenerationTaskName } from "../grading/index.js";
import type { PromptMessage, ResolvedPromptSettings } from "../format/index.js";

/** One generation item, whatever layout it came from (the run turns dataset items into these). */
export interface GenerationPromptItem {
  id: string;
  question: string;
  /** A passage the question is about; "" when none. */
  context: string;
  references: string[];
  incorrect?: string[];
}

/** A task as lm-eval's YAML defines it: the prompt, the few-shot rules, the stops and the grader. */
export interface GenerationTask {
  name: GenerationTaskName;
  /** Where the definition comes from (an lm-eval YAML, or calibkit's own for generic files). */
  source: string;
  /** Dataset layouts the task reads; a file in another layout is refused. */
  layouts: readonly (string | undefined)[];
  /** lm-eval's process_docs: what the task makes of an item before anything else (identity for most). */
  prepare(item: GenerationPromptItem): GenerationPromptItem;
  /** lm-eval's `description`, "" when none. */
  description: string;
  /** lm-eval's `doc_to_text`. */
  text(item: GenerationPromptItem): string;
  /** The few-shot answer: lm-eval's `doc_to_target`, the first one of a list. */
  target(item: GenerationPromptItem): string;
  targetDelimiter: string;
  fewshotDelimiter: string;
  /** lm-eval's generation_kwargs.until. */
  until(item: GenerationPromptItem): string[];
  /** lm-eval's num_fewshot (0 when the YAML gives none). */
  numFewshot: number;
  /** lm-eval's fewshot_config.sampler: `default` (seeded random.sample) or `first_n`. */
  sampler: "default" | "first_n";
  /**
   * The few-shot split is the evaluation split for lm-eval (no fewshot_split different from test_split):
   * it then draws n + 1 exemplars and drops the item itself.
   */
  dropsItself: boolean;
}

/** The settings of a generation run's prompts; the chat template and system text are resolved as for multiple choice. */
export interface GenerationPromptSettings {
  task: GenerationTask;
  /** The few-shot pool (the task's few-shot split, in the same layout), prepared by the task. */
  pool: GenerationPromptItem[];
  numFewshot: number;
  /** lm-eval's fewshot_random_seed; 1234. */
  seed: number;
  chat: ResolvedPromptSettings["chat"];
  system?: string;
  pinnedDate?: Date;
}

/** What the model is given for one item, before any chat rendering. */
export interface AssembledGeneration {
  id: string;
  prompt: string | PromptMessage[];
  until: string[];
  references: string[];
}

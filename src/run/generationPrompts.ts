// A generation task's prompts for a dataset: the dataset's items as the prompt path takes them (checked against
// the layouts the task reads), the few-shot pool from --fewshot with --num-fewshot defaulting to the task's own,
// the chat template and system text resolved as for multiple choice, and the prompt_template_hash of it all.
import type { ModelAdapter } from "../adapters/index.js";
import { loadDataset, type Dataset, type DatasetOptions, type GenerationItem } from "../datasets/index.js";
import {
  GENERATION_TASKS, generationPromptHash, prepareGenerations, resolvePromptSettings,
  type GenerationPromptItem, type GenerationPromptSettings, type GenerationTaskName, type PreparedGeneration, type PromptSettings,
} from "../evidence/index.js";
import { RunInputError, RunOptionError } from "./errors.js";

export interface GenerationPromptOptions {
  task: GenerationTaskName;
  /** The task's few-shot split, in the dataset's layout. */
  fewshotFile?: string;
  /** Default the task's own (gsm8k 5, the others 0). */
  numFewshot?: number;
  /** Chat template and system text (the format and normalisation belong to the task). */
  settings?: Partial<Pick<PromptSettings, "chatTemplate" | "system" | "pinnedDate">>;
  datasetOptions?: DatasetOptions;
}

export function generationItemsOf(dataset: Dataset, task: GenerationTaskName): GenerationPromptItem[] {
  if (dataset.kind !== "generation") {
    throw new RunInputError(dataset.source, `holds ${dataset.kind} items; --task ${task} reads generation items (a question and reference answers)`);
  }
  const def = GENERATION_TASKS[task];
  if (!def.layouts.includes(dataset.layout)) {
    const seen = dataset.layout ? `the ${dataset.layout} layout` : "calibkit's generation records or a field mapping";
    throw new RunInputError(dataset.source, `is in ${seen}; --task ${task} reads the ${def.layouts.filter(Boolean).join(", ")} layout (use --task generic for any generation file)`);
  }
  return (dataset.items as GenerationItem[]).map((i) => ({
    id: i.id, question: i.question, context: i.context, references: [...i.references], ...(i.incorrect ? { incorrect: [...i.incorrect] } : {}),
  }));
}

/** The resolved settings (what is hashed) for a task run; the few-shot file is read here. */
export async function generationPromptSettings(options: GenerationPromptOptions, adapter?: ModelAdapter): Promise<GenerationPromptSettings> {
  const task = GENERATION_TASKS[options.task];
  const k = options.numFewshot ?? task.numFewshot;
  if (!Number.isInteger(k) || k < 0) throw new RunOptionError("num-fewshot", `must be a whole number, not ${k}`);
  let pool: GenerationPromptItem[] = [];
  if (k === 0 && options.fewshotFile && options.numFewshot === undefined) {
    throw new RunOptionError("fewshot", `${options.task} takes no exemplars by default (lm-eval's num_fewshot is 0): give --num-fewshot K as well`);
  }
  if (k > 0) {
    if (!options.fewshotFile) {
      throw new RunOptionError("fewshot", `${options.task} takes ${k} exemplars${options.numFewshot === undefined ? " by default (lm-eval's num_fewshot)" : ""}: give --fewshot FILE (the task's few-shot split) or --num-fewshot 0`);
    }
    pool = generationItemsOf(await loadDataset(options.fewshotFile, options.datasetOptions ?? {}), options.task);
  }
  const resolved = await resolvePromptSettings({ ...options.settings, format: "cloze" }, adapter);
  return {
    task, pool, numFewshot: k, seed: 1234, chat: resolved.chat,
    ...(resolved.system !== undefined ? { system: resolved.system } : {}),
    ...(resolved.pinnedDate ? { pinnedDate: resolved.pinnedDate } : {}),
  };
}

/** Every item's prompt, stops and references, in file order (lm-eval's draws follow the order), and the hash. */
export async function generationPrompts(
  dataset: Dataset, options: GenerationPromptOptions, adapter?: ModelAdapter,
): Promise<{ prompts: PreparedGeneration[]; promptTemplateHash: string }> {
  const items = generationItemsOf(dataset, options.task);
  const settings = await generationPromptSettings(options, adapter);
  return { prompts: await prepareGenerations(items, settings, adapter), promptTemplateHash: generationPromptHash(settings) };
}

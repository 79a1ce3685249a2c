// A suite's free-form task (docs/bench.md): `task: triviaqa|nq_open|gsm8k|truthfulqa_gen|generic` with the run's
// sampling settings under their flag names (top_p for --top-p), a gate or belief query, and the scorers to compare —
// each checked as `calibkit run` checks its flags, each error naming the suite field.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { GENERATION_TASK_NAMES } from "../../evidence/index.js";
import { scorerByName, SCORERS } from "../../uncertainty/index.js";
import { DEFAULT_GENERATION_DATASET, DEFAULT_SCORER, GenerationOptionsSchema, type GenerationOptions, type ResolvedGenerationOptions } from "../generationOptions.js";

type Fail = (field: string, message: string) => never;

export interface SuiteGeneration {
  /** The run's free-form options (the scorer field is the one calibrated first; every listed one is compared). */
  options: ResolvedGenerationOptions;
  queryType: "gate" | "belief";
  /** lm-polygraph estimator names, in the suite's order. */
  scorers: string[];
}

/** Fields a free-form task may carry, beside name and limit. */
export const GENERATION_TASK_FIELDS = ["task", "dataset", "fewshot", "num_fewshot", "samples", "temperature", "top_p", "top_k", "max_tokens", "sample_seed", "query_type", "scorers"] as const;

/** A `scorers:` list: known lm-polygraph names, no repeats; `at` is its field path. */
export function parseScorers(v: unknown, at: string, fail: Fail): string[] {
  if (!Array.isArray(v) || v.length === 0) return fail(at, "must be a non-empty list of lm-polygraph estimator names");
  const names = v.map((x, i) => {
    const s = typeof x === "string" ? scorerByName(x.trim()) : undefined;
    if (!s) fail(`${at}[${i}]`, `unknown scorer ${JSON.stringify(x)}; calibkit has lm-polygraph's ${SCORERS.map((k) => k.name).join(", ")}`);
    return s!.name;
  });
  names.forEach((n, i) => names.indexOf(n) !== i && fail(`${at}[${i}]`, `${n} is listed twice`));
  return names;
}

const SAMPLING: Record<string, keyof GenerationOptions> = {
  samples: "samples", temperature: "temperature", top_p: "topP", top_k: "topK", max_tokens: "maxTokens", sample_seed: "sampleSeed", num_fewshot: "numFewshot",
};

/** The task's free-form settings; `suiteScorers` is the suite's own list (the task's overrides it). */
export function parseGenerationTask(task: Record<string, unknown>, at: string, base: string, suiteScorers: string[] | undefined, fail: Fail): { dataset: string; generation: SuiteGeneration } {
  for (const k of ["format", "normalize", "by_option_count", "from_lm_eval"]) if (task[k] !== undefined) fail(`${at}.${k}`, "applies to multiple-choice tasks, not to a free-form task (task:)");
  const name = task.task;
  if (typeof name !== "string" || !(GENERATION_TASK_NAMES as readonly string[]).includes(name)) fail(`${at}.task`, `must be one of ${GENERATION_TASK_NAMES.join(", ")}, got ${JSON.stringify(name)}`);
  // The bundled fixture stories260K answers, as `calibkit run --task generic` with no --dataset.
  const dataset = task.dataset === undefined && name === "generic" ? DEFAULT_GENERATION_DATASET
    : typeof task.dataset === "string" ? resolve(base, task.dataset) : fail(`${at}.dataset`, `must be a file path (a ${name as string} file in its published layout)`);
  if (!existsSync(dataset)) fail(`${at}.dataset`, `no file at ${dataset}`);
  const qt = task.query_type ?? "gate";
  if (qt !== "gate" && qt !== "belief") fail(`${at}.query_type`, `a free-form task runs gate or belief queries, got ${JSON.stringify(qt)}`);
  const scorers = task.scorers !== undefined ? parseScorers(task.scorers, `${at}.scorers`, fail) : suiteScorers ?? [DEFAULT_SCORER];
  const given: Record<string, unknown> = { task: name, scorer: scorers[0] };
  for (const [field, key] of Object.entries(SAMPLING)) {
    if (task[field] === undefined) continue;
    if (typeof task[field] !== "number") fail(`${at}.${field}`, `must be a number, got ${JSON.stringify(task[field])}`);
    given[key] = task[field];
  }
  if (task.fewshot !== undefined) {
    if (typeof task.fewshot !== "string") fail(`${at}.fewshot`, "must be a file path");
    given.fewshotFile = resolve(base, task.fewshot as string);
    if (!existsSync(given.fewshotFile as string)) fail(`${at}.fewshot`, `no file at ${given.fewshotFile as string}`);
  }
  const parsed = GenerationOptionsSchema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? "task");
    const field = key === "fewshotFile" ? "fewshot" : Object.entries(SAMPLING).find(([, k]) => k === key)?.[0] ?? key;
    fail(`${at}.${field}`, issue.message);
  }
  return { dataset, generation: { options: parsed.data!, queryType: qt as "gate" | "belief", scorers } };
}

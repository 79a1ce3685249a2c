// lm-evaluation-harness 0.4's `--log_samples` output, read as it is written (lm_eval/evaluator.py builds each
// line, loggers/evaluation_tracker.py writes it): one JSON object per document with doc_id, doc, target (a
// string), arguments {gen_args_<i>: {arg_<j>: …}} (one request per choice, or one generation request),
// resps and filtered_resps (every value a string: sanitize_list), filter, metrics (the metric names), doc_hash,
// prompt_hash, target_hash and each metric's value. The results_<date>.json written beside it in the same run
// holds `config` (model, model_args) and `model_name`, and task_hashes over doc_hash + prompt_hash + target_hash.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { RunInputError } from "../errors.js";

const argsSchema = z.record(z.string(), z.record(z.string(), z.unknown()));
export const lmEvalSampleSchema = z.looseObject({
  doc_id: z.number().int(),
  doc: z.unknown(),
  target: z.string(),
  arguments: argsSchema,
  resps: z.array(z.unknown()),
  filtered_resps: z.array(z.unknown()),
  filter: z.string(),
  metrics: z.array(z.string()),
  doc_hash: z.string(),
  prompt_hash: z.string(),
  target_hash: z.string(),
});
export type LmEvalSample = z.infer<typeof lmEvalSampleSchema>;

export interface LmEvalRun {
  file: string;
  /** The task, from the file name samples_<task>_<date>.jsonl. */
  task: string;
  samples: LmEvalSample[];
  /** results_<date>.json of the same run, when it is there. */
  results: { file: string; model: string; modelArgs: string; modelName: string; config: Record<string, unknown>; taskHash: string | undefined } | null;
  /** sha256 over every doc_hash + prompt_hash + target_hash, in file order: lm-eval's own task hash. */
  taskHash: string;
}

const FILE_NAME = /^samples_(.+)_(\d{4}-\d{2}-\d{2}T[0-9.-]+)\.jsonl$/;

/** The i-th request's arguments in order (arg_0 the context, arg_1 the continuation or the generation settings). */
export function requestArgs(sample: LmEvalSample, i: number): unknown[] {
  const args = sample.arguments[`gen_args_${i}`];
  if (!args) return [];
  return Object.keys(args).sort((a, b) => Number(a.slice(4)) - Number(b.slice(4))).map((k) => args[k]);
}

export const requestCount = (sample: LmEvalSample): number => Object.keys(sample.arguments).filter((k) => /^gen_args_\d+$/.test(k)).length;

function readResults(file: string, dateId: string | undefined, task: string, given: string | undefined): LmEvalRun["results"] {
  const path = given ?? (dateId ? join(dirname(file), `results_${dateId}.json`) : undefined);
  if (!path || !existsSync(path)) {
    if (given) throw new RunInputError(given, "no results file there");
    return null;
  }
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch (err) {
    throw new RunInputError(path, `is not lm-eval's results JSON: ${(err as Error).message}`);
  }
  const config = (raw.config && typeof raw.config === "object" ? raw.config : {}) as Record<string, unknown>;
  const modelArgs = typeof config.model_args === "string" ? config.model_args : config.model_args ? JSON.stringify(config.model_args) : "";
  const hashes = (raw.task_hashes ?? {}) as Record<string, unknown>;
  return {
    file: path, config,
    model: typeof config.model === "string" ? config.model : "unknown",
    modelArgs,
    modelName: typeof raw.model_name === "string" && raw.model_name ? raw.model_name : modelArgs || "unknown",
    taskHash: typeof hashes[task] === "string" ? (hashes[task] as string) : undefined,
  };
}

/** Reads a samples file (and its results file), each malformed line an error naming file, line and field. */
export function readLmEvalRun(file: string, resultsFile?: string): LmEvalRun {
  const name = FILE_NAME.exec(basename(file));
  const task = name?.[1] ?? basename(file).replace(/^samples_/, "").replace(/\.jsonl$/, "");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new RunInputError(file, `cannot be read: ${(err as Error).message}`);
  }
  const samples: LmEvalSample[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch (err) {
      throw new RunInputError(file, `line ${i + 1}: not JSON (${(err as Error).message})`);
    }
    const parsed = lmEvalSampleSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new RunInputError(file, `line ${i + 1}, field "${issue.path.join(".")}": ${issue.message} (lm-eval 0.4's --log_samples layout)`);
    }
    samples.push(parsed.data);
  });
  if (samples.length === 0) throw new RunInputError(file, "holds no samples");
  const taskHash = createHash("sha256").update(samples.map((s) => s.doc_hash + s.prompt_hash + s.target_hash).join(""), "utf8").digest("hex");
  return { file, task, samples, results: readResults(file, name?.[2], task, resultsFile), taskHash };
}

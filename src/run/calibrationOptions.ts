// What `runCalibration` takes (docs/library.md): checked with zod, every default filled in, each error a
// RunOptionError naming the option — the same rules and defaults as `calibkit run`'s flags (docs/run.md).
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { z } from "zod";
import type { DatasetOptions } from "../datasets/index.js";
import { defaultCacheDir } from "./cacheDir.js";
import { RunOptionError } from "./errors.js";
import { DEFAULT_DATASET, defaultModel } from "./defaults.js";
import { GUARANTEES, QUERY_TYPE_NAMES } from "./queryTypeOptions.js";
import { DEFAULT_GENERATION_DATASET, GenerationOptionsSchema } from "./generationOptions.js";

const METHODS = ["lac", "aps", "raps", "ordinal-aps", "cqr"];
const unit = z.number().gt(0, "must be a number strictly between 0 and 1").lt(1, "must be a number strictly between 0 and 1");
const int = (min: number) => z.number().int(`must be an integer ≥ ${min}`).min(min, `must be an integer ≥ ${min}`);
const path = z.string().min(1, "must be a path").transform((p) => resolve(p));

const promptSchema = z.strictObject({
  settings: z.strictObject({
    format: z.union([z.enum(["letters", "cloze", "instruct", "auto"]), z.strictObject({ templateFile: path })]).optional(),
    chatTemplate: z.union([z.enum(["auto", "none"]), z.strictObject({ file: path })]).optional(),
    system: z.string().optional(),
    normalize: z.enum(["none", "chars", "tokens"]).optional(),
  }).default({}),
  fewshot: z.strictObject({ file: path, k: int(1) }).optional(),
});

const datasetOptionsSchema = z.custom<DatasetOptions>((v) => v !== null && typeof v === "object" && !Array.isArray(v), "must be an object with layout or fields");

export const CalibrationOptionsSchema = z.strictObject({
  /** A .gguf file, an ONNX model folder or an http(s) URL. Default: $CALIBKIT_MODEL, else stories260K.gguf in the models folder. */
  model: z.string().min(1).optional().transform((m) => m ?? defaultModel()),
  /** JSON Lines, Parquet or MMLU-style CSV. Default: the bundled fixtures/story-cloze.jsonl. */
  dataset: path.optional().transform((d) => d ?? DEFAULT_DATASET).refine((d) => existsSync(d), { message: "no file there" }),
  /** A published layout or a field mapping (docs/datasets.md). Default: detected from the records. */
  datasetOptions: datasetOptionsSchema.default({}),
  /** A remote service's versioned root (…/api/v1). Default: the embedded service on a free loopback port. */
  service: z.string().regex(/^https?:\/\/.+/i, "must be an http(s) URL ending in /api/v1").optional(),
  /** The remote service's API key. Default: $CALIBKIT_API_KEY. */
  apiKey: z.string().optional(),
  /** Miscoverage α, in (0, 1). Default 0.1. */
  alpha: unit.default(0.1),
  /** LAC, APS or RAPS for multiple-choice data (default LAC); ordinal-aps or CQR for ordinal data (default ordinal-aps). */
  method: z.string().refine((m) => METHODS.includes(m.toLowerCase()), "must be LAC, APS, RAPS, ordinal-aps or CQR").optional(),
  /** Folder for summary.json and report.html; nothing is written without it. */
  out: path.optional(),
  /** Seed of the split and of every randomized step. Default 1. */
  seed: int(0).default(1),
  /** Items per part of the split (defaults 1000, 500, 200, 200); a smaller dataset shrinks them in proportion. */
  calibration: int(1).default(1000),
  test: int(1).default(500),
  audit: int(0).default(200),
  monitor: int(0).default(200),
  /** Only the first N items of the dataset. */
  limit: int(2).optional(),
  /** Profile name. Default: from the dataset file name. */
  profile: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "must start with a letter or digit and hold only letters, digits, '.', '_' and '-'").optional(),
  /** An lm-eval `--log_samples` file (samples_<task>_<date>.jsonl): its items and log-likelihoods are the evidence, no model is loaded. */
  fromLmEval: path.refine((d) => existsSync(d), { message: "no file there" }).optional(),
  /** The results_<date>.json of that lm-eval run. Default: the one beside the samples file with the same date. */
  lmEvalResults: path.optional(),
  /** Set queries over items with different option counts: calibrate each count on its own (Mondrian by option count). Default false: one calibration across option counts. */
  byOptionCount: z.boolean().default(false),
  /** Monitor false-alarm rate, in (0, 1). Default 0.01. */
  falseAlarmRate: unit.default(0.01),
  /** How items are prompted (docs/prompts.md). Default: the format the model calls for, zero-shot. */
  prompt: promptSchema.default({ settings: {} }),
  /** The evidence cache folder; null keeps nothing. Default: $CALIBKIT_CACHE, else ~/.cache/calibkit. */
  cache: z.union([path, z.null()]).optional().transform((c) => (c === undefined ? defaultCacheDir() : c)),
  /** belief, set, interval, gate, claim, judge or route. Default: from the dataset's kind. */
  queryType: z.enum(QUERY_TYPE_NAMES).optional(),
  /** gate: risk, risk_high_probability or fdr (default risk); route: cost_budget or accuracy (default cost_budget). */
  guarantee: z.enum([...GUARANTEES.gate!, ...GUARANTEES.route!] as [string, ...string[]]).optional(),
  /** gate: the risk or FDR bound (default α); route: the budget in cents per query. */
  target: z.number().positive().finite().optional(),
  /** gate risk_high_probability: the failure probability. Default 0.1. */
  delta: unit.optional(),
  /** gate fdr: test queries per request, each request one Benjamini–Hochberg batch. Default 1. */
  batchSize: int(1).optional(),
  /** Free-form answers (docs/generation.md): the task, the samples, the scorer. Default: none (the dataset's own kind). */
  generation: GenerationOptionsSchema.optional(),
  /** Cascade stages (judge, route): OpenAI-compatible servers, in order, with their cost per call in cents. */
  stages: z.array(z.strictObject({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/).refine((n) => n !== "human_queue", "human_queue is added at the end of a judge cascade by itself"),
    url: z.string().regex(/^https?:\/\/[^@\s]+$/, "must be an http(s) URL"),
    costPerCall: z.number().min(0).finite(),
  })).default([]).refine((s) => new Set(s.map((x) => x.name)).size === s.length, "stage names must be distinct"),
});

/** What a library caller gives: every field optional. */
export type CalibrationOptions = z.input<typeof CalibrationOptionsSchema>;
/** The options with every default filled in: what the run's steps read. */
export type ResolvedCalibrationOptions = z.output<typeof CalibrationOptionsSchema>;

const flag = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

export function resolveCalibrationOptions(options: CalibrationOptions): ResolvedCalibrationOptions {
  // A free-form run with no dataset shows the whole path on the bundled generation fixture.
  const withDataset = options.generation !== undefined && options.dataset === undefined ? { ...options, dataset: DEFAULT_GENERATION_DATASET } : options;
  const parsed = CalibrationOptionsSchema.safeParse(withDataset);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const [key, ...rest] = issue.path.map(String);
  const where = [flag(key ?? "options"), ...rest].join(".");
  throw new RunOptionError(where, `${issue.message}${key === "dataset" ? ` (${resolve(String(options.dataset ?? DEFAULT_DATASET))})` : ""}`);
}

// A benchmark suite file (docs/bench.md): YAML through the maintained `yaml` package, checked field by
// field before any model loads, each error naming the file, the field and what is wrong.
import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { parse, YAMLParseError } from "yaml";
import { CalibkitError } from "../../api/index.js";
import { defaultModelsDir } from "../../adapters/modelsDir.js";
import { parsePromptFlags, type PromptFlags } from "../promptFlags.js";
import { GENERATION_TASK_FIELDS, parseGenerationTask, parseScorers, type SuiteGeneration } from "./generationTask.js";

export class SuiteError extends CalibkitError {
  override name = "SuiteError";
  constructor(file: string, field: string, message: string) {
    super("SUITE_INVALID", `${file}: ${field}: ${message}`, { field });
  }
}

export interface SuiteTask {
  name: string;
  dataset: string;
  queryType: "set" | "interval" | undefined;
  prompt: PromptFlags;
  /** Only the first N items. */
  limit: number | undefined;
  /** An lm-eval --log_samples file whose log-likelihoods are the task's evidence (then `dataset` is that file). */
  fromLmEval?: string;
  /** Items of different option counts: calibrate each count on its own (Mondrian). Default false: one calibration across counts. */
  byOptionCount: boolean;
  /** A free-form task (`task:` given): its run options, gate or belief, and the scorers compared (then queryType and prompt are unused). */
  generation?: SuiteGeneration;
}

export interface Suite {
  file: string;
  /** Paths and server URLs, in the file's order. */
  models: string[];
  /** Per server URL: requests in flight at once (the entry's `concurrency`, default 8). */
  concurrency: Record<string, number>;
  tasks: SuiteTask[];
  /** Empty when every task is free-form. */
  methods: string[];
  /** The suite's `scorers:` list (a free-form task's own list overrides it); empty when not given. */
  scorers: string[];
  alphas: number[];
  repeats: number;
  seed: number;
  /** Share of each repeat's items that calibrate; the rest are the test split. */
  calibrationFraction: number;
}

const METHODS = ["LAC", "APS", "RAPS", "ordinal-aps", "CQR"];

/** A model entry: a URL, a path (relative to the suite file), or a bare file name in the models folder. */
function modelPath(entry: string, base: string): string {
  if (/^https?:\/\//i.test(entry)) return entry;
  if (!entry.includes("/")) {
    const inModels = resolve(defaultModelsDir(), entry);
    if (existsSync(inModels)) return inModels;
  }
  return isAbsolute(entry) ? entry : resolve(base, entry);
}

/** Default requests in flight per server, as the OpenAI-compatible adapter's default. */
export const DEFAULT_SERVER_CONCURRENCY = 8;

/** A model entry as the file spells it: a path or URL, or a server with its own bound on requests in flight. */
export type SuiteModelEntry = string | { url: string; concurrency?: number };

/** One `models` entry: its path or URL; a server's `concurrency` goes into `concurrency`. */
function modelEntry(m: unknown, at: string, base: string, concurrency: Record<string, number>, fail: (field: string, message: string) => never): string {
  if (typeof m === "string" && m.trim()) {
    const model = modelPath(m.trim(), base);
    if (/^https?:/i.test(model)) concurrency[model] = DEFAULT_SERVER_CONCURRENCY;
    return model;
  }
  if (m === null || typeof m !== "object" || Array.isArray(m)) return fail(at, "must be a path, a URL, or a mapping {url, concurrency}");
  const entry = m as Record<string, unknown>;
  for (const k of Object.keys(entry)) if (k !== "url" && k !== "concurrency") fail(`${at}.${k}`, "unknown field (expected url, concurrency)");
  const url = typeof entry.url === "string" && /^https?:\/\/\S+$/i.test(entry.url.trim()) ? entry.url.trim() : fail(`${at}.url`, "must be an http(s) URL of an OpenAI-compatible server");
  const c = entry.concurrency ?? DEFAULT_SERVER_CONCURRENCY;
  concurrency[url] = Number.isInteger(c) && (c as number) >= 1 && (c as number) <= 1024 ? (c as number) : fail(`${at}.concurrency`, `must be an integer from 1 to 1024, got ${JSON.stringify(c)}`);
  return url;
}

/** A suite as its YAML file spells it (docs/bench.md), for a caller that builds one in code. */
export interface SuiteDefinition {
  models: SuiteModelEntry[];
  tasks: ({ name: string; dataset: string; format?: string; num_fewshot?: number; fewshot?: string; query_type?: "set" | "interval"; limit?: number; by_option_count?: boolean; from_lm_eval?: string } | {
    name: string; task: "triviaqa" | "nq_open" | "gsm8k" | "truthfulqa_gen" | "generic"; dataset?: string; fewshot?: string; num_fewshot?: number; limit?: number;
    samples?: number; temperature?: number; top_p?: number; top_k?: number; max_tokens?: number; sample_seed?: number; query_type?: "gate" | "belief"; scorers?: string[];
  })[];
  /** Needed when some task is multiple-choice. */
  methods?: string[];
  /** lm-polygraph estimator names compared on the free-form tasks. Default [MaximumSequenceProbability]. */
  scorers?: string[];
  alphas: number[];
  /** Independent random splits per cell. Default 3. */
  repeats?: number;
  /** Default 1. */
  seed?: number;
  /** Default 0.5. */
  calibration_fraction?: number;
}

/** A suite file, read and checked; errors name the file as given. */
export function parseSuite(file: string): Suite {
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, "utf8"));
  } catch (err) {
    if (err instanceof YAMLParseError) throw new SuiteError(file, `line ${err.linePos?.[0].line ?? "?"}`, err.message.split("\n")[0]!);
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new SuiteError(file, "file", `no suite file at ${resolve(file)}`);
    throw new SuiteError(file, "file", (err as Error).message);
  }
  return suiteFrom(raw, { name: file, file: resolve(file), base: dirname(resolve(file)) });
}

/**
 * A suite from the parsed content of a file (or an object in its shape), checked field by field: `name`
 * names it in errors, `file` in the summary; relative paths are resolved against `base`.
 */
export function suiteFrom(raw: unknown, { name: label, file, base }: { name: string; file: string; base: string }): Suite {
  const fail = (field: string, message: string): never => {
    throw new SuiteError(label, field, message);
  };
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) fail("file", "must be a mapping with models, tasks, methods, alphas");
  const o = raw as Record<string, unknown>;
  const known = new Set(["models", "tasks", "methods", "alphas", "repeats", "seed", "calibration_fraction", "scorers"]);
  for (const k of Object.keys(o)) if (!known.has(k)) fail(k, `unknown field (expected ${[...known].join(", ")})`);
  const list = (field: string): unknown[] => {
    const v = o[field];
    if (!Array.isArray(v) || v.length === 0) fail(field, "must be a non-empty list");
    return v as unknown[];
  };
  const concurrency: Record<string, number> = {};
  const models = list("models").map((m, i) => modelEntry(m, `models[${i}]`, base, concurrency, fail));
  models.forEach((m, i) => {
    if (!/^https?:/i.test(m) && !existsSync(m)) fail(`models[${i}]`, `no model at ${m}`);
    if (models.indexOf(m) !== i) fail(`models[${i}]`, `${m} is listed twice`);
  });
  const scorers = o.scorers === undefined ? undefined : parseScorers(o.scorers, "scorers", fail);
  // Methods calibrate multiple-choice sets and intervals: a suite of free-form tasks only needs none.
  const choiceTasks = !Array.isArray(o.tasks) || o.tasks.some((t) => t === null || typeof t !== "object" || (t as Record<string, unknown>).task === undefined);
  const methods = (choiceTasks || o.methods !== undefined ? list("methods") : []).map((m, i) => METHODS.find((x) => typeof m === "string" && x.toLowerCase() === m.toLowerCase()) ?? fail(`methods[${i}]`, `must be one of ${METHODS.join(", ")}, got ${JSON.stringify(m)}`));
  const alphas = list("alphas").map((a, i) => (typeof a === "number" && a > 0 && a < 1 ? a : fail(`alphas[${i}]`, `must be a number strictly between 0 and 1, got ${JSON.stringify(a)}`)));
  const int = (field: string, fallback: number, min: number): number => {
    const v = o[field] ?? fallback;
    return Number.isInteger(v) && (v as number) >= min ? (v as number) : fail(field, `must be an integer ≥ ${min}, got ${JSON.stringify(v)}`);
  };
  const fraction = o.calibration_fraction ?? 0.5;
  if (typeof fraction !== "number" || !(fraction > 0 && fraction < 1)) fail("calibration_fraction", `must be a number strictly between 0 and 1, got ${JSON.stringify(fraction)}`);
  const names = new Set<string>();
  const tasks = list("tasks").map((t, i): SuiteTask => {
    const at = `tasks[${i}]`;
    if (t === null || typeof t !== "object" || Array.isArray(t)) fail(at, "must be a mapping with name and dataset");
    const task = t as Record<string, unknown>;
    const taskKnown = new Set(["name", "dataset", "format", "num_fewshot", "fewshot", "query_type", "limit", "by_option_count", "from_lm_eval", "normalize", ...GENERATION_TASK_FIELDS]);
    for (const k of Object.keys(task)) if (!taskKnown.has(k)) fail(`${at}.${k}`, `unknown field (expected ${[...taskKnown].join(", ")})`);
    const name = typeof task.name === "string" && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(task.name) ? task.name : fail(`${at}.name`, "must be a name of letters, digits, '.', '_' or '-'");
    if (names.has(name)) fail(`${at}.name`, `"${name}" names two tasks`);
    names.add(name);
    const limitOf = () => (task.limit === undefined ? undefined : Number.isInteger(task.limit) && (task.limit as number) >= 4 ? (task.limit as number) : fail(`${at}.limit`, "must be an integer ≥ 4"));
    if (task.task !== undefined) {
      const { dataset, generation } = parseGenerationTask(task, at, base, scorers, fail);
      return { name, dataset, queryType: undefined, prompt: parsePromptFlags({}, (flag, problem) => fail(`${at}.${flag}`, problem)), limit: limitOf(), byOptionCount: false, generation };
    }
    for (const k of ["samples", "temperature", "top_p", "top_k", "max_tokens", "sample_seed", "scorers"]) if (task[k] !== undefined) fail(`${at}.${k}`, "applies to free-form tasks: give task: (triviaqa, nq_open, gsm8k, truthfulqa_gen or generic) as well");
    const fromLmEval = task.from_lm_eval === undefined ? undefined : typeof task.from_lm_eval === "string" ? resolve(base, task.from_lm_eval) : fail(`${at}.from_lm_eval`, "must be a file path");
    if (fromLmEval !== undefined && task.dataset !== undefined) fail(`${at}.from_lm_eval`, "give dataset or from_lm_eval, not both");
    const dataset = fromLmEval ?? (typeof task.dataset === "string" ? resolve(base, task.dataset) : fail(`${at}.dataset`, "must be a file path (or give from_lm_eval: an lm-eval samples file)"));
    if (!existsSync(dataset)) fail(`${at}.${fromLmEval ? "from_lm_eval" : "dataset"}`, `no file at ${dataset}`);
    const qt = task.query_type;
    if (qt !== undefined && qt !== "set" && qt !== "interval") fail(`${at}.query_type`, `suites run set or interval queries, got ${JSON.stringify(qt)}`);
    const str = (k: string) => (task[k] === undefined ? undefined : typeof task[k] === "string" || typeof task[k] === "number" ? String(task[k]) : fail(`${at}.${k}`, "must be a string"));
    const fewshot = str("fewshot");
    const prompt = parsePromptFlags({
      format: str("format"), "num-fewshot": str("num_fewshot"), fewshot: fewshot === undefined ? undefined : resolve(base, fewshot), normalize: str("normalize"),
    }, (flag, problem) => fail(`${at}.${flag.replace("-", "_")}`, problem));
    const limit = limitOf();
    const byOptionCount = task.by_option_count ?? false;
    if (typeof byOptionCount !== "boolean") fail(`${at}.by_option_count`, `must be true or false, got ${JSON.stringify(byOptionCount)}`);
    return { name, dataset, queryType: qt as SuiteTask["queryType"], prompt, limit, byOptionCount: byOptionCount as boolean, ...(fromLmEval ? { fromLmEval } : {}) };
  });
  return { file, models, concurrency, tasks, methods, scorers: scorers ?? [], alphas, repeats: int("repeats", 3, 1), seed: int("seed", 1, 0), calibrationFraction: fraction as number };
}

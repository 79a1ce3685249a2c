// What one `calibkit run` is asked to do, as the library takes it (the command line builds it from its
// flags in src/cli/run/options.ts), and the defaults a run falls back on.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { DatasetOptions } from "../datasets/index.js";
// The models-folder rule alone (not the adapters' index, which loads both inference engines): --help stays instant.
import { defaultModelsDir } from "../adapters/modelsDir.js";
import type { PromptFlags } from "./promptFlags.js";
import type { QueryTypeOptions } from "./queryTypeOptions.js";

export interface RunOptions extends QueryTypeOptions {
  /** A .gguf file, an ONNX model folder or an http(s) URL. Default: $CALIBKIT_MODEL, else stories260K.gguf in the models folder. */
  model: string;
  /** JSON Lines, Parquet or MMLU-style CSV. Default: the bundled fixtures/story-cloze.jsonl. */
  dataset: string;
  /** How the dataset's records are read: a published layout or a field mapping (--layout, --fields). */
  datasetOptions: DatasetOptions;
  /** A remote service's versioned root (…/api/v1); default: the embedded service on a free loopback port. */
  service: string | undefined;
  /** Miscoverage α of the profile, in (0, 1). Default 0.1. */
  alpha: number;
  /** LAC, APS or RAPS for multiple-choice data (default LAC); ordinal-aps or CQR for ordinal data (default ordinal-aps). */
  method: string | undefined;
  /** Output folder for summary.json and report.html. Default ./calibkit-out. */
  out: string;
  /** Seed of the split (and of every randomized step). Default 1. */
  seed: number;
  /** Items per part of the split; a smaller dataset shrinks them in proportion. */
  calibration: number;
  test: number;
  audit: number;
  monitor: number;
  /** Use only the first N items of the dataset (a quick slice). */
  limit: number | undefined;
  /** Profile name; default from the dataset file name. */
  profile: string | undefined;
  /** Monitor false-alarm rate. Default 0.01. */
  falseAlarmRate: number;
  /** How items are prompted (--format, --template, --num-fewshot, --fewshot, --chat-template, --system, --normalize). */
  prompt: PromptFlags;
  /** Exit 0 even when the audit fails (default: exit 3). */
  allowAuditFail: boolean;
  /** The evidence cache folder (--cache, $CALIBKIT_CACHE, ~/.cache/calibkit); null with --no-cache. */
  cache: string | null;
  /** Silence progress output. */
  quiet: boolean;
  help: boolean;
}

const repoRoot = fileURLToPath(new URL("../../", import.meta.url));
export const DEFAULT_DATASET = resolve(repoRoot, "fixtures", "story-cloze.jsonl");
export const DEFAULT_MODEL_FILE = "stories260K.gguf";

/** $CALIBKIT_MODEL, else stories260K.gguf in the models folder ($CALIBKIT_MODELS_DIR or ../shared/models). */
export function defaultModel(): string {
  return process.env.CALIBKIT_MODEL ? resolve(process.env.CALIBKIT_MODEL) : resolve(defaultModelsDir(), DEFAULT_MODEL_FILE);
}


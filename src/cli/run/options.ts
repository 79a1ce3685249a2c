// `calibkit run` options: parsed strictly (node:util), each error naming the option at fault.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  cacheDirOf, DEFAULT_DATASET, DEFAULT_GENERATION_DATASET, defaultModel, parsePromptFlags, RunOptionError, type ResolvedCalibrationOptions,
} from "../../run/index.js";
import { DATASET_USAGE, parseDatasetOptions } from "./datasetOptions.js";
import { parseQueryTypeOptions, QUERY_TYPE_USAGE } from "./queryTypeOptions.js";
import { PROMPT_FLAG_OPTIONS, PROMPT_USAGE } from "../promptFlags.js";
import { parseArgsMessage } from "../args.js";
import { GENERATION_FLAG_OPTIONS, GENERATION_USAGE, parseGenerationOptions } from "./generationOptions.js";

// Where the library's defaults and option error were, before they moved to src/run/ (tests import them from here).
export { DEFAULT_DATASET, DEFAULT_MODEL_FILE, defaultModel, RunOptionError } from "../../run/index.js";

/** The library's options (src/run/calibrationOptions.ts, every field documented there) and the command's own. */
export interface RunOptions extends ResolvedCalibrationOptions {
  /** Output folder for summary.json and report.html. Default ./calibkit-out. */
  out: string;
  /** Exit 0 even when the audit fails (default: exit 3). */
  allowAuditFail: boolean;
  /** Silence progress output. */
  quiet: boolean;
  help: boolean;
}

export const USAGE = `usage: calibkit run [options]

Calibrates a local model end to end on a labelled dataset, through the evaluation service, and
cross-checks every answer against the local conformal engine. Writes summary.json and report.html.

  --model PATH       .gguf file, ONNX model folder or http(s) URL (default: $CALIBKIT_MODEL,
                     else stories260K.gguf in $CALIBKIT_MODELS_DIR or ../shared/models)
  --dataset FILE     JSON Lines, Parquet or MMLU-style CSV (default: fixtures/story-cloze.jsonl)
${DATASET_USAGE}  --from-lm-eval FILE an lm-eval --log_samples file (samples_<task>_<date>.jsonl): its log-likelihoods
                     are the evidence, no model is loaded (a multiple-choice task; --normalize chars
                     for lm-eval's acc_norm)
  --lm-eval-results FILE  that run's results_<date>.json (default: the one beside the samples file)
${QUERY_TYPE_USAGE}${GENERATION_USAGE}  --service URL      remote service root ending in /api/v1, API key from $CALIBKIT_API_KEY
                     (default: the embedded service on a free loopback port, temp data dir)
  --alpha A          miscoverage level, 0 < A < 1 (default 0.1)
  --method M         LAC, APS or RAPS for multiple-choice data (default LAC);
                     ordinal-aps or CQR for ordinal data (default ordinal-aps)
  --out DIR          output folder (default ./calibkit-out)
  --seed N           split seed (default 1)
  --calibration N    calibration items (default 1000)
  --test N           test items (default 500)
  --audit N          audit items (default 200)
  --monitor N        monitor stream items (default 200)
  --limit N          use only the first N dataset items
  --profile NAME     profile name (default: from the dataset file name)
  --false-alarm-rate R  monitor false-alarm rate (default 0.01)
  --by-option-count  items with different numbers of options: calibrate each count on its own
                     (Mondrian by option count; default: one calibration across option counts)
${PROMPT_USAGE}  --allow-audit-fail exit 0 when the audit fails (default: exit status 3)
  --cache DIR        evidence cache folder (default: $CALIBKIT_CACHE, else $XDG_CACHE_HOME/calibkit,
                     else ~/.cache/calibkit); a repeat run reuses every row computed before
  --no-cache         compute every evidence row and keep none
  --quiet            no progress output
  -h, --help         this text
`;

function integer(option: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new RunOptionError(option, `must be an integer ≥ ${min}, got "${raw}"`);
  return n;
}

function unit(option: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const x = Number(raw);
  if (!(x > 0 && x < 1)) throw new RunOptionError(option, `must be a number strictly between 0 and 1, got "${raw}"`);
  return x;
}

function lmEvalFile(option: string, raw: string): string {
  const file = resolve(raw);
  if (!existsSync(file)) throw new RunOptionError(option, `no file at ${file}`);
  return file;
}

export function parseRunOptions(argv: string[]): RunOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        model: { type: "string" }, dataset: { type: "string" }, service: { type: "string" }, alpha: { type: "string" },
        method: { type: "string" }, out: { type: "string" }, seed: { type: "string" }, calibration: { type: "string" },
        test: { type: "string" }, audit: { type: "string" }, monitor: { type: "string" }, limit: { type: "string" },
        profile: { type: "string" }, "false-alarm-rate": { type: "string" }, quiet: { type: "boolean" },
        "by-option-count": { type: "boolean" }, "from-lm-eval": { type: "string" }, "lm-eval-results": { type: "string" },
        layout: { type: "string" }, fields: { type: "string" }, "allow-audit-fail": { type: "boolean" },
        "query-type": { type: "string" }, guarantee: { type: "string" }, target: { type: "string" }, delta: { type: "string" },
        "batch-size": { type: "string" }, stage: { type: "string", multiple: true }, cache: { type: "string" }, "no-cache": { type: "boolean" },
        help: { type: "boolean", short: "h" }, ...PROMPT_FLAG_OPTIONS, ...GENERATION_FLAG_OPTIONS,
      },
    });
  } catch (err) {
    const message = parseArgsMessage(err, argv);
    const option = /(--?[\w-]+)/.exec(message)?.[1] ?? "";
    throw new RunOptionError(option.replace(/^-+/, "") || "?", `${message}. Run \`calibkit run --help\` for the options.`);
  }
  const v = parsed.values;
  const method = v.method;
  if (method !== undefined && !["lac", "aps", "raps", "ordinal-aps", "cqr"].includes(method.toLowerCase())) {
    throw new RunOptionError("method", `must be LAC, APS, RAPS, ordinal-aps or CQR, got "${v.method}"`);
  }
  if (v.service !== undefined && !/^https?:\/\/.+/i.test(v.service)) throw new RunOptionError("service", `must be an http(s) URL ending in /api/v1, got "${v.service}"`);
  const generation = parseGenerationOptions(v, (option, problem) => {
    throw new RunOptionError(option, problem);
  });
  const dataset = resolve(v.dataset ?? (generation ? DEFAULT_GENERATION_DATASET : DEFAULT_DATASET));
  if (!v.help && !existsSync(dataset)) throw new RunOptionError("dataset", `no file at ${dataset}`);
  if (v.profile !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(v.profile)) {
    throw new RunOptionError("profile", "must start with a letter or digit and hold only letters, digits, '.', '_' and '-'");
  }
  return {
    model: v.model ?? defaultModel(),
    dataset,
    datasetOptions: parseDatasetOptions(v.layout, v.fields, (option, problem) => {
      throw new RunOptionError(option, problem);
    }),
    service: v.service,
    alpha: unit("alpha", v.alpha, 0.1),
    method,
    out: resolve(v.out ?? "calibkit-out"),
    seed: integer("seed", v.seed, 1, 0),
    calibration: integer("calibration", v.calibration, 1000, 1),
    test: integer("test", v.test, 500, 1),
    audit: integer("audit", v.audit, 200, 0),
    monitor: integer("monitor", v.monitor, 200, 0),
    limit: v.limit === undefined ? undefined : integer("limit", v.limit, 0, 2),
    profile: v.profile,
    falseAlarmRate: unit("false-alarm-rate", v["false-alarm-rate"], 0.01),
    byOptionCount: v["by-option-count"] ?? false,
    fromLmEval: v["from-lm-eval"] === undefined ? undefined : lmEvalFile("from-lm-eval", v["from-lm-eval"]),
    lmEvalResults: v["lm-eval-results"] === undefined ? undefined : lmEvalFile("lm-eval-results", v["lm-eval-results"]),
    ...parseQueryTypeOptions(v, (option, problem) => {
      throw new RunOptionError(option, problem);
    }),
    ...(generation ? { generation } : {}),
    prompt: parsePromptFlags(generation ? { ...v, fewshot: undefined, "num-fewshot": undefined } : v, (flag, problem) => {
      throw new RunOptionError(flag, problem);
    }),
    allowAuditFail: v["allow-audit-fail"] ?? false,
    cache: cacheDirOf(v.cache, v["no-cache"]),
    quiet: v.quiet ?? false,
    help: v.help ?? false,
  };
}

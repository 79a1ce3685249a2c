// The options of free-form runs (`--task`, `--samples`, `--scorer` and the sampling settings; docs/generation.md).
// With --task, --fewshot and --num-fewshot are the task's few-shot split and count (default the task's own).
import { DEFAULT_SCORER, GenerationOptionsSchema, type GenerationOptions, type ResolvedGenerationOptions } from "../../run/index.js";
import { GENERATION_TASK_NAMES } from "../../evidence/index.js";

export const GENERATION_FLAG_OPTIONS = {
  task: { type: "string" }, samples: { type: "string" }, scorer: { type: "string" }, temperature: { type: "string" },
  "top-p": { type: "string" }, "top-k": { type: "string" }, "max-tokens": { type: "string" }, "sample-seed": { type: "string" },
  scorers: { type: "string" }, grader: { type: "string" }, "judge-model": { type: "string" }, "judge-stage": { type: "string" }, "claim-score": { type: "string" },
} as const;

export const GENERATION_USAGE = `  --task T           free-form answers: ${GENERATION_TASK_NAMES.join(", ")} (lm-eval's prompt,
                     few-shot, stops and grader; default dataset fixtures/story-answers.jsonl);
                     --fewshot / --num-fewshot are then the task's few-shot split and count
  --samples K        sampled answers besides the greedy one (default 5)
  --scorer NAME      lm-polygraph's estimator name whose confidence is calibrated
                     (default ${DEFAULT_SCORER}; \`calibkit scores --list\` names them all)
  --scorers LIST     scorers computed beside it, comma-separated, or all (default: every one the
                     level allows but the pairwise ones, which judge every pair of samples)
  --grader G         task (the task's lm-eval metric, default) or judge (a model asked whether the
                     answer means the same as a reference; \`calibkit prompts --grader judge\`)
  --judge-model M    the judge's model: .gguf, ONNX folder or URL (default the run's --model)
  --judge-stage NAME the judge's model as the --stage server of that name
  --claim-score S    claim runs: frequency (across the answers, default) or p_true (the model's
                     p(True) for each claim)
  --temperature T    sampling temperature (default 1)
  --top-p P          nucleus mass in (0, 1] (default 1)
  --top-k K          candidate tokens per step, 0 for all (default 0)
  --max-tokens N     most tokens per answer (default 16)
  --sample-seed N    seed of the sampler, apart from the split's --seed (default 0)
`;

type Fail = (option: string, problem: string) => never;
type Values = { [K in keyof typeof GENERATION_FLAG_OPTIONS]?: string | undefined } & { fewshot?: string | undefined; "num-fewshot"?: string | undefined };

function num(option: string, raw: string | undefined, fail: Fail, ok: (x: number) => boolean, rule: string): number | undefined {
  if (raw === undefined) return undefined;
  const x = Number(raw);
  if (raw.trim() === "" || !ok(x)) fail(option, `must be ${rule}, got "${raw}"`);
  return x;
}

/** The free-form options, or undefined without --task (then the other generation flags are refused). */
export function parseGenerationOptions(v: Values, fail: Fail): ResolvedGenerationOptions | undefined {
  if (v.task === undefined) {
    for (const flag of Object.keys(GENERATION_FLAG_OPTIONS)) if (v[flag as keyof Values] !== undefined) fail(flag, "applies to free-form runs: give --task as well");
    return undefined;
  }
  if (!(GENERATION_TASK_NAMES as readonly string[]).includes(v.task)) fail("task", `must be one of ${GENERATION_TASK_NAMES.join(", ")}, got "${v.task}"`);
  const int = (x: number) => Number.isInteger(x) && x >= 0;
  const samples = num("samples", v.samples, fail, (x) => int(x) && x <= 64, "a whole number from 0 to 64");
  const temperature = num("temperature", v.temperature, fail, (x) => x > 0 && Number.isFinite(x), "a positive number");
  const topP = num("top-p", v["top-p"], fail, (x) => x > 0 && x <= 1, "a number in (0, 1]");
  const topK = num("top-k", v["top-k"], fail, int, "a whole number");
  const maxTokens = num("max-tokens", v["max-tokens"], fail, (x) => int(x) && x >= 1, "a whole number ≥ 1");
  const sampleSeed = num("sample-seed", v["sample-seed"], fail, int, "a whole number");
  const numFewshot = num("num-fewshot", v["num-fewshot"], fail, int, "a whole number");
  const scorers = v.scorers === undefined ? undefined : v.scorers.trim() === "all" ? "all" as const : v.scorers.split(",").map((n) => n.trim()).filter(Boolean);
  const given: GenerationOptions = {
    task: v.task as GenerationOptions["task"],
    ...(samples !== undefined ? { samples } : {}), ...(v.scorer !== undefined ? { scorer: v.scorer } : {}),
    ...(temperature !== undefined ? { temperature } : {}), ...(topP !== undefined ? { topP } : {}), ...(topK !== undefined ? { topK } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}), ...(sampleSeed !== undefined ? { sampleSeed } : {}), ...(numFewshot !== undefined ? { numFewshot } : {}),
    ...(v.fewshot !== undefined ? { fewshotFile: v.fewshot } : {}),
    ...(scorers !== undefined ? { scorers } : {}), ...(v.grader !== undefined ? { grader: v.grader as GenerationOptions["grader"] } : {}),
    ...(v["judge-model"] !== undefined ? { judgeModel: v["judge-model"] } : {}), ...(v["judge-stage"] !== undefined ? { judgeStage: v["judge-stage"] } : {}),
    ...(v["claim-score"] !== undefined ? { claimScore: v["claim-score"] as GenerationOptions["claimScore"] } : {}),
  };
  const parsed = GenerationOptionsSchema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = String(issue.path[0] ?? "task");
    const named = key === "scorers" && typeof issue.path[1] === "number" ? (given.scorers as string[])[issue.path[1]] : undefined;
    const detail = named !== undefined ? `"${named}" ` : "";
    fail(key === "fewshotFile" ? "fewshot" : key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`), detail + issue.message);
  }
  return parsed.data;
}

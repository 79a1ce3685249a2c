// What a free-form run adds to the options (issue 27, docs/generation.md): the task, the samples beside the greedy
// answer and how they are drawn, and the scorer whose confidence the guarantee is calibrated on.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { GENERATION_TASK_NAMES } from "../evidence/index.js";
import { scorerByName, SCORERS } from "../uncertainty/index.js";

/** The bundled generation fixture stories260K answers: `calibkit run --task generic` with no --dataset. */
export const DEFAULT_GENERATION_DATASET = resolve(fileURLToPath(new URL("../../fixtures/story-answers.jsonl", import.meta.url)));

/** The scorer of a gate or belief run when --scorer is not given (lm-polygraph's name). */
export const DEFAULT_SCORER = "MaximumSequenceProbability";

/** Who grades free-form answers (docs/generation.md, "Grading"). */
export const GRADERS = ["task", "judge"] as const;
/** What scores a claim (docs/generation.md, "Guarantees"). */
export const CLAIM_SCORES = ["frequency", "p_true"] as const;

export const GenerationOptionsSchema = z.strictObject({
  /** lm-eval's task name (triviaqa, nq_open, gsm8k, truthfulqa_gen) or generic. */
  task: z.enum(GENERATION_TASK_NAMES),
  /** Sampled answers besides the greedy one (K). Default 5. */
  samples: z.number().int().min(0).max(64).default(5),
  /** The scorer whose confidence is the evidence, under lm-polygraph's estimator name. Default MaximumSequenceProbability. */
  scorer: z.string().default(DEFAULT_SCORER).refine((n) => scorerByName(n) !== undefined, {
    message: `must be one of lm-polygraph's estimator names calibkit has: ${SCORERS.map((s) => s.name).join(", ")}`,
  }),
  /** Softmax temperature of the samples. Default 1. */
  temperature: z.number().positive().finite().default(1),
  /** Nucleus mass of the samples, in (0, 1]. Default 1. */
  topP: z.number().gt(0).max(1).default(1),
  /** Most candidate tokens per sampled step; 0 keeps all. Default 0. */
  topK: z.number().int().min(0).default(0),
  /** Seed of the sampler, apart from the split's --seed, so that repeats over splits reuse one set of answers. Default 0. */
  sampleSeed: z.number().int().min(0).default(0),
  /** Most tokens per answer. Default 16. */
  maxTokens: z.number().int().min(1).max(4096).default(16),
  /** The task's few-shot split, in the dataset's layout. */
  fewshotFile: z.string().min(1).transform((p) => resolve(p)).optional(),
  /** Exemplars per prompt. Default the task's own (gsm8k 5, the others 0). */
  numFewshot: z.number().int().min(0).optional(),
  /** Who grades the greedy answer: the task's lm-eval metric, or a judge model asked whether it means the same as a reference. Default task. */
  grader: z.enum(GRADERS).default("task"),
  /** The judge grader's model (a .gguf file, an ONNX folder or an OpenAI-compatible URL). Default the run's own model. */
  judgeModel: z.string().min(1).optional(),
  /** The judge grader's model as one of the run's --stage servers, by name. */
  judgeStage: z.string().min(1).optional(),
  /** What scores a claim run's claims: their frequency across the answers, or the model's p(True). Default frequency. */
  claimScore: z.enum(CLAIM_SCORES).default("frequency"),
  /** Scorers computed beside --scorer: lm-polygraph names, or "all" the level allows. Default every one but the pairwise ones (docs/generation.md). */
  scorers: z.union([z.literal("all"), z.array(z.string().refine((n) => scorerByName(n) !== undefined, { message: "is not a scorer calibkit has (`calibkit scores --list`)" })).min(1)]).optional(),
}).refine((o) => o.grader === "judge" || (o.judgeModel === undefined && o.judgeStage === undefined), {
  message: "names the judge grader's model: give --grader judge as well", path: ["judgeModel"],
}).refine((o) => o.judgeModel === undefined || o.judgeStage === undefined, {
  message: "give the judge as --judge-model or as --judge-stage, not both", path: ["judgeStage"],
});


export type GenerationOptions = z.input<typeof GenerationOptionsSchema>;
export type ResolvedGenerationOptions = z.output<typeof GenerationOptionsSchema>;

// Who grades a free-form run's answers and scores its claims (docs/generation.md, "Grading"): the task's lm-eval
// metric, or the judge grader — the run's own model, another local model or a --stage server asked whether the
// answer means the same as a reference (answerJudge.ts) — and a claim's frequency across the answers or its p(True).
import { levelRank } from "../../api/index.js";
import {
  cutAtStops, gradeAnswer, judgeGrade, JUDGE_GRADER, P_TRUE_CLAIM_PROMPT, type GenerationPromptItem, type GenerationTask, type JudgeQuestion,
} from "../../evidence/index.js";
import { RunInputError, RunOptionError } from "../errors.js";
import type { ResolvedGenerationOptions } from "../generationOptions.js";
import { cachedClaimPTrue, cachedVerdicts, type GenerationInput, type ScoringModel } from "./generationRows.js";
import type { RowCache } from "./cachedCalls.js";
import type { DriverContext } from "./types.js";

/** The run's own model for its statistics and claims' p(True); the judge grader's model when it grades. */
export interface ScoringModels {
  own: ScoringModel;
  judge?: ScoringModel;
}

export async function scoringModels(
  ctx: DriverContext, gen: ResolvedGenerationOptions, runModel: string, rendering: Pick<ScoringModel, "render" | "renderKey">,
): Promise<ScoringModels> {
  const own: ScoringModel = { adapter: ctx.adapter, name: runModel, ...rendering };
  if (gen.grader !== "judge") return { own };
  let judge = own;
  if (gen.judgeStage !== undefined) {
    const stage = ctx.stages.find((s) => s.name === gen.judgeStage);
    if (!stage) {
      const known = ctx.stages.length ? ` (the run's stages: ${ctx.stages.map((s) => s.name).join(", ")})` : "";
      throw new RunOptionError("judge-stage", `"${gen.judgeStage}" names no --stage server: give --stage ${gen.judgeStage}=URL as well${known}`);
    }
    // A server is given plain text: its completions endpoint knows nothing of the task's chat template.
    judge = { adapter: stage.adapter, name: `${stage.name}=${stage.url}`, renderKey: null };
  } else if (gen.judgeModel !== undefined && gen.judgeModel !== runModel) {
    if (!ctx.openModel) throw new RunOptionError("judge-model", "this run cannot open a second model");
    judge = { adapter: await ctx.openModel(gen.judgeModel), name: gen.judgeModel, renderKey: null };
  }
  if (levelRank(judge.adapter.accessLevel) < 1) {
    throw new RunInputError(judge.name, `the judge grader scores " yes" against " no", so its model must give log-probabilities (L1 or above); this one exposes ${judge.adapter.accessLevel}`);
  }
  return { own, judge };
}

/** The judge's part of the profile's prompt_template_hash: its prompt, its model and how its prompts are rendered. */
export const graderKey = (judge: ScoringModel): string => `grader:${JUDGE_GRADER}:${judge.adapter.fingerprint}:${judge.renderKey ?? "plain"}`;

/** What scores a claim run's claims, as the summary names it. */
export const claimScoreName = (s: ResolvedGenerationOptions["claimScore"]): string =>
  s === "p_true" ? `claim p(True) (${P_TRUE_CLAIM_PROMPT.id})` : "claim frequency across the answers (Mohri & Hashimoto)";

export interface ItemToGrade {
  input: GenerationInput;
  item: GenerationPromptItem;
  greedy: string;
  /** A claim run's claims of the greedy answer; [] otherwise. */
  claims: readonly string[];
}

export interface ItemGrades {
  grade: { correct: boolean; grader: string };
  claimGrades: boolean[];
  /** p(True) of each claim, under --claim-score p_true. */
  claimScores?: number[];
  /** The judge grader's p(yes) for each reference. */
  judge?: { p_yes: number[] };
}

export async function gradeItems(
  rows: RowCache, models: ScoringModels, gen: ResolvedGenerationOptions, task: GenerationTask, items: readonly ItemToGrade[],
): Promise<ItemGrades[]> {
  const withClaims = items.some((i) => i.claims.length > 0);
  if (gen.claimScore === "p_true" && withClaims && levelRank(models.own.adapter.accessLevel) < 1) {
    throw new RunInputError(models.own.name, `--claim-score p_true scores "True" after a prompt, so the model must give log-probabilities (L1 or above); this one exposes ${models.own.adapter.accessLevel}`);
  }
  const claimScores = gen.claimScore === "p_true" && withClaims
    ? await cachedClaimPTrue(rows, models.own, items.map((i) => ({ question: i.input.question, claims: i.claims })))
    : undefined;
  const scoresOf = (k: number) => (claimScores ? { claimScores: claimScores[k]! } : {});
  if (!models.judge) {
    return items.map((i, k) => ({
      grade: gradeAnswer(task, i.greedy, i.item), claimGrades: i.claims.map((c) => gradeAnswer(task, c, i.item).correct), ...scoresOf(k),
    }));
  }
  // The answer the judge reads is the one the task's grader would read: cut at the task's stops.
  const questions: JudgeQuestion[] = items.flatMap((i) => {
    const prepared = task.prepare(i.item);
    const ask = (answer: string): JudgeQuestion => ({ question: i.input.question, answer: cutAtStops(answer, task.until(prepared)), references: prepared.references });
    return [ask(i.greedy), ...i.claims.map(ask)];
  });
  const verdicts = await cachedVerdicts(rows, models.judge, questions);
  let n = 0;
  return items.map((i, k) => {
    const greedy = verdicts[n++]!;
    const claimGrades = i.claims.map(() => judgeGrade(verdicts[n++]!).correct);
    return { grade: judgeGrade(greedy), claimGrades, judge: { p_yes: greedy.pYes }, ...scoresOf(k) };
  });
}

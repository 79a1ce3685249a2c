// Model-scored prompts about an answer, for what no rule grades (issue 27, points 4 and 6): the judge grader asks
// whether the answer means the same as each reference (ANSWER_JUDGE_PROMPT, p(yes) over {yes, no}), and a claim's
// p(True) is lm-polygraph's ClaimPromptCalculator (PTrueClaim, Kadavath et al. 2022). Each call scores all of its
// prompts in one batch.
import type { ModelAdapter } from "../../adapters/index.js";
import { ANSWER_JUDGE_PROMPT, answerJudgeText, P_TRUE_CLAIM_PROMPT, pTrueClaimText } from "./judgePrompts.js";
import { scoreAsks, yesShare, type Ask, type JudgeOptions } from "./scoredPrompts.js";

/** The grader's name, as items.jsonl and the summary write it. */
export const JUDGE_GRADER = `judge:${ANSWER_JUDGE_PROMPT.id}`;

export interface JudgeQuestion {
  /** The task's question text (before any chat template). */
  question: string;
  /** The answer to grade, already cut at the task's stops. */
  answer: string;
  references: readonly string[];
}

/** One answer's verdict: p(yes) for each reference, in the references' order. */
export interface JudgeVerdict {
  pYes: number[];
}

/** Every question's p(yes) per reference, all prompts in one batch. */
export async function judgeAnswers(adapter: ModelAdapter, questions: readonly JudgeQuestion[], o: JudgeOptions = {}): Promise<JudgeVerdict[]> {
  const asks: Ask[] = questions.flatMap((q) => q.references.map((r) => ({
    text: answerJudgeText(q.question, r, q.answer.trim()), continuations: ANSWER_JUDGE_PROMPT.continuations,
  })));
  const scored = await scoreAsks(adapter, asks, o);
  let i = 0;
  return questions.map((q) => ({ pYes: q.references.map(() => yesShare(scored[i++]!)) }));
}

/** The judge's grade: right when p(yes) > p(no) for some reference; `metrics.p_yes` is the largest p(yes). */
export function judgeGrade(v: JudgeVerdict): { correct: boolean; grader: string; metrics: Record<string, number> } {
  const best = v.pYes.length ? Math.max(...v.pYes) : 0;
  return { correct: best > 0.5, grader: JUDGE_GRADER, metrics: { p_yes: best } };
}

export interface ClaimQuestion {
  question: string;
  claims: readonly string[];
}

/** p("True") after lm-polygraph's claim-level P(True) prompt, for every claim of every question, in one batch. */
export async function claimPTrue(adapter: ModelAdapter, questions: readonly ClaimQuestion[], o: JudgeOptions = {}): Promise<number[][]> {
  const asks: Ask[] = questions.flatMap((q) => q.claims.map((c) => ({ text: pTrueClaimText(q.question, c), continuations: P_TRUE_CLAIM_PROMPT.continuations })));
  const scored = await scoreAsks(adapter, asks, o);
  let i = 0;
  return questions.map((q) => q.claims.map(() => Math.exp(scored[i++]![0]!)));
}

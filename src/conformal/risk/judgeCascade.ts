// Judge cascades: each stage answers with its calibrated conformal set at α; a singleton set names the
// winner, any other set (empty or ambiguous) escalates to the next stage, and past the last stage to
// the human queue. Each stage's set keeps its own marginal coverage guarantee.

import type { Rng } from "../numeric/rng.js";
import { predictSet, type CalibratedSet } from "../sets/rowListApi.js";

export const HUMAN_QUEUE = "human_queue" as const;

export interface JudgeStageInput {
  /** Stage name reported in `escalatedTo` (e.g. the backend name). */
  readonly name: string;
  readonly calibrated: CalibratedSet;
  /** p(candidate wins) over the candidate names (and "tie" when the query allows ties). */
  readonly probabilities: ArrayLike<number>;
  readonly candidates: readonly string[];
  readonly group?: string;
}

export interface JudgeStep {
  readonly stage: string;
  readonly set: string[];
  /** The winner when the set is a singleton. */
  readonly winner: string | null;
}

export interface JudgeOutcome {
  /** The winning candidate, null when every stage escalated (the query went to the human queue). */
  readonly winner: string | null;
  /** Index of the stage that answered, null for the human queue. */
  readonly answeredBy: number | null;
  /** null when the first stage answered; else the stage that answered, or "human_queue". */
  readonly escalatedTo: string | null;
  readonly steps: JudgeStep[];
}

/** One stage: its conformal set and, when it is a singleton, the winner. */
export function judgeStage(stage: JudgeStageInput, rng?: Rng): JudgeStep {
  const p = predictSet(stage.calibrated, { probabilities: stage.probabilities, options: stage.candidates, ...(stage.group !== undefined ? { group: stage.group } : {}) }, rng, { pValues: false });
  return { stage: stage.name, set: p.set, winner: p.set.length === 1 ? p.set[0]! : null };
}

/**
 * Runs the cascade over stages computed up front. A service that calls stages lazily loops judgeStage
 * itself and stops at the first winner; both give the same outcome for the same inputs and rng.
 */
export function judgeCascade(stages: readonly JudgeStageInput[], rng?: Rng): JudgeOutcome {
  const steps: JudgeStep[] = [];
  for (let i = 0; i < stages.length; i++) {
    const step = judgeStage(stages[i]!, rng);
    steps.push(step);
    if (step.winner !== null) return { winner: step.winner, answeredBy: i, escalatedTo: i === 0 ? null : stages[i]!.name, steps };
  }
  return { winner: null, answeredBy: null, escalatedTo: HUMAN_QUEUE, steps };
}

// What every query engine receives and returns. Engines are pure over the profile's cached calibration,
// except judge and route, which call their stages' backends through `env`.
import type { AccessLevel, Answer, Evidence, Query } from "../../api/index.js";
import type { ProfileState } from "../profiles/profileState.js";

export interface Usage {
  backend_calls: number;
  backend_tokens: number;
}

/** Calls a judge or route stage; provided by the evaluate orchestrator (backends + human queue). */
export interface StageCaller {
  /** p(candidate) for each candidate, from a configured backend (the judge prompt is built by the caller). */
  judge(stage: unknown, path: string, prompt: string, candidates: readonly string[]): Promise<Float64Array>;
  /** The stage's output for a prompt, its confidence in [0, 1], and what the call cost in cents. */
  generate(stage: unknown, path: string, prompt: string): Promise<{ name: string; output: string; confidence: number; costCents: number }>;
  /** `n` sampled responses (claim evidence from a model backend). */
  samples(stage: unknown, path: string, prompt: string, n: number): Promise<string[]>;
  /** The access level a configured backend reached when probed. */
  level(stage: unknown, path: string): AccessLevel | undefined;
  /** Puts an item on the human queue; returns its id. */
  enqueueHuman(item: { profile: string; query: string; context: unknown; detail: Record<string, unknown> }): Promise<string>;
  /** Cents one call of the stage costs before tokens (its configured cost_cents_per_call). */
  nominalCost(stage: unknown, path: string): number;
  /** The configured name of a stage's backend (for `served_by` / `escalated_to`). */
  stageName(stage: unknown, path: string): string;
}

export interface QueryInput<Q extends Query = Query> {
  name: string;
  /** The response's `request_id`: part of the seed of randomized predictions (seeds.ts). */
  requestId: string;
  query: Q;
  profile: ProfileState;
  /** The query's evidence (client_evidence), or evidence the service obtained from the request's backend. */
  evidence: Evidence | undefined;
  /** Access level the evidence came from. */
  level: AccessLevel | undefined;
  context: unknown;
  stages: StageCaller;
  warnings: string[];
}

export interface QueryOutcome {
  answer: Answer;
  /** True when the profile lacked the examples for the guarantee: the answer is heuristic and the status 424. */
  insufficient: boolean;
  /** The answer's JSON when the engine wrote it (JSON.stringify(answer) gives the same text). */
  json?: string;
}

/** An answer the engine wrote as JSON (setAnswerJson): its object is read back from the text only when asked for. */
export class WrittenAnswer implements QueryOutcome {
  readonly insufficient = false;
  constructor(readonly json: string) {}
  get answer(): Answer {
    return JSON.parse(this.json) as Answer;
  }
}

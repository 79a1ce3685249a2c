// claim over free-form answers: the greedy answer's sentences are its claims, each scored by the share of the
// answers (the greedy one and the K samples) that state it — Mohri & Hashimoto's frequency score (Conformal
// Factuality, 2024), the same agreement the service computes from samples — or by the model's p(True) for the
// claim (lm-polygraph's PTrueClaim), sent as the client's claim scores, and labelled by the run's grader.
import type { ExampleRecord } from "../../api/index.js";
import { agreementFrequencies, splitIntoClaims } from "../../conformal/index.js";
import type { DriverContext, Prepared } from "./types.js";

export interface GeneratedAnswers {
  id: string;
  prompt: string;
  greedy: string;
  samples: readonly string[];
}

/** The greedy answer's claims, in order. */
export const claimsOf = (greedy: string): string[] => splitIntoClaims(greedy);

/** A claim run's item; `scores` (one per claim of claimsOf) replaces the frequency score when given. */
export function claimPrepared(
  a: GeneratedAnswers, accessLevel: DriverContext["accessLevel"], correct: (claim: string, index: number) => boolean, scores?: readonly number[],
): Prepared {
  const texts = claimsOf(a.greedy);
  const score = scores ?? agreementFrequencies(texts, [a.greedy, ...a.samples]);
  // The response is the first sample, with its claims and their scores; the samples follow as plain text.
  const evidence = { samples: [{ text: a.greedy, claims: texts.map((text, i) => ({ text, score: score[i]! })) }, ...a.samples], claim_scoring: "client" };
  const claims = texts.map((text, i) => ({ text, correct: correct(text, i) }));
  const record: ExampleRecord = { context: a.prompt, label: { claims }, metadata: { id: a.id, evidence, access_level: accessLevel } };
  return { id: a.id, record, context: a.prompt, query: { type: "claim", instructions: "Answer.", evidence }, truth: claims };
}

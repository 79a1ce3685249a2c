// Conformal factuality (Mohri & Hashimoto 2024): an example's score is the claim-score threshold at which
// a retained claim first turns false, max{score of a false claim} (−∞ if none); with q̂ the split-conformal
// quantile of these, keeping the claims scored > q̂ keeps only true claims with probability ≥ 1 − α.

import { checkUnitOpen, invalid } from "./errors.js";
import { sortScores } from "./quantile.js";
import { assertKind } from "./set.js";
import { makeStratum, type Stratum } from "./strata.js";
import { extendStratum } from "./strataExtend.js";

export interface ScoredClaim {
  readonly text: string;
  /** Confidence that the claim is true (client score or agreement frequency); larger = keep first. */
  readonly score: number;
}

export interface LabelledClaim {
  readonly score: number;
  readonly correct: boolean;
}

export interface CalibratedClaims {
  readonly kind: "claim";
  readonly alpha: number;
  readonly n: number;
  /** Keep a claim iff its score > threshold (+∞: keep none). */
  readonly threshold: number;
  readonly stratum: Stratum;
}

export interface ClaimDecision extends ScoredClaim {
  /** Why it was dropped, or "above_threshold" when retained. */
  readonly reason: "above_threshold" | "below_threshold" | "no_calibrated_threshold";
}

export interface ClaimFiltering {
  readonly retained: ClaimDecision[];
  readonly dropped: ClaimDecision[];
  readonly threshold: number;
}

/** max score over the false claims of one example; −∞ when all claims are correct (or there are none). */
export function claimExampleScore(claims: readonly LabelledClaim[]): number {
  let worst = -Infinity;
  for (let i = 0; i < claims.length; i++) {
    const c = claims[i]!;
    if (typeof c.score !== "number" || Number.isNaN(c.score)) throw invalid(`claims[${i}].score must be a number`, `claims[${i}].score`);
    if (!c.correct && c.score > worst) worst = c.score;
  }
  return worst;
}

/** Each example's score, an error naming the example that has no valid one. */
function exampleScores(examples: readonly (readonly LabelledClaim[])[]): Float64Array {
  const scores = new Float64Array(examples.length);
  for (let i = 0; i < examples.length; i++) {
    try {
      scores[i] = claimExampleScore(examples[i]!);
    } catch (e) {
      throw invalid(`examples[${i}]: ${(e as Error).message}`, `examples[${i}]`);
    }
  }
  return scores;
}

export function calibrateClaims(examples: readonly (readonly LabelledClaim[])[], options: { alpha: number }): CalibratedClaims {
  checkUnitOpen(options.alpha, "alpha");
  const stratum = makeStratum(sortScores(exampleScores(examples)), options.alpha);
  return Object.freeze({ kind: "claim" as const, alpha: options.alpha, n: examples.length, threshold: stratum.threshold, stratum });
}

/**
 * `cal` with more examples (a profile's next batch): their scores join the sorted ones (strataExtend.ts), so the
 * result equals calibrateClaims on all the examples at once, field by field, at O(b log b) for b examples.
 */
export function extendClaims(cal: CalibratedClaims, examples: readonly (readonly LabelledClaim[])[]): CalibratedClaims {
  assertKind(cal, "claim", "extendClaims");
  if (examples.length === 0) return cal;
  const stratum = extendStratum(cal.stratum, exampleScores(examples), cal.alpha);
  return Object.freeze({ kind: "claim" as const, alpha: cal.alpha, n: cal.n + examples.length, threshold: stratum.threshold, stratum });
}

/** Splits a response's claims into retained (score > q̂) and dropped, each in input order. */
export function filterClaims(cal: CalibratedClaims, claims: readonly ScoredClaim[]): ClaimFiltering {
  assertKind(cal, "claim", "filterClaims");
  const retained: ClaimDecision[] = [];
  const dropped: ClaimDecision[] = [];
  for (let i = 0; i < claims.length; i++) {
    const c = claims[i]!;
    if (Number.isNaN(c.score)) throw invalid(`claims[${i}].score is NaN`, `claims[${i}].score`);
    if (c.score > cal.threshold) retained.push({ text: c.text, score: c.score, reason: "above_threshold" });
    else dropped.push({ text: c.text, score: c.score, reason: cal.threshold === Infinity ? "no_calibrated_threshold" : "below_threshold" });
  }
  return { retained, dropped, threshold: cal.threshold };
}

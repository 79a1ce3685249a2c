// Conformal factuality (Mohri & Hashimoto 2024): an example's score is the claim-score threshold at which
// a retained claim first turns false, max{score of a false claim} (−∞ if none); with q̂ the split-conformal
// quantile of these, keeping the claims scored > q̂ keeps only true claims with probability ≥ 1 − α.
// Tied scores (always so for frequencies across samples) are broken as the paper does, by a seeded uniform per
// claim compared after the score, when the caller passes them (`uniforms`); without, tied claims are kept or
// dropped together, which is valid but keeps fewer.

import { checkUnitOpen, invalid, assertKind } from "../errors.js";
import { sortScores } from "../numeric/orderStatistic.js";
import { makeStratum, type Stratum } from "../strata/mondrianStrata.js";
import { extendStratum } from "../strata/extendStrata.js";

export interface ScoredClaim {
  readonly text: string;
  /** Confidence that the claim is true (client score or agreement frequency); larger = keep first. */
  readonly score: number;
}

export interface LabelledClaim {
  readonly score: number;
  readonly correct: boolean;
}

/** Random tie-breaking: the calibration's (score, u) pairs and the u of the threshold pair. */
export interface ClaimTieBreak {
  /** A claim scored exactly `threshold` is kept iff its u > this. */
  readonly u: number;
  /** Each example's score and the u of the false claim that sets it (0 when none), in example order. */
  readonly scores: Float64Array;
  readonly uniforms: Float64Array;
}

export interface CalibratedClaims {
  readonly kind: "claim";
  readonly alpha: number;
  readonly n: number;
  /** Keep a claim iff its score > threshold (+∞: keep none), or equals it with u above tieBreak.u. */
  readonly threshold: number;
  readonly stratum: Stratum;
  /** Present when ties are broken at random (calibrated with uniforms). */
  readonly tieBreak?: ClaimTieBreak;
}

/** One u in [0, 1) per claim of each example (random tie-breaking). */
export type ClaimUniforms = readonly ArrayLike<number>[];

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

/** The example's score and the u of the false claim that sets it, (score, u) compared in that order. */
function examplePair(claims: readonly LabelledClaim[], us: ArrayLike<number>, i: number): { score: number; u: number } {
  if (us.length !== claims.length) throw invalid(`uniforms[${i}] has ${us.length} entries for ${claims.length} claims`, `uniforms[${i}]`);
  let score = -Infinity;
  let u = 0;
  for (let j = 0; j < claims.length; j++) {
    const c = claims[j]!;
    const v = us[j]!;
    if (!(v >= 0 && v < 1)) throw invalid(`uniforms[${i}][${j}] must lie in [0, 1)`, `uniforms[${i}][${j}]`);
    if (!c.correct && (c.score > score || (c.score === score && v > u))) {
      score = c.score;
      u = v;
    }
  }
  return { score, u };
}

/** The tie-break of a calibration whose example scores and u are these: the u of the k-th smallest pair. */
function tieBreakOf(stratum: Stratum, scores: Float64Array, uniforms: Float64Array): ClaimTieBreak {
  let u = 0;
  if (stratum.k <= stratum.n) {
    const t = stratum.threshold;
    let below = 0;
    const tied: number[] = [];
    for (let i = 0; i < scores.length; i++) {
      if (scores[i]! < t) below++;
      else if (scores[i] === t) tied.push(uniforms[i]!);
    }
    tied.sort((a, b) => a - b);
    u = tied[stratum.k - below - 1]!;
  }
  return Object.freeze({ u, scores, uniforms });
}

function pairColumns(examples: readonly (readonly LabelledClaim[])[], uniforms: ClaimUniforms): { scores: Float64Array; us: Float64Array } {
  if (uniforms.length !== examples.length) throw invalid(`uniforms has ${uniforms.length} entries for ${examples.length} examples`, "uniforms");
  const scores = exampleScores(examples);
  const us = new Float64Array(examples.length);
  for (let i = 0; i < examples.length; i++) {
    const p = examplePair(examples[i]!, uniforms[i]!, i);
    scores[i] = p.score;
    us[i] = p.u;
  }
  return { scores, us };
}

/**
 * `uniforms` (one u per claim, e.g. a seeded generator's draws) breaks ties between claim scores at random, as
 * Mohri & Hashimoto do; filterClaims then needs a u per claim too. Without them tied claims go together.
 */
export function calibrateClaims(examples: readonly (readonly LabelledClaim[])[], options: { alpha: number; uniforms?: ClaimUniforms }): CalibratedClaims {
  checkUnitOpen(options.alpha, "alpha");
  if (!options.uniforms) {
    const stratum = makeStratum(sortScores(exampleScores(examples)), options.alpha);
    return Object.freeze({ kind: "claim" as const, alpha: options.alpha, n: examples.length, threshold: stratum.threshold, stratum });
  }
  const { scores, us } = pairColumns(examples, options.uniforms);
  const stratum = makeStratum(sortScores(scores), options.alpha);
  return Object.freeze({ kind: "claim" as const, alpha: options.alpha, n: examples.length, threshold: stratum.threshold, stratum, tieBreak: tieBreakOf(stratum, scores, us) });
}

/**
 * `cal` with more examples (a profile's next batch): their scores join the sorted ones (strata/extendStrata.ts), so the
 * result equals calibrateClaims on all the examples at once, field by field, at O(b log b) for b examples
 * (plus an O(n) pass for the threshold's tie-break when ties are broken at random; then `uniforms` is required).
 */
export function extendClaims(cal: CalibratedClaims, examples: readonly (readonly LabelledClaim[])[], uniforms?: ClaimUniforms): CalibratedClaims {
  assertKind(cal, "claim", "extendClaims");
  if (examples.length === 0) return cal;
  if (cal.tieBreak && !uniforms) throw invalid("this calibration breaks ties at random: give the new examples' uniforms", "uniforms");
  if (!cal.tieBreak) {
    const stratum = extendStratum(cal.stratum, exampleScores(examples), cal.alpha);
    return Object.freeze({ kind: "claim" as const, alpha: cal.alpha, n: cal.n + examples.length, threshold: stratum.threshold, stratum });
  }
  const { scores, us } = pairColumns(examples, uniforms!);
  const stratum = extendStratum(cal.stratum, scores, cal.alpha);
  const all = new Float64Array(cal.n + examples.length);
  all.set(cal.tieBreak.scores);
  all.set(scores, cal.n);
  const allU = new Float64Array(all.length);
  allU.set(cal.tieBreak.uniforms);
  allU.set(us, cal.n);
  return Object.freeze({ kind: "claim" as const, alpha: cal.alpha, n: all.length, threshold: stratum.threshold, stratum, tieBreak: tieBreakOf(stratum, all, allU) });
}

/**
 * Splits a response's claims into retained (score > q̂, or = q̂ with u above the threshold's when ties are broken
 * at random: then `uniforms` holds one u per claim) and dropped, each in input order.
 */
export function filterClaims(cal: CalibratedClaims, claims: readonly ScoredClaim[], uniforms?: ArrayLike<number>): ClaimFiltering {
  assertKind(cal, "claim", "filterClaims");
  const tie = cal.tieBreak;
  if (tie && (!uniforms || uniforms.length !== claims.length)) throw invalid("this calibration breaks ties at random: give one uniform per claim", "uniforms");
  const retained: ClaimDecision[] = [];
  const dropped: ClaimDecision[] = [];
  for (let i = 0; i < claims.length; i++) {
    const c = claims[i]!;
    if (Number.isNaN(c.score)) throw invalid(`claims[${i}].score is NaN`, `claims[${i}].score`);
    if (tie && !(uniforms![i]! >= 0 && uniforms![i]! < 1)) throw invalid(`uniforms[${i}] must lie in [0, 1)`, `uniforms[${i}]`);
    if (c.score > cal.threshold || (tie !== undefined && c.score === cal.threshold && uniforms![i]! > tie.u)) retained.push({ text: c.text, score: c.score, reason: "above_threshold" });
    else dropped.push({ text: c.text, score: c.score, reason: cal.threshold === Infinity ? "no_calibrated_threshold" : "below_threshold" });
  }
  return { retained, dropped, threshold: cal.threshold };
}

// Claim calibrations: the labelled claims of the profile's examples, scored once as their example arrives
// (the pool grows by the batch, like pools.ts), and the conformal-factuality threshold extended with each
// batch's example scores (extendClaims: exactly what calibrateClaims on all of them gives).
import type { ProfileState } from "../profiles/profileState.js";
import { claimScores } from "./claimScores.js";
import { calibrateClaims, extendClaims, type CalibratedClaims, type LabelledClaim } from "./conformal.js";
import { exampleEvidence } from "./evidence.js";
import { extended } from "./extended.js";
import { cached } from "./pools.js";

interface GrowingClaims {
  /** Examples scanned so far (positions 0 … scanned − 1). */
  scanned: number;
  claims: LabelledClaim[][];
}

const growing = new WeakMap<ProfileState, GrowingClaims>();

/** Labelled claims per example (`label.claims` = [{text, correct}], scored from its evidence): the first n entries. */
export function claimExamples(profile: ProfileState): { n: number; claims: readonly (readonly LabelledClaim[])[] } {
  return cached(profile, "claims", () => {
    let pool = growing.get(profile);
    if (!pool) growing.set(profile, (pool = { scanned: 0, claims: [] }));
    for (const end = profile.n; pool.scanned < end; pool.scanned++) {
      const example = profile.exampleAt(pool.scanned);
      const labelled = labelledClaims(example.label);
      const evidence = exampleEvidence(example);
      if (!labelled || !evidence?.samples) continue;
      const { scores } = claimScores(evidence, labelled.map((c) => c.text));
      pool.claims.push(labelled.map((c, i) => ({ score: scores[i]!, correct: c.correct })));
    }
    return { n: pool.claims.length, claims: pool.claims };
  });
}

export function claimCalibration(profile: ProfileState, alpha: number): CalibratedClaims {
  const { n, claims } = claimExamples(profile);
  const key = `claim-cal|${alpha}`;
  return cached(profile, key, () =>
    extended(profile, key, n, () => calibrateClaims(claims.slice(0, n), { alpha }), (last, from) => extendClaims(last, claims.slice(from, n))));
}

/** The well-formed claims of a claim label, or undefined when the label is not one. */
export function labelledClaims(label: unknown): { text: string; correct: boolean }[] | undefined {
  const claims = (label as { claims?: unknown } | null)?.claims;
  if (!label || typeof label !== "object" || !Array.isArray(claims)) return undefined;
  return claims.filter(
    (c): c is { text: string; correct: boolean } => !!c && typeof (c as { text?: unknown }).text === "string" && typeof (c as { correct?: unknown }).correct === "boolean",
  );
}

// Claim examples as the service calibrates on them and a client recomputes them (conformal factuality,
// Mohri & Hashimoto 2024): each claim scored by the client's own score of the same normalised text (L2+), else
// by the samples' agreement, and given a tie-breaking u seeded from the example's stored position.
import { agreementFrequencies, normalizeClaimText } from "./claimAgreement.js";
import type { LabelledClaim } from "./claimFiltering.js";
import { rngFromString } from "../numeric/rng.js";

/** A sampled response as claim scoring reads it: its text, or its text with the client's scored claims (L2+). */
export type ClaimSample = string | { readonly text: string; readonly claims?: readonly { readonly text: string; readonly score: number }[] | undefined };

/** Scores of `claims`: the client's own score for the same normalised text, else the fraction of samples agreeing. */
export function scoreClaims(samples: readonly ClaimSample[], claims: readonly string[]): { scores: Float64Array; client: boolean } {
  const own = new Map<string, number>();
  for (const s of samples) {
    if (typeof s === "string") continue;
    for (const c of s.claims ?? []) {
      const key = normalizeClaimText(c.text);
      if (!own.has(key)) own.set(key, c.score);
    }
  }
  const agreement = agreementFrequencies(claims, samples.map((s) => (typeof s === "string" ? s : s.claims ? s.claims.map((c) => c.text) : s.text)));
  const scores = new Float64Array(claims.length);
  let client = own.size > 0;
  claims.forEach((text, i) => {
    const score = own.get(normalizeClaimText(text));
    if (score === undefined) client = false;
    scores[i] = score ?? agreement[i]!;
  });
  return { scores, client };
}

/** The tie-breaking u of each claim of the example stored at `position`: one draw each, in order. */
export function claimUniforms(profile: string, position: number, count: number): Float64Array {
  const rng = rngFromString(`${profile}#claims@${position}`);
  return Float64Array.from({ length: count }, () => rng());
}

/** One calibration example of a claim profile: its labelled claims scored from its samples, and their u. */
export function claimExample(
  labelled: readonly { readonly text: string; readonly correct: boolean }[], samples: readonly ClaimSample[], profile: string, position: number,
): { claims: LabelledClaim[]; uniforms: Float64Array } {
  const { scores } = scoreClaims(samples, labelled.map((c) => c.text));
  return { claims: labelled.map((c, i) => ({ score: scores[i]!, correct: c.correct })), uniforms: claimUniforms(profile, position, labelled.length) };
}

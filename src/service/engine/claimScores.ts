// Scores of a response's claims: the client's own score for the same (normalised) claim text at L2+, else
// the fraction of samples that agree with the claim.
import type { Evidence, Sample } from "../../api/index.js";
import { agreementFrequencies, normalizeClaimText } from "./conformal.js";

/** Scores of `claims`: the client's score for the same (normalised) claim text, else sample agreement. */
export function claimScores(evidence: Evidence, claims: readonly string[]): { scores: Float64Array; client: boolean } {
  const samples = evidence.samples ?? [];
  const clientScores = new Map<string, number>();
  for (const s of samples) {
    if (typeof s === "string") continue;
    for (const c of s.claims ?? []) {
      const key = normalizeClaimText(c.text);
      if (!clientScores.has(key)) clientScores.set(key, c.score);
    }
  }
  const agreement = agreementFrequencies(claims, samples.map((s: Sample) => (typeof s === "string" ? s : s.claims ? s.claims.map((c) => c.text) : s.text)));
  const scores = new Float64Array(claims.length);
  let client = clientScores.size > 0;
  claims.forEach((text, i) => {
    const own = clientScores.get(normalizeClaimText(text));
    if (own === undefined) client = false;
    scores[i] = own ?? agreement[i]!;
  });
  return { scores, client };
}

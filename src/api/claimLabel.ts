// The label of a claim example: `{"claims": [{"text", "correct"}]}`, each claim of the response marked correct
// or not (docs/api.md). Read, not parsed: a malformed claim is skipped, as the service's calibration skips it.

/** A claim of a claim label. */
export interface LabelledClaimText {
  text: string;
  correct: boolean;
}

/** The well-formed claims of a claim label, or undefined when the label is not one. */
export function labelledClaims(label: unknown): LabelledClaimText[] | undefined {
  const claims = (label as { claims?: unknown } | null)?.claims;
  if (!label || typeof label !== "object" || !Array.isArray(claims)) return undefined;
  return claims.filter(
    (c): c is LabelledClaimText => !!c && typeof (c as { text?: unknown }).text === "string" && typeof (c as { correct?: unknown }).correct === "boolean",
  );
}

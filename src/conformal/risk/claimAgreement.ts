// Claim scores without client scores: the agreement frequency of a claim across sampled responses
// (the "frequency" scoring of Mohri & Hashimoto 2024, §4), matched on normalised text.

/** NFKC, lower case, punctuation to spaces, whitespace collapsed: "The cat, sat." → "the cat sat". */
export function normalizeClaimText(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Sentences of a response, as claims: split after . ! ? (or a newline), empty pieces dropped. */
export function splitIntoClaims(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => normalizeClaimText(s).length > 0);
}

/**
 * Fraction of samples that support each claim. A sample given as a list of claims supports a claim when one
 * of them normalises to the same text; a sample given as text supports it when the normalised claim occurs
 * in the normalised text on word boundaries. 0 when there are no samples.
 */
export function agreementFrequencies(claims: readonly string[], samples: readonly (string | readonly string[])[]): Float64Array {
  const prepared = samples.map((s) =>
    typeof s === "string" ? { text: ` ${normalizeClaimText(s)} `, set: undefined } : { text: "", set: new Set(s.map(normalizeClaimText)) },
  );
  const out = new Float64Array(claims.length);
  if (samples.length === 0) return out;
  claims.forEach((claim, i) => {
    const c = normalizeClaimText(claim);
    if (!c) return;
    let hits = 0;
    for (const s of prepared) if (s.set ? s.set.has(c) : s.text.includes(` ${c} `)) hits++;
    out[i] = hits / samples.length;
  });
  return out;
}

// The documented monotone maps from an uncertainty u (higher = more uncertain) to a confidence in [0, 1]
// (UQLM's habit: every score also yields a confidence). Each is non-increasing in u, so a conformal or
// Venn–Abers calibration on the confidence is the calibration on −u: the guarantee does not depend on the map.

export type ConfidenceMapName = "exp(-u)" | "1-exp(u)" | "1/(1+exp(u))" | "-u" | "1-u" | "1/u";

export interface ConfidenceMap {
  /** The formula, as printed by `calibkit scores` and docs/uncertainty.md. */
  name: ConfidenceMapName;
  /** The range of u it is meant for. */
  domain: string;
  (u: number): number;
}

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);

function map(name: ConfidenceMapName, domain: string, f: (u: number) => number): ConfidenceMap {
  const m = ((u: number) => (Number.isNaN(u) ? NaN : clamp01(f(u)))) as ConfidenceMap;
  Object.defineProperties(m, { name: { value: name }, domain: { value: domain } });
  return m;
}

export const CONFIDENCE_MAPS: Readonly<Record<ConfidenceMapName, ConfidenceMap>> = {
  /** A negative log-probability, an entropy or any other u ≥ 0: exp(−u) (for −log p it is p itself). */
  "exp(-u)": map("exp(-u)", "u ≥ 0", (u) => Math.exp(-u)),
  /** u ≤ 0 (SelfCertainty's negated divergence): 1 − exp(u). */
  "1-exp(u)": map("1-exp(u)", "u ≤ 0", (u) => 1 - Math.exp(u)),
  /** Any real u: the logistic 1 / (1 + exp(u)). */
  "1/(1+exp(u))": map("1/(1+exp(u))", "any real u", (u) => 1 / (1 + Math.exp(u))),
  /** u ∈ [−1, 0], a negated similarity or probability: −u. */
  "-u": map("-u", "u ∈ [−1, 0]", (u) => -u),
  /** u ∈ [0, 1]: 1 − u. */
  "1-u": map("1-u", "u ∈ [0, 1]", (u) => 1 - u),
  /** u ≥ 1, a count of classes or an effective number of them: 1 / u (1 below 1, so it stays monotone). */
  "1/u": map("1/u", "u ≥ 1", (u) => (u <= 1 ? 1 : 1 / u)),
};

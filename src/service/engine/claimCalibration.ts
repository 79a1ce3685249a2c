// Claim calibrations: the labelled claims of the profile's examples, scored once as their example arrives
// (the pool grows by the batch, like pools.ts), and the conformal-factuality threshold extended with each
// batch's example scores (extendClaims: exactly what calibrateClaims on all of them gives). Tied claim scores
// are broken by a u per claim seeded from the example's stored position, so a client reproduces them.
import { labelledClaims } from "../../api/index.js";
import type { ProfileState } from "../profiles/profileState.js";
import { calibrateClaims, claimExample, extendClaims, type CalibratedClaims, type LabelledClaim } from "./conformal.js";
import { exampleEvidence } from "./evidence.js";
import { extended } from "./extended.js";
import { cached } from "./pools.js";

/** Read from the wire format (api/claimLabel.ts); offered here too, where the claim pool is built. */
export { labelledClaims };

interface GrowingClaims {
  /** Examples scanned so far (positions 0 … scanned − 1). */
  scanned: number;
  claims: LabelledClaim[][];
  /** One tie-breaking u per claim, fixed by the example's stored position (claimUniforms). */
  uniforms: Float64Array[];
}

const growing = new WeakMap<ProfileState, GrowingClaims>();

/** Labelled claims per example (`label.claims` = [{text, correct}], scored from its evidence): the first n entries. */
export function claimExamples(profile: ProfileState): { n: number; claims: readonly (readonly LabelledClaim[])[]; uniforms: readonly Float64Array[] } {
  return cached(profile, "claims", () => {
    let pool = growing.get(profile);
    if (!pool) growing.set(profile, (pool = { scanned: 0, claims: [], uniforms: [] }));
    for (const end = profile.n; pool.scanned < end; pool.scanned++) {
      const example = profile.exampleAt(pool.scanned);
      const labelled = labelledClaims(example.label);
      const evidence = exampleEvidence(example);
      if (!labelled || !evidence?.samples) continue;
      const { claims, uniforms } = claimExample(labelled, evidence.samples, profile.name, pool.scanned);
      pool.claims.push(claims);
      pool.uniforms.push(uniforms);
    }
    return { n: pool.claims.length, claims: pool.claims, uniforms: pool.uniforms };
  });
}

/** The claim calibration at α; `tieBreak`: ties broken by each claim's seeded u (the default of claim queries). */
export function claimCalibration(profile: ProfileState, alpha: number, tieBreak = false): CalibratedClaims {
  const { n, claims, uniforms } = claimExamples(profile);
  const key = `claim-cal|${alpha}|${tieBreak}`;
  const u = (from: number) => (tieBreak ? uniforms.slice(from, n) : undefined);
  return cached(profile, key, () =>
    extended(profile, key, n, () => calibrateClaims(claims.slice(0, n), { alpha, ...(tieBreak ? { uniforms: u(0)! } : {}) }), (last, from) => extendClaims(last, claims.slice(from, n), u(from))));
}

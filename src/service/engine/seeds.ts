// Seeds of randomized methods (APS/RAPS, randomized ordinal intervals), derived so that a client holding the
// same examples reproduces every answer bit for bit (docs/service.md, "Reproducing randomized answers"):
//   set, judge-stage and interval calibrations: each example's u is fixed by its stored position j,
//                    rngFromString(`${profile}#${j}`)(), so that a new version extends the last calibration
//                    instead of redrawing every u;
//   RAPS: rngFromString(`${profile}#raps@${m}`) on the first m rows (rebuilds.ts);
//   prediction:  rngFromString(`${profile}@${version}/${queryName}`), passed to the predict call.
import type { ProfileState } from "../profiles/profileState.js";
import { rngFromString, type Rng } from "./conformal.js";

export const calibrationSeedText = (profile: ProfileState): string => `${profile.name}@${profile.version}`;
export const predictionSeedText = (profile: ProfileState, query: string): string => `${profile.name}@${profile.version}/${query}`;

export const predictionRng = (profile: ProfileState, query: string): Rng => rngFromString(predictionSeedText(profile, query));

/** The u of the examples at these stored positions (set calibrations of randomized methods). */
export function exampleUniforms(profile: ProfileState, positions: ArrayLike<number>): Float64Array {
  const out = new Float64Array(positions.length);
  for (let i = 0; i < positions.length; i++) out[i] = rngFromString(`${profile.name}#${positions[i]!}`)();
  return out;
}

// Seeds of randomized methods (APS/RAPS, randomized ordinal intervals), derived so that a client holding the
// same examples reproduces every answer bit for bit (docs/service.md, "Reproducing randomized answers"):
//   calibration: rngFromString(`${profile}@${version}`), passed to the engine's calibrate call;
//   prediction:  rngFromString(`${profile}@${version}/${queryName}`), passed to the predict call.
import type { ProfileState } from "../profiles/profileState.js";
import { rngFromString, type Rng } from "./conformal.js";

export const calibrationSeedText = (profile: ProfileState): string => `${profile.name}@${profile.version}`;
export const predictionSeedText = (profile: ProfileState, query: string): string => `${profile.name}@${profile.version}/${query}`;

export const calibrationRng = (profile: ProfileState): Rng => rngFromString(calibrationSeedText(profile));
export const predictionRng = (profile: ProfileState, query: string): Rng => rngFromString(predictionSeedText(profile, query));

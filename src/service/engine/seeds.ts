// Seeds of randomized methods (APS/RAPS, randomized ordinal intervals), derived so that a client holding the
// same examples reproduces every answer bit for bit (docs/service.md, "Reproducing randomized answers"):
//   set, judge-stage and interval calibrations: each example's u is fixed by its stored position j,
//                    rngFromString(`${profile}#${j}`)(), so that a new version extends the last calibration
//                    instead of redrawing every u;
//   RAPS: rngFromString(`${profile}#raps@${m}`) on the first m rows (rebuilds.ts);
//   prediction:  rngFromString(`${profile}@${version}/${requestId}/${queryName}`), passed to the predict call.
// The request id (random per request unless the client sets x-request-id, and returned with the response) makes
// each query's u fresh per request: with the query name alone, a client that sends one item per request under the
// same name would get one u for its whole test set, and the set guarantee, which holds in expectation over u,
// would not hold of the realized coverage.
import type { ProfileState } from "../profiles/profileState.js";
import { rngFromString, type Rng } from "./conformal.js";
import type { QueryInput } from "./types.js";

export const calibrationSeedText = (profile: ProfileState): string => `${profile.name}@${profile.version}`;
export const predictionSeedText = (profile: ProfileState, requestId: string, query: string): string =>
  `${profile.name}@${profile.version}/${requestId}/${query}`;

/** The random source of one query's prediction in one request. */
export const predictionRng = (input: Pick<QueryInput, "profile" | "requestId" | "name">): Rng =>
  rngFromString(predictionSeedText(input.profile, input.requestId, input.name));

/** The u of the examples at these stored positions (set calibrations of randomized methods). */
export function exampleUniforms(profile: ProfileState, positions: ArrayLike<number>): Float64Array {
  const out = new Float64Array(positions.length);
  for (let i = 0; i < positions.length; i++) out[i] = rngFromString(`${profile.name}#${positions[i]!}`)();
  return out;
}

// Gate calibrations: the pass / fail pool's scores kept sorted by label and extended version by version
// (risk/gateSortedScores.ts), so a gate with whole-number losses (the default zero-one loss, named losses, risk monitors)
// costs O(b log b) per batch of b and O(log n) per threshold, exactly what calibrateGate gives. Losses whose
// float sums depend on the order they are added in (fractions) are rebuilt on the rebuild prefix, in the
// background (rebuilds.ts), like Venn–Abers.
import type { ProfileState } from "../profiles/profileState.js";
import { calibrateGate, calibrateGateSorted, extendGateScores, NO_GATE_SCORES, type CalibratedGate, type GateGuarantee, type GateScores } from "./conformal.js";
import { extended } from "./extended.js";
import { cached, probabilityPool, type ProbabilityPool } from "./pools.js";
import { again } from "./calibrations.js";
import { rebuilt } from "./rebuilds.js";

/** The pass / fail pool of gate queries: rows are [p(fail), p(pass)], label 1 = pass. */
export const gatePool = (profile: ProfileState): ProbabilityPool =>
  probabilityPool(profile, ["fail", "pass"], { grouped: false, booleanNames: ["pass", "fail"] });

export interface GateSpec {
  guarantee: GateGuarantee;
  target: number;
  delta?: number | undefined;
  /** Loss of approving a fail / a pass. */
  fail: number;
  pass: number;
}

/** p(pass) and pass (1) / fail (0) of pool rows from … to − 1. */
function columns(pool: ProbabilityPool, from: number, to: number): { scores: Float64Array; labels: Uint8Array } {
  const scores = new Float64Array(to - from);
  const labels = new Uint8Array(to - from);
  for (let i = from; i < to; i++) {
    scores[i - from] = pool.rows[2 * i + 1]!;
    labels[i - from] = pool.labels[i] === 1 ? 1 : 0;
  }
  return { scores, labels };
}

/** The gate pool's scores sorted by label, at the profile's version. */
function gateScores(profile: ProfileState, pool: ProbabilityPool): GateScores {
  return cached(profile, "gate-scores", () =>
    extended(profile, "gate-scores", pool.n, () => extendGateScores(NO_GATE_SCORES, columns(pool, 0, pool.n)), (last, from) => extendGateScores(last, columns(pool, from, pool.n))));
}

/** The gate's calibration and the rows it used (all the pool's, or the rebuild prefix for fractional losses). */
export function gateCalibration(profile: ProfileState, spec: GateSpec): { cal: CalibratedGate; rows: number } {
  const bound = Math.max(1, spec.fail, spec.pass);
  const options = { guarantee: spec.guarantee, target: spec.target, lossBound: bound, ...(spec.delta !== undefined ? { delta: spec.delta } : {}) };
  const cacheKey = `gate|${spec.guarantee}|${spec.target}|${spec.delta}|${spec.fail}|${spec.pass}`;
  return cached(profile, cacheKey, () => {
    const pool = gatePool(profile);
    const sorted = calibrateGateSorted(gateScores(profile, pool), spec, options);
    if (sorted) return { cal: sorted, rows: pool.n };
    const build = (p: ProbabilityPool) => function* (m: number) {
      yield;
      const { scores, labels } = columns(p, 0, m);
      return calibrateGate({ scores, labels, losses: Float64Array.from(labels, (l) => (l ? spec.pass : spec.fail)) }, options);
    };
    const cal = rebuilt(profile, cacheKey, pool.n, build(pool), again(pool, build)).value;
    return { cal, rows: cal.n };
  });
}

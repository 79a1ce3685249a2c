// Interval answers recomputed locally (ordinal APS and CQR over level probabilities), and whether the
// profile's interval calibration covers one labelled example (audits and coverage monitors).
import type { IntervalQuery } from "../api/index.js";
import { calibrateInterval, minimumN, predictInterval, rngFromString, type CalibratedOrdinal } from "../conformal/index.js";
import { exactPool, positionUniforms, predictionSeedText, profileFields, type LocalEngine } from "./crossCheckEvidence.js";

const INTERVAL_METHOD_NAMES = ["CQR", "ordinal-aps"] as const;
const INTERVAL_METHODS = new Set<string>(INTERVAL_METHOD_NAMES);

// Audits and coverage monitors: the service's per-example seed `${profile}@${version}/${seed}`.
const auditSeed = (engine: LocalEngine, seed: string) => `${engine.profile.name}@${engine.profile.version}/${seed}`;

function intervalCalibration(engine: LocalEngine, names: readonly string[], method: string, alpha: number): CalibratedOrdinal {
  const pool = exactPool(engine, names, true);
  return engine.cached(`interval|${method}|${alpha}|${JSON.stringify(names)}`, () => {
    const u = positionUniforms(engine.profile.name, pool.positions);
    let t = 0;
    return calibrateInterval({ probabilities: { data: pool.rows, width: names.length }, labels: pool.labels }, { method, alpha, rng: () => u[t++]! });
  });
}

/** Whether the interval of an example with level probabilities `map` holds `label`; undefined when it cannot be judged. */
export function coveredByInterval(engine: LocalEngine, map: Record<string, number>, label: string, alpha: number, seed: string): boolean | undefined {
  const levels = Object.keys(map); // the evidence's own order is the scale
  const y = levels.indexOf(label);
  if (y < 0 || exactPool(engine, levels, true).labels.length < minimumN(alpha)) return undefined;
  const method = INTERVAL_METHODS.has(engine.profile.method) ? engine.profile.method : "ordinal-aps";
  const pred = predictInterval(intervalCalibration(engine, levels, method, alpha), { probabilities: Float64Array.from(levels, (l) => map[l]!), levels }, rngFromString(auditSeed(engine, seed)));
  return !pred.empty && pred.lower <= y && y <= pred.upper;
}

/** The interval answer the local engine gives to `query` (named `name`) in the response with `request_id` `requestId`. */
export function localIntervalAnswer(engine: LocalEngine, name: string, query: IntervalQuery, requestId: string): Record<string, unknown> {
  const levels = query.levels;
  const names = levels.map(String);
  const alpha = query.alpha ?? engine.profile.alpha;
  const requested = query.method === undefined ? undefined : INTERVAL_METHOD_NAMES.find((m) => m.toLowerCase() === query.method!.toLowerCase());
  const method = requested ?? (INTERVAL_METHODS.has(engine.profile.method) ? engine.profile.method : "ordinal-aps");
  const given = query.evidence?.level_probabilities;
  if (!given) throw new TypeError(`query ${name} has no level_probabilities`);
  const n = exactPool(engine, names, true).labels.length;
  const base = { alpha, ...profileFields(engine) };
  if (n < minimumN(alpha)) return { type: "interval", guarantee: { ...base, kind: "heuristic", holds: false, n } };
  const p = Float64Array.from(names, (l) => given[l] ?? NaN);
  const pred = predictInterval(intervalCalibration(engine, names, method, alpha), { probabilities: p, levels: names }, rngFromString(predictionSeedText(engine, requestId, name)));
  const lower = pred.empty ? pred.pointEstimate : pred.lower;
  const upper = pred.empty ? pred.pointEstimate : pred.upper;
  return {
    type: "interval",
    point_estimate: levels[pred.pointEstimate],
    interval: [levels[lower], levels[upper]],
    legend: pred.legend,
    guarantee: { ...base, kind: "coverage", holds: true, n: pred.n, method },
  };
}

// Set answers recomputed locally: the service's set calibration of the pool its set_pooling picks, a request's set
// queries that share one calibration predicted together through the batch API (as the service does), the
// per-option Venn–Abers beliefs, and whether the set calibration covers one labelled example.
import type { EvaluateRequest, SetQuery } from "../api/index.js";
import { minimumN, predictOptionBeliefs, predictSet, predictSetBatch, rngFromString, type CalibratedSet } from "../conformal/index.js";
import { predictionSeedText, profileFields, setMethodOf, type LocalEngine } from "./crossCheckEvidence.js";
import { localSetBeliefs, localSetCalibration, localSetPool, optionCountGroup } from "./crossCheckSetPool.js";

/** The fields of a set answer the local engine vouches for (a heuristic answer: only the probabilities). */
export interface LocalSetAnswer {
  type: "set";
  set?: string[];
  probabilities: Record<string, number>;
  venn_abers?: Record<string, [number, number]>;
  guarantee: Record<string, unknown>;
}

/** Set predictions made together for the queries of one request, by query. */
export type SetPredictions = WeakMap<SetQuery, { set: string[]; n: number }>;

const versionSeed = (engine: LocalEngine) => `${engine.profile.name}@${engine.profile.version}`;

const setCalibration = localSetCalibration;

type TogetherRow = { query: SetQuery; name: string; p: Float64Array; sorted: string[] };

/**
 * The request's set queries that share a calibration (method, α, options), predicted in one call of the
 * batch API each, with the same per-query seeds; localSetAnswer takes its row. Anything this cannot
 * prepare is left to localSetAnswer, so the answers are those of the per-query path.
 */
export function predictSetsTogether(engine: LocalEngine, request: EvaluateRequest, into: SetPredictions, requestId: string): void {
  const together = new Map<CalibratedSet, TogetherRow[]>();
  for (const [name, q] of Object.entries(request.queries)) {
    if (q.type !== "set") continue;
    const query = q as SetQuery;
    const given = query.evidence?.option_probabilities;
    if (!given) continue;
    const sorted = Object.keys(query.options).sort();
    const alpha = query.alpha ?? engine.profile.alpha;
    const method = query.method?.toUpperCase() ?? setMethodOf(engine);
    if (localSetPool(engine, sorted).n < minimumN(alpha)) continue;
    try {
      const cal = setCalibration(engine, sorted, method, alpha);
      let rows = together.get(cal);
      if (!rows) together.set(cal, (rows = []));
      rows.push({ query, name, p: Float64Array.from(sorted, (n) => given[n] ?? NaN), sorted });
    } catch {
      continue;
    }
  }
  // One calibration may serve queries of several option counts (set_pooling): each count is one batch.
  const batches: [CalibratedSet, TogetherRow[]][] = [];
  for (const [cal, rows] of together) {
    const byCount = new Map<number, TogetherRow[]>();
    for (const r of rows) byCount.set(r.sorted.length, [...(byCount.get(r.sorted.length) ?? []), r]);
    for (const part of byCount.values()) batches.push([cal, part]);
  }
  for (const [cal, rows] of batches) {
    if (rows.length < 2) continue;
    const K = rows[0]!.sorted.length;
    const data = new Float64Array(rows.length * K);
    rows.forEach((r, i) => data.set(r.p, i * K));
    const uniforms = cal.randomized ? Float64Array.from(rows, (r) => rngFromString(predictionSeedText(engine, requestId, r.name))()) : undefined;
    try {
      const pred = predictSetBatch(cal, { probabilities: data, width: K }, uniforms ? { uniforms } : {});
      rows.forEach((r, i) => into.set(r.query, { set: r.sorted.filter((_, j) => pred.membership[i * K + j] === 1), n: pred.n[i]! }));
    } catch {
      continue;
    }
  }
}

/**
 * The set answer the local engine gives to `query` (named `name`) in the response with `request_id` `requestId`;
 * `together`: predictSetsTogether's rows.
 */
export function localSetAnswer(engine: LocalEngine, name: string, query: SetQuery, requestId: string, together?: SetPredictions): LocalSetAnswer {
  const names = Object.keys(query.options);
  const sorted = [...names].sort();
  const alpha = query.alpha ?? engine.profile.alpha;
  const method = query.method?.toUpperCase() ?? setMethodOf(engine);
  const given = query.evidence?.option_probabilities;
  if (!given) throw new TypeError(`query ${name} has no option_probabilities`);
  const p = Float64Array.from(sorted, (n) => given[n] ?? NaN);
  const probabilities = Object.fromEntries(sorted.map((n, j) => [n, p[j]!]));
  const n = localSetPool(engine, sorted).n;
  const base = { alpha, ...profileFields(engine) };
  if (n < minimumN(alpha)) {
    // Too few examples: the service answers heuristically (424); only the probabilities are comparable.
    return { type: "set", probabilities, guarantee: { ...base, kind: "heuristic", holds: false, n } };
  }
  const cal = setCalibration(engine, sorted, method, alpha);
  const prediction = together?.get(query) ?? predictSet(cal, { probabilities: p, options: sorted }, rngFromString(predictionSeedText(engine, requestId, name)), { pValues: false });
  const va = predictOptionBeliefs(localSetBeliefs(engine, sorted), p);
  const group = optionCountGroup(engine, sorted.length);
  const inSet = new Set(prediction.set);
  return {
    type: "set",
    set: names.filter((x) => inSet.has(x)),
    probabilities,
    venn_abers: Object.fromEntries(sorted.map((x, j) => [x, [va[j]!.p0, va[j]!.p1] as [number, number]])),
    guarantee: { ...base, kind: group !== undefined ? "group_coverage" : "coverage", holds: true, n: prediction.n, method, ...(group !== undefined ? { group } : {}) },
  };
}

/** Whether the set of an example with option probabilities `p` holds `label`; undefined when it cannot be judged. */
export function coveredBySet(engine: LocalEngine, p: Record<string, number>, label: string, alpha: number, seed: string): boolean | undefined {
  const names = Object.keys(p).sort();
  if (names.length < 2 || !names.includes(label)) return undefined;
  if (localSetPool(engine, names).n < minimumN(alpha)) return undefined;
  const cal = setCalibration(engine, names, setMethodOf(engine), alpha);
  const prediction = predictSet(cal, { probabilities: Float64Array.from(names, (n) => p[n]!), options: names }, rngFromString(`${versionSeed(engine)}/${seed}`), { pValues: false });
  if (prediction.n < minimumN(alpha)) return undefined;
  return prediction.set.includes(label);
}

// set queries: a conformal set over the query's options (LAC / APS / RAPS, Mondrian when the query names a
// group of a grouped profile) and per-option Venn–Abers probabilities, both calibrated on the examples whose
// evidence covers the same option names.
import type { Guarantee, SetAnswer, SetQuery } from "../../api/index.js";
import type { ProfileState } from "../profiles/profileState.js";
import { optionBeliefs, setCalibration, setMethodOf } from "./calibrations.js";
import { predictOptionBeliefs, predictSet, type CalibratedOptionBeliefs, type CalibratedSet } from "./conformal.js";
import { fromSamples, probabilitiesOf } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { cached, probabilityPool, type ProbabilityPool, minimumNOf, VersionedMemo } from "./pools.js";
import { predictionRng } from "./seeds.js";
import type { QueryInput, QueryOutcome } from "./types.js";
import { invalidField } from "../errors.js";

export function groupCount(input: QueryInput, pool: ProbabilityPool, group: string | undefined): number {
  if (group === undefined || !pool.groups) return pool.n;
  const counts = cached(input.profile, `groups|${pool.names.join("\u0000")}`, () => {
    const m = new Map<string, number>();
    for (const g of pool.groups!) m.set(g, (m.get(g) ?? 0) + 1);
    return m;
  });
  return counts.get(group) ?? 0;
}

/** The query's probabilities over `names` (canonical order), or a 422 naming its evidence. */
export function queryProbabilities(input: QueryInput, names: readonly string[], levels = false): Float64Array {
  const p = probabilitiesOf(input.evidence, names, levels);
  if (!p) {
    const key = levels ? "level_probabilities" : "option_probabilities";
    throw invalidField(`queries.${input.name}.evidence.${key}`, `\`queries.${input.name}.evidence\` must give probabilities over ${names.join(", ")} (or samples naming them)`);
  }
  return p;
}

/**
 * What every set query with the same option names (in the same order), method, alpha and group mode shares at
 * one profile version: the canonical order, the calibration pool, the calibrated set and option beliefs, and
 * the guarantee objects. Built once, so a warm query costs the prediction and its answer object only.
 */
interface SetPlan {
  names: readonly string[];
  /** Option names in canonical (sorted) order. */
  sorted: readonly string[];
  /** Position in `sorted` of each name of `names`. */
  rank: Int32Array;
  /** False when a name is `__proto__`, which an assignment would not make an own property. */
  plainKeys: boolean;
  pool?: ProbabilityPool;
  needed?: number;
  cal?: CalibratedSet;
  beliefs?: CalibratedOptionBeliefs;
  /** Guarantees by evidence level, estimation, n and group: the same object for every answer they fit. */
  guarantees: Map<string, Guarantee>;
}

const plans = new VersionedMemo(64);

function buildPlan(names: readonly string[]): SetPlan {
  const sorted = [...names].sort();
  const rank = new Int32Array(names.length);
  for (let i = 0; i < names.length; i++) rank[i] = sorted.indexOf(names[i]!);
  return { names: [...names], sorted, rank, plainKeys: !names.includes("__proto__"), guarantees: new Map() };
}

/** The plan of the previous query: consecutive queries (and requests) mostly share one, found without a key. */
let last: { profile: ProfileState; version: number; method: string; alpha: number; grouped: boolean; plan: SetPlan } | undefined;

function setPlan(profile: ProfileState, names: readonly string[], method: string, alpha: number, grouped: boolean): SetPlan {
  if (last && last.profile === profile && last.version === profile.version && last.method === method && last.alpha === alpha
    && last.grouped === grouped && sameNames(last.plan.names, names)) {
    return last.plan;
  }
  let plan = plans.get(profile, `${method}|${alpha}|${grouped}|${names.length}|${names.join("\u0000")}`, buildPlan, names);
  // The key joins names with NUL: a name holding one could collide, so the plan is checked, not trusted.
  if (!sameNames(plan.names, names)) plan = buildPlan(names);
  last = { profile, version: profile.version, method, alpha, grouped, plan };
  return plan;
}

function sameNames(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export function answerSet(input: QueryInput<SetQuery>): QueryOutcome {
  const { query, profile } = input;
  const names = Object.keys(query.options);
  const alpha = query.alpha ?? profile.meta.alpha;
  const method = setMethodOf(profile, query.method);
  const group = profile.meta.group_by ? query.group_by : undefined;
  if (query.group_by !== undefined && !profile.meta.group_by) {
    input.warnings.push(`queries.${input.name}: group_by "${query.group_by}" ignored, profile "${profile.name}" has no group_by (marginal coverage)`);
  }
  const plan = setPlan(profile, names, method, alpha, group !== undefined);
  const { sorted } = plan;
  const K = sorted.length;
  const p = queryProbabilities(input, sorted);
  let probabilities: Record<string, number>;
  if (plan.plainKeys) {
    probabilities = {};
    for (let j = 0; j < K; j++) probabilities[sorted[j]!] = p[j]!;
  } else {
    probabilities = Object.fromEntries(sorted.map((name, j) => [name, p[j]!]));
  }
  const pool = (plan.pool ??= probabilityPool(profile, sorted, { grouped: group !== undefined }));
  const n = groupCount(input, pool, group);
  const needed = (plan.needed ??= minimumNOf(alpha));
  const estimated = fromSamples(input.evidence) || pool.estimated > 0;
  if (n < needed) return heuristicSet(input, plan, p, probabilities, { alpha, method, group, estimated, n, needed });
  const cal = (plan.cal ??= setCalibration(profile, pool, method, alpha));
  // The prediction's random source matters to randomized methods only (APS, RAPS); LAC draws nothing from it.
  const rng = cal.randomized ? predictionRng(profile, input.name) : undefined;
  const prediction = predictSet(cal, { probabilities: p, options: sorted, ...(group !== undefined ? { group } : {}) }, rng, { pValues: false });
  // RAPS keeps part of the examples for tuning: what is left must still reach minimum_n.
  if (prediction.n < needed) return heuristicSet(input, plan, p, probabilities, { alpha, method, group, estimated, n: prediction.n, needed });
  const va = predictOptionBeliefs((plan.beliefs ??= optionBeliefs(profile, pool)), p);
  // The set in the query's order of options.
  const set: string[] = [];
  for (let i = 0; i < names.length; i++) if (prediction.indices.includes(plan.rank[i]!)) set.push(names[i]!);
  let vennAbers: Record<string, [number, number]>;
  if (plan.plainKeys) {
    vennAbers = {};
    for (let j = 0; j < K; j++) vennAbers[sorted[j]!] = [va[j]!.p0, va[j]!.p1];
  } else {
    vennAbers = Object.fromEntries(sorted.map((name, j) => [name, [va[j]!.p0, va[j]!.p1] as [number, number]]));
  }
  const gKey = `${input.level}|${estimated}|${prediction.n}|${group === undefined ? "" : `=${group}`}`;
  let g = plan.guarantees.get(gKey);
  if (g === undefined) {
    g = Object.freeze(guarantee(input, { alpha, method, group, estimated, kind: group !== undefined ? "group_coverage" : "coverage", n: prediction.n }));
    if (plan.guarantees.size < 256) plan.guarantees.set(gKey, g);
  }
  const answer: SetAnswer = { type: "set", set, probabilities, venn_abers: vennAbers, guarantee: g };
  return { answer, insufficient: false };
}

/** The heuristic answer (424): the most probable options until their mass reaches 1 − α. */
function heuristicSet(
  input: QueryInput<SetQuery>, plan: SetPlan, p: Float64Array, probabilities: Record<string, number>,
  fields: { alpha: number; method: string; group: string | undefined; estimated: boolean; n: number; needed: number },
): QueryOutcome {
  const { alpha, n, needed } = fields;
  const { names, sorted } = plan;
  const order = [...sorted.keys()].sort((a, b) => p[b]! - p[a]!);
  const chosen = new Set<string>();
  let mass = 0;
  for (const j of order) {
    if (mass >= 1 - alpha) break;
    chosen.add(sorted[j]!);
    mass += p[j]!;
  }
  const answer: SetAnswer = {
    type: "set",
    set: names.filter((x) => chosen.has(x)),
    probabilities,
    venn_abers: Object.fromEntries(sorted.map((name, j) => [name, [p[j]!, p[j]!] as [number, number]])),
    guarantee: heuristicGuarantee(input, { alpha, method: fields.method, group: fields.group, estimated: fields.estimated, n, needed, wanted: `coverage at alpha ${alpha}` }),
  };
  return { answer, insufficient: true };
}

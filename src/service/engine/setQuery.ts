// set queries: a conformal set over the query's options (LAC / APS / RAPS, Mondrian when the query names a
// group of a grouped profile) and per-option Venn–Abers probabilities, both calibrated on the examples whose
// evidence covers the same option names.
import type { Guarantee, SetAnswer, SetQuery } from "../../api/index.js";
import type { ProfileState } from "../profiles/profileState.js";
import { optionBeliefs, setCalibration, setMethodOf } from "./calibrations.js";
import { predictOptionBeliefs, predictOptionBeliefsBatch, predictSet, predictSetBatch, type CalibratedOptionBeliefs, type CalibratedSet } from "./conformal.js";
import { fromSamples, probabilitiesOf } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { cached, probabilityPool, type ProbabilityPool, minimumNOf, VersionedMemo } from "./pools.js";
import { predictionRng } from "./seeds.js";
import type { QueryInput, QueryOutcome } from "./types.js";
import { invalidField } from "../errors.js";

export function groupCount(_input: QueryInput, pool: ProbabilityPool, group: string | undefined): number {
  if (group === undefined || !pool.groupCounts) return pool.n;
  return pool.groupCounts.get(group) ?? 0;
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
let last: { profile: ProfileState; version: number; epoch: number; method: string; alpha: number; grouped: boolean; plan: SetPlan } | undefined;

function setPlan(profile: ProfileState, names: readonly string[], method: string, alpha: number, grouped: boolean): SetPlan {
  if (last && last.profile === profile && last.version === profile.version && last.epoch === profile.calibrationEpoch && last.method === method && last.alpha === alpha
    && last.grouped === grouped && sameNames(last.plan.names, names)) {
    return last.plan;
  }
  let plan = plans.get(profile, `${method}|${alpha}|${grouped}|${names.length}|${names.join("\u0000")}`, buildPlan, names);
  // The key joins names with NUL: a name holding one could collide, so the plan is checked, not trusted.
  if (!sameNames(plan.names, names)) plan = buildPlan(names);
  last = { profile, version: profile.version, epoch: profile.calibrationEpoch, method, alpha, grouped, plan };
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
  const prediction = batched.get(input) ?? predictOne(input, plan, cal, p, group);
  // RAPS keeps part of the examples for tuning: what is left must still reach minimum_n.
  if (prediction.n < needed) return heuristicSet(input, plan, p, probabilities, { alpha, method, group, estimated, n: prediction.n, needed });
  const { membership: inSet, p0, p1, at } = prediction;
  // The set in the query's order of options.
  const set: string[] = [];
  for (let i = 0; i < names.length; i++) if (inSet[at + plan.rank[i]!]) set.push(names[i]!);
  let vennAbers: Record<string, [number, number]>;
  if (plan.plainKeys) {
    vennAbers = {};
    for (let j = 0; j < K; j++) vennAbers[sorted[j]!] = [p0[at + j]!, p1[at + j]!];
  } else {
    vennAbers = Object.fromEntries(sorted.map((name, j) => [name, [p0[at + j]!, p1[at + j]!] as [number, number]]));
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

/** A query's set membership and per-option Venn–Abers, at `at` in arrays shared by the queries predicted together. */
interface SetRow {
  readonly membership: Uint8Array;
  readonly n: number;
  readonly p0: Float64Array | readonly number[];
  readonly p1: Float64Array | readonly number[];
  readonly at: number;
}

/** Predictions made for a request's set queries together (predictSetsTogether), found by the query's input. */
const batched = new WeakMap<QueryInput, SetRow>();

function predictOne(input: QueryInput, plan: SetPlan, cal: CalibratedSet, p: Float64Array, group: string | undefined): SetRow {
  // The prediction's random source matters to randomized methods only (APS, RAPS); LAC draws nothing from it.
  const rng = cal.randomized ? predictionRng(input.profile, input.name) : undefined;
  const prediction = predictSet(cal, { probabilities: p, options: plan.sorted, ...(group !== undefined ? { group } : {}) }, rng, { pValues: false });
  const membership = new Uint8Array(p.length);
  for (const j of prediction.indices) membership[j] = 1;
  if (prediction.n < plan.needed!) return { membership, n: prediction.n, p0: [], p1: [], at: 0 };
  const va = predictOptionBeliefs((plan.beliefs ??= optionBeliefs(input.profile, plan.pool!)), p);
  return { membership, n: prediction.n, p0: va.map((b) => b.p0), p1: va.map((b) => b.p1), at: 0 };
}

/**
 * The set queries of one request that share a plan (profile version, options, method, α, group mode) and
 * will be answered with a guarantee, predicted in one call of the batch API per plan; answerSet then takes its
 * row. A query this cannot prepare (bad evidence, too few examples, any error) is left to answerSet, which
 * meets the same condition at the query's own turn: answers, and which error a request gets, are unchanged.
 */
export function predictSetsTogether(inputs: readonly QueryInput[]): void {
  const groups = new Map<SetPlan, { cal: CalibratedSet; rows: { input: QueryInput; p: Float64Array; group: string | undefined }[] }>();
  for (const input of inputs) {
    if (input.query.type !== "set") continue;
    try {
      const { query, profile } = input as QueryInput<SetQuery>;
      const alpha = query.alpha ?? profile.meta.alpha;
      const method = setMethodOf(profile, query.method);
      const group = profile.meta.group_by ? query.group_by : undefined;
      const plan = setPlan(profile, Object.keys(query.options), method, alpha, group !== undefined);
      const p = queryProbabilities(input, plan.sorted);
      const pool = (plan.pool ??= probabilityPool(profile, plan.sorted, { grouped: group !== undefined }));
      const needed = (plan.needed ??= minimumNOf(alpha));
      if (groupCount(input, pool, group) < needed) continue;
      const cal = (plan.cal ??= setCalibration(profile, pool, method, alpha));
      let g = groups.get(plan);
      if (!g) groups.set(plan, (g = { cal, rows: [] }));
      g.rows.push({ input, p, group });
    } catch {
      continue; // answerSet meets it again, in order
    }
  }
  for (const [plan, { cal, rows }] of groups) {
    if (rows.length < 2) continue;
    try {
      const K = plan.sorted.length;
      const data = new Float64Array(rows.length * K);
      rows.forEach((r, i) => data.set(r.p, i * K));
      const uniforms = cal.randomized ? Float64Array.from(rows, (r) => predictionRng(r.input.profile, r.input.name)()) : undefined;
      const codes = cal.grouped ? encodeNames(rows.map((r) => r.group!)) : undefined;
      const pred = predictSetBatch(cal, { probabilities: data, width: K, ...(codes ? { groups: codes } : {}) }, uniforms ? { uniforms } : {});
      const beliefs = (plan.beliefs ??= optionBeliefs(rows[0]!.input.profile, plan.pool!));
      const va = predictOptionBeliefsBatch(beliefs, { probabilities: data, width: K });
      rows.forEach((r, i) => batched.set(r.input, { membership: pred.membership, n: pred.n[i]!, p0: va.p0, p1: va.p1, at: i * K }));
    } catch {
      continue;
    }
  }
}

function encodeNames(names: readonly string[]): { codes: Int32Array; names: string[] } {
  const index = new Map<string, number>();
  const list: string[] = [];
  const codes = Int32Array.from(names, (x) => {
    let c = index.get(x);
    if (c === undefined) index.set(x, (c = list.push(x) - 1));
    return c;
  });
  return { codes, names: list };
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

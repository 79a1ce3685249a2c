// set queries: a conformal set over the query's options (LAC / APS / RAPS, Mondrian when the query names a
// group of a grouped profile) and per-option Venn–Abers probabilities, both calibrated on the examples whose
// evidence covers the same option names.
import { guaranteeJson, setAnswerJson, type SetAnswer, type SetQuery } from "../../api/index.js";
import { predictOptionBeliefs, predictSet, type CalibratedSet } from "./conformal.js";
import { fromSamples } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { minimumNOf } from "./pools.js";
import { setPool, setPoolBeliefs, setPoolCalibration, setPoolingOf } from "./setPools.js";
import { predictionRng } from "./seeds.js";
import { groupCount, prepareSet, type PreparedSet, type SetPlan, type SetRow } from "./setPlan.js";
import { WrittenAnswer, type QueryInput, type QueryOutcome } from "./types.js";

export { groupCount, queryProbabilities } from "./setPlan.js";

/** The answer to a set query; `prepared` when predictSetsTogether has made it ready (and maybe predicted it). */
export function answerSet(input: QueryInput<SetQuery>, prepared?: PreparedSet): QueryOutcome {
  const { query, profile } = input;
  if (query.group_by !== undefined && !profile.meta.group_by) {
    input.warnings.push(`queries.${input.name}: group_by "${query.group_by}" ignored, profile "${profile.name}" has no group_by (marginal coverage)`);
  }
  const { alpha, method, group, plan, p, row } = prepared ?? prepareSet(input);
  const { sorted } = plan;
  const K = sorted.length;
  const pool = (plan.pool ??= setPool(profile, sorted, group !== undefined));
  const n = groupCount(input, pool, group);
  const needed = (plan.needed ??= minimumNOf(alpha));
  const estimated = fromSamples(input.evidence) || pool.estimated > 0;
  if (n < needed) return heuristicSet(input, plan, p, { alpha, method, group, estimated, n, needed });
  const cal = (plan.cal ??= setPoolCalibration(profile, pool, method, alpha));
  // The prediction's random source matters to randomized methods only (APS, RAPS); LAC draws nothing from it.
  const prediction = row ?? predictOne(input, plan, cal, p, group);
  // RAPS keeps part of the examples for tuning: what is left must still reach minimum_n.
  if (prediction.n < needed) return heuristicSet(input, plan, p, { alpha, method, group, estimated, n: prediction.n, needed });
  const { membership: inSet, p0, p1, at } = prediction;
  const g = guaranteeOf(input, plan, { alpha, method, group, estimated, n: prediction.n });
  if (plan.written) return new WrittenAnswer(setAnswerJson(plan.written, plan.rank, inSet, p, p0, p1, at, g.json));
  // The set in the query's order of options.
  const set: string[] = [];
  for (let i = 0; i < plan.names.length; i++) if (inSet[at + plan.rank[i]!]) set.push(plan.names[i]!);
  let vennAbers: Record<string, [number, number]>;
  if (plan.plainKeys) {
    vennAbers = {};
    for (let j = 0; j < K; j++) vennAbers[sorted[j]!] = [p0[at + j]!, p1[at + j]!];
  } else {
    vennAbers = Object.fromEntries(sorted.map((name, j) => [name, [p0[at + j]!, p1[at + j]!] as [number, number]]));
  }
  const answer: SetAnswer = { type: "set", set, probabilities: probabilityObject(plan, p), venn_abers: vennAbers, guarantee: g.guarantee };
  return { answer, insufficient: false };
}

function probabilityObject(plan: SetPlan, p: Float64Array): Record<string, number> {
  const { sorted } = plan;
  if (!plan.plainKeys) return Object.fromEntries(sorted.map((name, j) => [name, p[j]!]));
  const probabilities: Record<string, number> = {};
  for (let j = 0; j < sorted.length; j++) probabilities[sorted[j]!] = p[j]!;
  return probabilities;
}

/** The guarantee of an answer with a guarantee, and its JSON: one object per evidence level, estimation, n and group. */
function guaranteeOf(input: QueryInput, plan: SetPlan, fields: { alpha: number; method: string; group: string | undefined; estimated: boolean; n: number }) {
  const { alpha, method, group, estimated, n } = fields;
  // The queries of a request (and the requests after it) mostly get the last one: found without building a key.
  const last = plan.lastGuarantee;
  if (last !== undefined && last.level === input.level && last.estimated === estimated && last.n === n && last.group === group) return last.value;
  const key = `${input.level}|${estimated}|${n}|${group === undefined ? "" : `=${group}`}`;
  let g = plan.guarantees.get(key);
  if (g === undefined) {
    const named = namedGroup(input, plan, group);
    const made = Object.freeze(guarantee(input, { alpha, method, group: named, estimated, kind: named !== undefined ? "group_coverage" : "coverage", n }));
    g = { guarantee: made, json: guaranteeJson(made) };
    if (plan.guarantees.size < 256) plan.guarantees.set(key, g);
  }
  plan.lastGuarantee = { level: input.level, estimated, n, group, value: g };
  return g;
}

/** by_option_count: a Mondrian split whose group is the option count, named beside any group_by group. */
function namedGroup(input: QueryInput, plan: SetPlan, group: string | undefined): string | undefined {
  const byCount = setPoolingOf(input.profile) === "by_option_count" ? `${plan.sorted.length} options` : undefined;
  return byCount === undefined ? group : group === undefined ? byCount : `${group}, ${byCount}`;
}

function predictOne(input: QueryInput, plan: SetPlan, cal: CalibratedSet, p: Float64Array, group: string | undefined): SetRow {
  // The prediction's random source matters to randomized methods only (APS, RAPS); LAC draws nothing from it.
  const rng = cal.randomized ? predictionRng(input) : undefined;
  const prediction = predictSet(cal, { probabilities: p, options: plan.sorted, ...(group !== undefined ? { group } : {}) }, rng, { pValues: false });
  const membership = new Uint8Array(p.length);
  for (const j of prediction.indices) membership[j] = 1;
  if (prediction.n < plan.needed!) return { membership, n: prediction.n, p0: [], p1: [], at: 0 };
  const va = predictOptionBeliefs((plan.beliefs ??= setPoolBeliefs(input.profile, plan.pool!)), p);
  return { membership, n: prediction.n, p0: va.map((b) => b.p0), p1: va.map((b) => b.p1), at: 0 };
}

/** The heuristic answer (424): the most probable options until their mass reaches 1 − α. */
function heuristicSet(
  input: QueryInput<SetQuery>, plan: SetPlan, p: Float64Array,
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
    probabilities: probabilityObject(plan, p),
    venn_abers: Object.fromEntries(sorted.map((name, j) => [name, [p[j]!, p[j]!] as [number, number]])),
    guarantee: heuristicGuarantee(input, { alpha, method: fields.method, group: namedGroup(input, plan, fields.group), estimated: fields.estimated, n, needed, wanted: `coverage at alpha ${alpha}` }),
  };
  return { answer, insufficient: true };
}

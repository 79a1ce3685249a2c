// set queries: a conformal set over the query's options (LAC / APS / RAPS, Mondrian when the query names a
// group of a grouped profile) and per-option Venn–Abers probabilities, both calibrated on the examples whose
// evidence covers the same option names.
import type { SetAnswer, SetQuery } from "../../api/index.js";
import { optionBeliefs, setCalibration, setMethodOf } from "./calibrations.js";
import { predictOptionBeliefs, predictSet } from "./conformal.js";
import { fromSamples, probabilitiesOf } from "./evidence.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { cached, probabilityPool, type ProbabilityPool, minimumNOf } from "./pools.js";
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

export function answerSet(input: QueryInput<SetQuery>): QueryOutcome {
  const { query, profile } = input;
  const names = Object.keys(query.options);
  const sorted = [...names].sort();
  const alpha = query.alpha ?? profile.meta.alpha;
  const method = setMethodOf(profile, query.method);
  const group = profile.meta.group_by ? query.group_by : undefined;
  if (query.group_by !== undefined && !profile.meta.group_by) {
    input.warnings.push(`queries.${input.name}: group_by "${query.group_by}" ignored, profile "${profile.name}" has no group_by (marginal coverage)`);
  }
  const p = queryProbabilities(input, sorted);
  const probabilities = Object.fromEntries(sorted.map((name, j) => [name, p[j]!]));
  const pool = probabilityPool(profile, sorted, { grouped: group !== undefined });
  const n = groupCount(input, pool, group);
  const needed = minimumNOf(alpha);
  const estimated = fromSamples(input.evidence) || pool.estimated > 0;
  const base = { alpha, method, group, estimated };
  const heuristic = (count: number): QueryOutcome => {
    // The most probable options until their mass reaches 1 − α.
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
      guarantee: heuristicGuarantee(input, { ...base, n: count, needed, wanted: `coverage at alpha ${alpha}` }),
    };
    return { answer, insufficient: true };
  };
  if (n < needed) return heuristic(n);
  const cal = setCalibration(profile, pool, method, alpha);
  const prediction = predictSet(cal, { probabilities: p, options: sorted, ...(group !== undefined ? { group } : {}) }, predictionRng(profile, input.name), { pValues: false });
  // RAPS keeps part of the examples for tuning: what is left must still reach minimum_n.
  if (prediction.n < needed) return heuristic(prediction.n);
  const beliefs = optionBeliefs(profile, pool);
  const va = predictOptionBeliefs(beliefs, p);
  const inSet = new Set(prediction.set);
  const answer: SetAnswer = {
    type: "set",
    set: names.filter((x) => inSet.has(x)),
    probabilities,
    venn_abers: Object.fromEntries(sorted.map((name, j) => [name, [va[j]!.p0, va[j]!.p1] as [number, number]])),
    guarantee: guarantee(input, { ...base, kind: group !== undefined ? "group_coverage" : "coverage", n: prediction.n }),
  };
  return { answer, insufficient: false };
}

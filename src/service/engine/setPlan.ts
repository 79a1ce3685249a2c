// What a set query needs before its prediction: the plan its options, method, α and group mode share at one
// profile version (setPlan), and the query's own probabilities over the plan's canonical order (prepareSet).
// answerSet and predictSetsTogether both start here, so a query prepared for the batch is not prepared again.
import { setAnswerNames, type Guarantee, type SetAnswerNames, type SetQuery } from "../../api/index.js";
import type { ProfileState } from "../profiles/profileState.js";
import { setMethodOf } from "./calibrations.js";
import type { CalibratedOptionBeliefs, CalibratedSet } from "./conformal.js";
import { probabilitiesOf } from "./evidence.js";
import { VersionedMemo } from "./pools.js";
import type { SetPool } from "./setPools.js";
import type { QueryInput } from "./types.js";
import { invalidField } from "../errors.js";

export function groupCount(_input: QueryInput, pool: SetPool, group: string | undefined): number {
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
export interface SetPlan {
  names: readonly string[];
  /** Option names in canonical (sorted) order. */
  sorted: readonly string[];
  /** Position in `sorted` of each name of `names`. */
  rank: Int32Array;
  /** False when a name is `__proto__`, which an assignment would not make an own property. */
  plainKeys: boolean;
  pool?: SetPool;
  needed?: number;
  cal?: CalibratedSet;
  beliefs?: CalibratedOptionBeliefs;
  /** Guarantees by evidence level, estimation, n and group: the same object (and its JSON) for every answer they fit. */
  guarantees: Map<string, { guarantee: Guarantee; json: string }>;
  /** The entry of `guarantees` given last, with what it was given for. */
  lastGuarantee?: { level: string | undefined; estimated: boolean; n: number; group: string | undefined; value: { guarantee: Guarantee; json: string } };
  /** The names as setAnswerJson writes them; null when its answers are written by JSON.stringify. */
  written: SetAnswerNames | null;
}

const plans = new VersionedMemo(64);

function buildPlan(names: readonly string[]): SetPlan {
  const sorted = [...names].sort();
  const rank = new Int32Array(names.length);
  for (let i = 0; i < names.length; i++) rank[i] = sorted.indexOf(names[i]!);
  return { names: [...names], sorted, rank, plainKeys: !names.includes("__proto__"), guarantees: new Map(), written: setAnswerNames(names, sorted) ?? null };
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

/** A set query made ready for its prediction: its settings, its plan and its probabilities in the plan's order. */
export interface PreparedSet {
  alpha: number;
  method: string;
  group: string | undefined;
  plan: SetPlan;
  p: Float64Array;
  /** Set by predictSetsTogether: the query's row of a batch prediction. */
  row?: SetRow;
}

/** A query's set membership and per-option Venn–Abers, at `at` in arrays shared by the queries predicted together. */
export interface SetRow {
  readonly membership: Uint8Array;
  readonly n: number;
  readonly p0: Float64Array | readonly number[];
  readonly p1: Float64Array | readonly number[];
  readonly at: number;
}

/** The query's settings, plan and probabilities; throws what the query's answer would (a 422 naming its evidence). */
export function prepareSet(input: QueryInput<SetQuery>): PreparedSet {
  const { query, profile } = input;
  const alpha = query.alpha ?? profile.meta.alpha;
  const method = setMethodOf(profile, query.method);
  const group = profile.meta.group_by ? query.group_by : undefined;
  const plan = setPlan(profile, Object.keys(query.options), method, alpha, group !== undefined);
  return { alpha, method, group, plan, p: queryProbabilities(input, plan.sorted) };
}

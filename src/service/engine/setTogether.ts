// The set queries of one request predicted together: one call of the batch API per plan instead of one
// prediction per query.
import type { SetQuery } from "../../api/index.js";
import { encodeGroups, predictOptionBeliefsBatch, predictSetBatch, type CalibratedSet } from "./conformal.js";
import { minimumNOf } from "./pools.js";
import { setPool, setPoolBeliefs, setPoolCalibration } from "./setPools.js";
import { predictionRng } from "./seeds.js";
import { groupCount, prepareSet, type PreparedSet, type SetPlan } from "./setPlan.js";
import type { QueryInput } from "./types.js";

/**
 * Prepares the request's set queries (by position in `inputs`) and predicts those that share a plan (profile
 * version, options, method, α, group mode) and will be answered with a guarantee in one call of the batch API
 * per plan; answerSet then takes the prepared query and its row. A query this cannot prepare or predict (bad
 * evidence, too few examples, any error) is left to answerSet, which meets the same condition at the query's
 * own turn: answers, and which error a request gets, are unchanged.
 */
export function predictSetsTogether(inputs: readonly QueryInput[]): (PreparedSet | undefined)[] {
  const prepared: (PreparedSet | undefined)[] = new Array(inputs.length).fill(undefined);
  const groups = new Map<SetPlan, { cal: CalibratedSet; rows: { input: QueryInput; set: PreparedSet }[] }>();
  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i]!;
    if (input.query.type !== "set") continue;
    try {
      const set = (prepared[i] = prepareSet(input as QueryInput<SetQuery>));
      const { plan, group, alpha } = set;
      const pool = (plan.pool ??= setPool(input.profile, plan.sorted, group !== undefined));
      const needed = (plan.needed ??= minimumNOf(alpha));
      if (groupCount(input, pool, group) < needed) continue;
      const cal = (plan.cal ??= setPoolCalibration(input.profile, pool, set.method, alpha));
      let g = groups.get(plan);
      if (!g) groups.set(plan, (g = { cal, rows: [] }));
      g.rows.push({ input, set });
    } catch {
      continue; // answerSet meets it again, in order
    }
  }
  for (const [plan, { cal, rows }] of groups) {
    if (rows.length < 2) continue;
    try {
      const K = plan.sorted.length;
      const data = scratchRows(rows.length * K);
      for (let i = 0; i < rows.length; i++) data.set(rows[i]!.set.p, i * K);
      const uniforms = cal.randomized ? Float64Array.from(rows, (r) => predictionRng(r.input)()) : undefined;
      const codes = cal.grouped ? encodeGroups(rows.map((r) => r.set.group!)) : undefined;
      const batch = codes ? { probabilities: data, width: K, groups: codes } : { probabilities: data, width: K };
      const pred = predictSetBatch(cal, batch, uniforms ? { uniforms } : NO_OPTIONS);
      const beliefs = (plan.beliefs ??= setPoolBeliefs(rows[0]!.input.profile, plan.pool!));
      const va = predictOptionBeliefsBatch(beliefs, batch);
      for (let i = 0; i < rows.length; i++) rows[i]!.set.row = { membership: pred.membership, n: pred.n[i]!, p0: va.p0, p1: va.p1, at: i * K };
    } catch {
      continue;
    }
  }
  return prepared;
}

const NO_OPTIONS = Object.freeze({});

/**
 * The batch's probabilities, in one array kept from request to request: it is read by the two predictions
 * below and by nothing after them (their results are arrays of their own), and a typed array allocated per
 * request cost more than filling it.
 */
let scratch = new Float64Array(0);
function scratchRows(size: number): Float64Array {
  if (scratch.length !== size) scratch = new Float64Array(size);
  return scratch;
}


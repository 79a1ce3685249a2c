// Per-stage calibration of judge cascades: each model stage is calibrated on its own judgements of the profile's
// examples, so a stage that is worse (or better) than the request's evidence gets sets of its own width. A
// stage's judgement of an example is the client's `metadata.evidence.stage_probabilities[<stage>]` when given,
// else the service asks the stage (cached per profile version, like route stages).
import type { ExampleRecord, JudgeQuery } from "../../api/index.js";
// The prompts alone: the evidence index loads the adapters and progress bars, which a serve never needs.
import { queryPrompt } from "../../evidence/prompts.js";
import type { ProfileState } from "../profiles/profileState.js";
import { setCalibration } from "./calibrations.js";
import type { CalibratedSet } from "./conformal.js";
import { labelName } from "./evidence.js";
import { grow } from "./columnGrowth.js";
import { cached, probabilityPool, type ProbabilityPool } from "./pools.js";
import type { QueryInput } from "./types.js";

/** The stage name of the query's own evidence in the trail (and in its calibration: `option_probabilities`). */
export const REQUEST_STAGE = "request";
const CALL_CONCURRENCY = 4;

/**
 * What a model stage is asked: the one prompt path's judge prompt (evidence's `instruct` format), the text a
 * client's local model sees for the same query, so stage and client judgements are comparable.
 */
export function judgePrompt(query: Pick<JudgeQuery, "instructions">, context: unknown, candidates: readonly string[]): string {
  const asked = queryPrompt({ type: "judge", instructions: query.instructions } as JudgeQuery, context);
  // Scoring follows `candidates`; the prompt must name exactly them (a context may hold others).
  if (asked.names.length !== candidates.length || candidates.some((c) => !asked.names.includes(c))) {
    throw new Error(`judge context candidates ${JSON.stringify(asked.names)} differ from the scored ${JSON.stringify(candidates)}`);
  }
  return asked.prompt;
}

/** The client's judgement of stage `stage` on an example, over exactly `names`, or undefined. */
export function givenStageProbabilities(example: ExampleRecord, stage: string, names: readonly string[]): Float64Array | undefined {
  const evidence = example.metadata?.evidence as { stage_probabilities?: Record<string, unknown> } | undefined;
  const map = evidence?.stage_probabilities?.[stage] as Record<string, unknown> | undefined;
  if (!map || typeof map !== "object" || Object.keys(map).length !== names.length) return undefined;
  const out = Float64Array.from(names, (n) => (typeof map[n] === "number" ? (map[n] as number) : NaN));
  return out.some((v) => !(v >= 0 && v <= 1)) ? undefined : out;
}

/** The candidates of an example's context, when they are exactly `names`. */
function sameCandidates(example: ExampleRecord, names: readonly string[]): boolean {
  const c = (example.context as { candidates?: unknown } | null)?.candidates;
  if (!c || typeof c !== "object" || Array.isArray(c)) return false;
  const keys = Object.keys(c);
  return keys.length === names.length && names.every((n) => keys.includes(n));
}

/** A model stage's judgements of the profile's examples, scanned once each as the profile grows. */
interface StagePool {
  scanned: number;
  rows: Float64Array;
  labels: Int32Array;
  positions: Int32Array;
  n: number;
  /** Judgements asked for but not appended yet, by position (shared by concurrent requests). */
  calls: Map<number, Promise<Float64Array | undefined>>;
}

const stagePools = new WeakMap<ProfileState, Map<string, StagePool>>();

/**
 * The pool of model stage `stage`: its judgement of every example labelled with one of `names`. The examples
 * added since the last version are the only ones judged (the stage is asked at most once per example).
 */
export async function modelStagePool(input: QueryInput<JudgeQuery>, stage: unknown, path: string, stageName: string, names: readonly string[]): Promise<ProbabilityPool> {
  const { profile, query } = input;
  const key = `judge-pool|${stageName}|${query.instructions}|${names.join("\u0000")}`;
  let pools = stagePools.get(profile);
  if (!pools) stagePools.set(profile, (pools = new Map()));
  let pool = pools.get(key);
  if (!pool) pools.set(key, (pool = { scanned: 0, rows: new Float64Array(0), labels: new Int32Array(0), positions: new Int32Array(0), n: 0, calls: new Map() }));
  const K = names.length;
  const index = new Map(names.map((n, j) => [n, j]));
  const rowOf = (i: number): Promise<Float64Array | undefined> => {
    const example = profile.exampleAt(i);
    const label = labelName(example.label);
    if (label === undefined || !names.includes(label)) return Promise.resolve(undefined);
    const given = givenStageProbabilities(example, stageName, names);
    if (given) return Promise.resolve(given);
    if (!sameCandidates(example, names)) return Promise.resolve(undefined);
    return input.stages.judge(stage, path, judgePrompt(query, example.context, names), names);
  };
  // The profile may grow while the stage answers: scan until the pool has caught up with it.
  while (pool.scanned < profile.n) {
    const from = pool.scanned;
    const end = profile.n;
    const results = new Map<number, Float64Array | undefined>();
    let next = from;
    const worker = async () => {
      while (next < end) {
        const i = next++;
        if (i < pool!.scanned) continue; // appended by a concurrent request meanwhile
        let p = pool!.calls.get(i);
        if (!p) pool!.calls.set(i, (p = rowOf(i)));
        try {
          results.set(i, await p);
        } catch (err) {
          pool!.calls.delete(i);
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: CALL_CONCURRENCY }, worker));
    // Appended in stored order, once (a concurrent request may have appended some of them meanwhile).
    for (; pool.scanned < end; pool.scanned++) {
      const i = pool.scanned;
      const row = results.get(i);
      pool.calls.delete(i);
      if (!row) continue;
      pool.rows = grow(pool.rows, (pool.n + 1) * K);
      pool.labels = grow(pool.labels, pool.n + 1);
      pool.positions = grow(pool.positions, pool.n + 1);
      pool.rows.set(row, pool.n * K);
      pool.labels[pool.n] = index.get(labelName(profile.exampleAt(i).label)!)!;
      pool.positions[pool.n] = i;
      pool.n++;
    }
  }
  const grown = pool;
  return cached(profile, key, () => ({
    names, rows: grown.rows.subarray(0, grown.n * K), labels: grown.labels.subarray(0, grown.n), positions: grown.positions.subarray(0, grown.n),
    groups: undefined, groupCounts: undefined, n: grown.n, estimated: 0,
  }));
}

/** The request stage's pool: the examples' own `option_probabilities` over `names`. */
export const requestStagePool = (input: QueryInput<JudgeQuery>, names: readonly string[]): ProbabilityPool =>
  probabilityPool(input.profile, names, { grouped: false });

/**
 * The conformal set calibration of one stage's pool: the set queries' own for the request stage, and for a
 * model stage one of its own kind (each example's u fixed by its position, extended version by version).
 */
export function stageCalibration(input: QueryInput<JudgeQuery>, stageName: string, pool: ProbabilityPool, method: string, alpha: number): CalibratedSet {
  return setCalibration(input.profile, pool, method, alpha, stageName === REQUEST_STAGE ? "" : `judge|${stageName}|${input.query.instructions}`);
}

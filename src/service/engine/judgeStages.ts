// Per-stage calibration of judge cascades: each model stage is calibrated on its own judgements of the profile's
// examples, so a stage that is worse (or better) than the request's evidence gets sets of its own width. A
// stage's judgement of an example is the client's `metadata.evidence.stage_probabilities[<stage>]` when given,
// else the service asks the stage (cached per profile version, like route stages).
import type { ExampleRecord, JudgeQuery } from "../../api/index.js";
import { queryPrompt } from "../../evidence/index.js";
import { calibrateSet, type CalibratedSet } from "./conformal.js";
import { labelName } from "./evidence.js";
import { cached, probabilityPool, type ProbabilityPool } from "./pools.js";
import { calibrationRng } from "./seeds.js";
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

/** The pool of model stage `stage`: its judgement of every example labelled with one of `names`. */
export async function modelStagePool(input: QueryInput<JudgeQuery>, stage: unknown, path: string, stageName: string, names: readonly string[]): Promise<ProbabilityPool> {
  const { profile, query } = input;
  const examples = profile.examples;
  const calls = cached(profile, `judge-calls|${stageName}|${query.instructions}|${names.join("\u0000")}`, () => new Map<number, Promise<Float64Array | undefined>>());
  const rowOf = (i: number): Promise<Float64Array | undefined> => {
    const example = examples[i]!;
    const label = labelName(example.label);
    if (label === undefined || !names.includes(label)) return Promise.resolve(undefined);
    const given = givenStageProbabilities(example, stageName, names);
    if (given) return Promise.resolve(given);
    if (!sameCandidates(example, names)) return Promise.resolve(undefined);
    return input.stages.judge(stage, path, judgePrompt(query, example.context, names), names);
  };
  const rows: (Float64Array | undefined)[] = new Array(examples.length);
  let next = 0;
  const worker = async () => {
    while (next < examples.length) {
      const i = next++;
      let p = calls.get(i);
      if (!p) calls.set(i, (p = rowOf(i)));
      try {
        rows[i] = await p;
      } catch (err) {
        calls.delete(i);
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: CALL_CONCURRENCY }, worker));
  return cached(profile, `judge-pool|${stageName}|${query.instructions}|${names.join("\u0000")}`, () => {
    const index = new Map(names.map((n, j) => [n, j]));
    const data: number[] = [];
    const labels: number[] = [];
    const positions: number[] = [];
    rows.forEach((row, i) => {
      if (!row) return;
      data.push(...row);
      labels.push(index.get(labelName(examples[i]!.label)!)!);
      positions.push(i);
    });
    return { names, rows: Float64Array.from(data), labels: Int32Array.from(labels), positions: Int32Array.from(positions), groups: undefined, groupCounts: undefined, n: labels.length, estimated: 0 };
  });
}

/** The request stage's pool: the examples' own `option_probabilities` over `names`. */
export const requestStagePool = (input: QueryInput<JudgeQuery>, names: readonly string[]): ProbabilityPool =>
  probabilityPool(input.profile, names, { grouped: false });

/** The conformal set calibration of one stage's pool (keyed by stage, so stages never share one). */
export function stageCalibration(input: QueryInput<JudgeQuery>, stageName: string, pool: ProbabilityPool, method: string, alpha: number): CalibratedSet {
  const key = `judge-cal|${stageName}|${input.query.instructions}|${method}|${alpha}|${pool.names.join("\u0000")}`;
  return cached(input.profile, key, () =>
    calibrateSet({ probabilities: { data: pool.rows, width: pool.names.length }, labels: pool.labels }, { method, alpha, rng: calibrationRng(input.profile) }));
}

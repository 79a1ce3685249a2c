// Local recomputation of judge answers: each stage's conformal set from its own calibration (the request's
// evidence on the examples' option_probabilities; a model stage on the examples' `stage_probabilities`), the
// stages' judgements of the query as the service reports them in `stages`, one prediction rng through the
// cascade, the winner a singleton set, escalation to the next stage otherwise.
import type { JudgeAnswer, JudgeQuery } from "../api/index.js";
import { HUMAN_QUEUE, judgeStage, minimumN, rngFromString, type CalibratedSet, type Rng } from "../conformal/index.js";
import {
  fromSamples, labelName, methodName, namePool, predictionSeedText, probabilitiesOf, profileFields, serviceSetCalibration, setMethodOf, type LocalEngine, type LocalResult, type Pool,
} from "./crossCheckEvidence.js";

const REQUEST_STAGE = "request";

function candidatesOf(context: unknown): string[] | undefined {
  const c = (context as { candidates?: unknown } | null)?.candidates;
  return c && typeof c === "object" && !Array.isArray(c) ? Object.keys(c) : undefined;
}

/** A model stage's pool from the examples' `metadata.evidence.stage_probabilities[stage]`, or why it is unknowable. */
function stagePool(engine: LocalEngine, stage: string, names: readonly string[]): Pool | string {
  return engine.cached(`judge-stage|${stage}|${JSON.stringify(names)}`, () => {
    const rows: number[] = [];
    const labels: number[] = [];
    const positions: number[] = [];
    for (const [i, example] of engine.examples.entries()) {
      const y = names.indexOf(labelName(example.label) ?? "\u0000");
      if (y < 0) continue;
      const map = (example.metadata?.evidence as { stage_probabilities?: Record<string, Record<string, number>> } | undefined)?.stage_probabilities?.[stage];
      const p = map && Object.keys(map).length === names.length && names.every((n) => typeof map[n] === "number") ? names.map((n) => map[n]!) : undefined;
      if (!p) {
        const own = candidatesOf(example.context);
        // The service asks the stage itself about such an example: its answer is not known here.
        if (own && own.length === names.length && names.every((n) => own.includes(n))) return `example ${i} has no stage_probabilities for stage "${stage}"`;
        continue;
      }
      rows.push(...p);
      labels.push(y);
      positions.push(i);
    }
    return { rows: Float64Array.from(rows), labels: Int32Array.from(labels), positions: Int32Array.from(positions), n: labels.length, estimated: 0 };
  });
}

export function localJudgeAnswer(engine: LocalEngine, name: string, query: JudgeQuery, context: unknown, service: JudgeAnswer, requestId: string): LocalResult {
  const candidates = candidatesOf(context);
  if (!candidates || candidates.length < 2) return { unchecked: `query ${name} has no context.candidates` };
  const sorted = [...candidates].sort();
  const alpha = query.alpha ?? engine.profile.alpha;
  const method = setMethodOf(engine);
  const cascade = query.cascade ?? [];
  const reported = service.stages ?? [];
  const rng: Rng = rngFromString(predictionSeedText(engine, requestId, name));
  const stages: Record<string, unknown>[] = [];
  let winner: string | null = null;
  let escalatedTo: string | null = null;
  let last = { n: 0, estimated: fromSamples(query.evidence) };
  const stageCount = (query.evidence ? 1 : 0) + cascade.length;
  for (let s = 0; s < stageCount; s++) {
    const backend = s === 0 && query.evidence ? undefined : cascade[query.evidence ? s - 1 : s]!.backend;
    if (backend === HUMAN_QUEUE) {
      escalatedTo = HUMAN_QUEUE;
      break;
    }
    const stageName = backend === undefined ? REQUEST_STAGE : (backend as { name?: string }).name;
    if (stageName === undefined) return { unchecked: `stage ${s} of query ${name} names no configured backend` };
    let p: Float64Array | undefined;
    if (backend === undefined) p = probabilitiesOf(query.evidence, sorted);
    else {
      // What the stage answered is the service's to report; the local engine recomputes what follows from it.
      const map = reported[s]?.stage === stageName ? reported[s]!.probabilities : undefined;
      p = map ? Float64Array.from(sorted, (x) => map[x] ?? NaN) : undefined;
      if (!p) return { unchecked: `the service did not report stage "${stageName}"'s judgement of query ${name}` };
    }
    if (!p) return { unchecked: `query ${name} has no probabilities over its candidates` };
    const pool = backend === undefined ? namePool(engine, sorted) : stagePool(engine, stageName, sorted);
    if (typeof pool === "string") return { unchecked: pool };
    if (s > 0) escalatedTo = stageName;
    last = { n: pool.n, estimated: fromSamples(query.evidence) || pool.estimated > 0 };
    const probabilities = Object.fromEntries(sorted.map((x, j) => [x, p[j]!]));
    const base = { ...profileFields(engine), alpha, n: pool.n, method: methodName(method, last.estimated) };
    if (pool.n < minimumN(alpha)) {
      stages.push({ stage: stageName, probabilities, set: [] });
      const best = p.reduce((b, v, j) => (v > p[b]! ? j : b), 0);
      return { answer: { type: "judge", winner: sorted[best], escalated_to: escalatedTo, stages, guarantee: { ...base, kind: "heuristic", holds: false } } };
    }
    const cal = engine.cached(`judge-cal|${stageName}|${method}|${alpha}|${JSON.stringify(sorted)}`, (): CalibratedSet =>
      serviceSetCalibration(engine.profile.name, pool, sorted.length, method, alpha));
    const step = judgeStage({ name: stageName, calibrated: cal, probabilities: p, candidates: sorted }, rng);
    stages.push({ stage: stageName, probabilities, set: step.set });
    winner = step.winner;
    if (winner !== null) break;
  }
  return {
    answer: {
      type: "judge", winner, escalated_to: escalatedTo, stages,
      guarantee: { ...profileFields(engine), alpha, n: last.n, method: methodName(method, last.estimated), kind: "coverage", holds: true },
    },
  };
}

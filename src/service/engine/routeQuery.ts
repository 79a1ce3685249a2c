// route queries: a cascade of model stages, each answering when its confidence clears a threshold calibrated
// on the profile (cost_budget: most accurate within the budget; accuracy: cheapest with error ≤ α, each
// certified at δ = 0.05). Example labels: {stages: {<stage>: "correct" | "incorrect" | boolean}} with optional
// `metadata.evidence.stage_confidence: {<stage>: number}`, or a reference output; what is missing the service
// obtains by calling the stage on the example's context (cached per profile version; what an example gives
// without a call is read once, as it arrives). A `client_evidence` stage is the caller's own model: the service
// never calls it; its output on the query comes in `evidence.stage_outputs`, and an example is usable for it
// only with its verdict and confidence given. It costs the service nothing (0 cents).
import type { ClientEvidenceBackend, RouteAnswer, RouteQuery, RouteStageTrail, ExampleRecord } from "../../api/index.js";
import { calibrateRoute, HUMAN_QUEUE, routeStep } from "./conformal.js";
import { guarantee, heuristicGuarantee } from "./guarantee.js";
import { cached } from "./pools.js";
import { matchesReference } from "../backends/stageCalls.js";
import type { ProfileState } from "../profiles/profileState.js";
import type { QueryInput, QueryOutcome, StageCaller } from "./types.js";

const ROUTE_DELTA = 0.05;
const CALL_CONCURRENCY = 4;

export function stagePrompt(instructions: unknown, context: unknown): string {
  const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  return instructions === undefined ? text(context) : `${text(instructions)}\n\n${text(context)}\n\nAnswer:`;
}


function stageVerdict(label: unknown, stage: string): boolean | undefined {
  const stages = (label as { stages?: Record<string, unknown> } | null)?.stages;
  const v = stages && typeof stages === "object" ? stages[stage] : undefined;
  if (v === true || v === "correct") return true;
  if (v === false || v === "incorrect") return false;
  return undefined;
}

function givenConfidence(example: ExampleRecord, stage: string): number | undefined {
  const evidence = example.metadata?.evidence as { stage_confidence?: Record<string, unknown> } | undefined;
  const c = evidence?.stage_confidence?.[stage];
  return typeof c === "number" && c >= 0 && c <= 1 ? c : undefined;
}

/** The stage's backend when it is the caller's own model (`client_evidence`), else undefined. */
function clientStage(stage: unknown): ClientEvidenceBackend | undefined {
  return stage !== HUMAN_QUEUE && (stage as { provider?: unknown } | null)?.provider === "client_evidence" ? stage as ClientEvidenceBackend : undefined;
}

interface StageRow {
  confidence: number;
  correct: boolean;
}

/**
 * What each example gives a stage without calling it: its row (a verdict and a confidence given, or the human
 * queue), undefined (not usable), or null (the stage must be called on it). Grown as the profile grows: each
 * example is read once, not at every version.
 */
const givenRows = new WeakMap<ProfileState, Map<string, { scanned: number; rows: (StageRow | null | undefined)[] }>>();

function givenRowsOf(profile: ProfileState, name: string, kind: "model" | "human" | "client", n: number): readonly (StageRow | null | undefined)[] {
  const human = kind === "human";
  let perStage = givenRows.get(profile);
  if (!perStage) givenRows.set(profile, (perStage = new Map()));
  const key = `${kind}|${name}`;
  let given = perStage.get(key);
  if (!given) perStage.set(key, (given = { scanned: 0, rows: [] }));
  for (; given.scanned < n; given.scanned++) {
    const example = profile.exampleAt(given.scanned);
    const verdict = stageVerdict(example.label, name);
    const confidence = givenConfidence(example, name);
    given.rows.push(
      verdict === undefined && typeof example.label !== "string" ? undefined
      : human ? { confidence: 1, correct: verdict ?? true }
      : confidence !== undefined && verdict !== undefined ? { confidence, correct: verdict }
      // The caller's own model cannot be called here: an example without both is not usable for it.
      : kind === "client" ? undefined
      : null,
    );
  }
  return given.rows;
}

/** Confidence and correctness of one stage on the first n examples (calling the stage where needed). */
async function stageRows(input: QueryInput<RouteQuery>, stage: unknown, path: string, name: string, stages: StageCaller, n: number): Promise<(StageRow | undefined)[]> {
  const { profile } = input;
  const given = givenRowsOf(profile, name, stage === HUMAN_QUEUE ? "human" : clientStage(stage) ? "client" : "model", n);
  const cache = cached(profile, `route-stage|${name}`, () => new Map<number, Promise<StageRow | undefined>>());
  const rowOf = (i: number): Promise<StageRow | undefined> => {
    const example = profile.exampleAt(i);
    const verdict = stageVerdict(example.label, name);
    const reference = typeof example.label === "string" ? example.label : undefined;
    const confidence = givenConfidence(example, name);
    return stages.generate(stage, path, stagePrompt(input.query.instructions, example.context)).then((out) => ({
      confidence: confidence ?? out.confidence,
      correct: verdict ?? matchesReference(out.output, reference!),
    }));
  };
  const out: (StageRow | undefined)[] = new Array(n);
  const calls: number[] = [];
  for (let i = 0; i < n; i++) {
    const row = given[i];
    if (row === null) calls.push(i);
    else out[i] = row;
  }
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const i = calls[next++]!;
      let p = cache.get(i);
      if (!p) cache.set(i, (p = rowOf(i)));
      try {
        out[i] = await p;
      } catch (err) {
        cache.delete(i);
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: CALL_CONCURRENCY }, worker));
  return out;
}

export async function answerRoute(input: QueryInput<RouteQuery>): Promise<QueryOutcome> {
  const { query, profile, stages } = input;
  const S = query.cascade.length;
  const paths = query.cascade.map((_, s) => `queries.${input.name}.cascade.${s}.backend`);
  const names = query.cascade.map((st, s) => (st.backend === HUMAN_QUEUE ? HUMAN_QUEUE : clientStage(st.backend)?.name ?? stages.stageName(st.backend, paths[s]!)));
  const costs = query.cascade.map((st, s) => (st.backend === HUMAN_QUEUE || clientStage(st.backend) ? 0 : stages.nominalCost(st.backend, paths[s]!)));
  // The examples as they are now: the profile may grow while the stages answer.
  const examples = profile.n;
  const perStage = await Promise.all(query.cascade.map((st, s) => stageRows(input, st.backend, paths[s]!, names[s]!, stages, examples)));
  const usable: number[] = [];
  for (let i = 0; i < examples; i++) if (perStage.every((rows) => rows[i] !== undefined)) usable.push(i);
  const n = usable.length;
  const confidence = new Float64Array(n * S);
  const correct = new Uint8Array(n * S);
  usable.forEach((i, t) => {
    for (let s = 0; s < S; s++) {
      confidence[t * S + s] = perStage[s]![i]!.confidence;
      correct[t * S + s] = perStage[s]![i]!.correct ? 1 : 0;
    }
  });
  const alpha = query.alpha ?? profile.meta.alpha;
  const key = `route|${names.join(",")}|${query.guarantee}|${query.target_cents}|${alpha}`;
  const cal = cached(profile, key, () =>
    calibrateRoute({ stages: S, confidence, correct, cost: costs }, {
      guarantee: query.guarantee,
      delta: ROUTE_DELTA,
      ...(query.guarantee === "cost_budget" ? { targetCents: query.target_cents! } : { alpha }),
    }),
  );
  const base = {
    n,
    method: "ltt-route",
    delta: ROUTE_DELTA,
    ...(query.guarantee === "cost_budget" ? { target: query.target_cents! } : { alpha }),
  };
  // Serve: each stage answers when confident enough (infeasible calibrations serve heuristically from stage 0).
  let costCents = 0;
  const trail: RouteStageTrail[] = [];
  const extension = (answer: RouteAnswer): RouteAnswer => ({ ...answer, stages: trail, thresholds: cal.thresholds });
  for (let s = 0; s < S; s++) {
    const stage = query.cascade[s]!.backend;
    if (stage === HUMAN_QUEUE) {
      const id = await stages.enqueueHuman({ profile: profile.name, query: input.name, context: input.context, detail: { type: "route", instructions: query.instructions ?? null } });
      const answer: RouteAnswer = { type: "route", output: null, served_by: HUMAN_QUEUE, escalated: s > 0, cost_cents: costCents, guarantee: guarantee(input, { ...base, kind: query.guarantee }) };
      (answer as Record<string, unknown>).human_queue_item = id;
      return { answer: extension(answer), insufficient: !cal.feasible };
    }
    // Validated with the request (routeEvidenceIssues): a client stage's output is in the query's evidence.
    const out = clientStage(stage) ? { ...query.evidence!.stage_outputs![names[s]!]!, costCents: 0 } : await stages.generate(stage, paths[s]!, stagePrompt(query.instructions, input.context));
    costCents += out.costCents;
    trail.push({ stage: names[s]!, confidence: out.confidence });
    const answers = cal.feasible ? routeStep(cal, s, out.confidence) === "answer" : true;
    if (answers || s === S - 1) {
      const g = cal.feasible
        ? guarantee(input, { ...base, kind: query.guarantee })
        : heuristicGuarantee(input, { ...base, needed: n + 1, wanted: `${query.guarantee} certified at delta ${ROUTE_DELTA}`, reason: `no threshold configuration of this cascade meets ${query.guarantee} on the ${n} usable examples of profile "${profile.name}"` });
      const answer: RouteAnswer = { type: "route", output: out.output, served_by: names[s]!, escalated: s > 0, cost_cents: costCents, guarantee: g };
      (answer as Record<string, unknown>).confidence = out.confidence;
      return { answer: extension(answer), insufficient: !cal.feasible };
    }
  }
  throw new Error("unreachable: the last stage always answers");
}

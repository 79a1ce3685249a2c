// Local recomputation of route answers: the thresholds calibrated on the examples' per-stage confidence and
// correctness (Learn then Test over the service's grid, δ = 0.05, stage costs from GET /backends), then which
// stage serves from the confidences the service reports in `stages`. The output and its cost are the stages',
// except a `client_evidence` stage's (the caller's own model): its confidence and output are the query's own
// evidence, checked against what the service reports, and it costs 0 cents.
import type { RouteAnswer, RouteQuery } from "../api/index.js";
import { calibrateRoute, HUMAN_QUEUE, routeStep, type CalibratedRoute } from "../conformal/index.js";
import { profileFields, type LocalEngine, type LocalResult } from "./crossCheckEvidence.js";

const ROUTE_DELTA = 0.05;

function verdictOf(label: unknown, stage: string): boolean | undefined {
  const v = (label as { stages?: Record<string, unknown> } | null)?.stages?.[stage];
  if (v === true || v === "correct") return true;
  if (v === false || v === "incorrect") return false;
  return undefined;
}

/** Per-stage rows of every usable example, or why one is unknowable here (the service called the stage). */
function routeRows(engine: LocalEngine, names: readonly string[]): { confidence: Float64Array; correct: Uint8Array; n: number } | string {
  return engine.cached(`route-rows|${JSON.stringify(names)}`, () => {
    const confidence: number[] = [];
    const correct: number[] = [];
    for (const [i, example] of engine.examples.entries()) {
      const row: [number, boolean][] = [];
      for (const stage of names) {
        const verdict = verdictOf(example.label, stage);
        const reference = typeof example.label === "string";
        if (verdict === undefined && !reference) break;
        if (stage === HUMAN_QUEUE) {
          row.push([1, verdict ?? true]);
          continue;
        }
        const c = (example.metadata?.evidence as { stage_confidence?: Record<string, unknown> } | undefined)?.stage_confidence?.[stage];
        if (typeof c !== "number" || c < 0 || c > 1 || verdict === undefined) return `example ${i} has no stage_confidence and verdict for stage "${stage}"`;
        row.push([c, verdict]);
      }
      if (row.length < names.length) continue;
      for (const [c, ok] of row) {
        confidence.push(c);
        correct.push(ok ? 1 : 0);
      }
    }
    return { confidence: Float64Array.from(confidence), correct: Uint8Array.from(correct), n: correct.length / names.length };
  });
}

export function localRouteAnswer(engine: LocalEngine, name: string, query: RouteQuery, service: RouteAnswer): LocalResult {
  const names: string[] = [];
  const given = query.evidence?.stage_outputs ?? {};
  const client = new Set<string>();
  for (const [s, stage] of query.cascade.entries()) {
    if (stage.backend !== HUMAN_QUEUE && stage.backend.provider === "client_evidence") client.add(stage.backend.name);
    const stageName = stage.backend === HUMAN_QUEUE ? HUMAN_QUEUE : (stage.backend as { name?: string }).name;
    if (stageName === undefined) return { unchecked: `stage ${s} of query ${name} names no configured backend` };
    names.push(stageName);
  }
  const costs: number[] = [];
  for (const stage of names) {
    const cost = stage === HUMAN_QUEUE || client.has(stage) ? 0 : engine.stageCosts?.[stage];
    if (cost === undefined) return { unchecked: `the cost of stage "${stage}" is not known (give the checker the backends list)` };
    costs.push(cost);
  }
  const rows = routeRows(engine, names);
  if (typeof rows === "string") return { unchecked: rows };
  const alpha = query.alpha ?? engine.profile.alpha;
  const cal = engine.cached(`route|${names.join(",")}|${query.guarantee}|${query.target_cents}|${alpha}`, (): CalibratedRoute =>
    calibrateRoute({ stages: names.length, confidence: rows.confidence, correct: rows.correct, cost: costs }, {
      guarantee: query.guarantee, delta: ROUTE_DELTA,
      ...(query.guarantee === "cost_budget" ? { targetCents: query.target_cents! } : { alpha }),
    }));
  const base = {
    ...profileFields(engine), n: rows.n, method: "ltt-route", delta: ROUTE_DELTA,
    ...(query.guarantee === "cost_budget" ? { target: query.target_cents! } : { alpha }),
  };
  const guarantee = cal.feasible ? { ...base, kind: query.guarantee, holds: true } : { ...base, kind: "heuristic", holds: false };
  const reported = service.stages ?? [];
  const stages: Record<string, unknown>[] = [];
  for (let s = 0; s < names.length; s++) {
    if (names[s] === HUMAN_QUEUE) {
      return { answer: { type: "route", served_by: HUMAN_QUEUE, escalated: s > 0, thresholds: cal.thresholds, stages, guarantee: { ...base, kind: query.guarantee, holds: true } } };
    }
    const own = client.has(names[s]!) ? given[names[s]!] : undefined;
    const confidence = own ? own.confidence : reported[s]?.stage === names[s] ? reported[s]!.confidence : undefined;
    if (confidence === undefined) return { unchecked: `the service did not report stage "${names[s]}"'s confidence for query ${name}` };
    stages.push({ stage: names[s], confidence });
    const answers = cal.feasible ? routeStep(cal, s, confidence) === "answer" : true;
    if (answers || s === names.length - 1) {
      // A client stage's output is the caller's own, and so is its cost when it serves first: both known here.
      const known = own ? { output: own.output, confidence, ...(s === 0 ? { cost_cents: 0 } : {}) } : {};
      return { answer: { type: "route", served_by: names[s], escalated: s > 0, thresholds: cal.thresholds, stages, guarantee, ...known } };
    }
  }
  return { unchecked: `query ${name} has an empty cascade` };
}

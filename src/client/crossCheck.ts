// Client-side cross-check: recompute every answer of the service with the local conformal engine, from
// the same calibration examples (with their evidence) and the same query evidence, and compare field by
// field. It follows the service's documented recipe (docs/service.md): option names in sorted order, the
// examples whose evidence covers exactly those names in the order they were added, the profile's method
// and α unless the query overrides them, and seeds: each example's own u `${profile}#${position}` (set, judge-stage
// and interval calibrations), `${profile}#raps@${m}` (RAPS on m rows) and `${profile}@${version}/${request_id}/${query}`
// (prediction: the response's own request_id, so that each request draws fresh u). Every query type is recomputed (belief and gate in
// crossCheckBelief.ts, claim, judge and route in their own files); an answer the local engine cannot recompute
// (e.g. a route stage whose calibration the service obtained by calling the stage) is counted as unchecked,
// with its reason, never as agreeing.
import { guaranteeWords, type Guarantee } from "../api/index.js";
import type {
  Answer, BeliefQuery, ClaimQuery, EvaluateRequest, EvaluateResponse, ExampleRecord, GateQuery, IntervalQuery, JudgeAnswer, JudgeQuery,
  Profile, RouteAnswer, RouteQuery, SetQuery,
} from "../api/index.js";
import type { GateDecision } from "../conformal/index.js";
import { localBeliefAnswer, localGateAnswer, localGateBatches } from "./crossCheckBelief.js";
import { localClaimAnswer } from "./crossCheckClaim.js";
import { compareFields, CROSS_CHECK_TOLERANCE, type FieldDifference } from "./crossCheckCompare.js";
import { evidenceMap, exactLabelName, type LocalEngine, type LocalResult } from "./crossCheckEvidence.js";
import { coveredByInterval, localIntervalAnswer } from "./crossCheckInterval.js";
import { localJudgeAnswer } from "./crossCheckJudge.js";
import { localRouteAnswer } from "./crossCheckRoute.js";
import { coveredBySet, localSetAnswer, predictSetsTogether, type LocalSetAnswer, type SetPredictions } from "./crossCheckSet.js";

export { CROSS_CHECK_TOLERANCE, compareFields, type FieldDifference } from "./crossCheckCompare.js";
export type { LocalSetAnswer } from "./crossCheckSet.js";

export interface CrossCheckDisagreement extends FieldDifference {
  /** The query, as `<label>/<query name>` when the caller labels its requests (e.g. the test item id). */
  query: string;
}

export interface CrossCheckReport {
  /** Answers recomputed and compared. */
  answers: number;
  /** Leaf fields compared over all of them. */
  fields: number;
  /** Answers the local engine could not recompute, by query type. */
  unchecked: Record<string, number>;
  /** Why each unchecked answer could not be recomputed. */
  uncheckedReasons: { query: string; reason: string }[];
  disagreements: CrossCheckDisagreement[];
}

export interface CrossCheckerOptions {
  /** Cents per call of each configured stage backend, by name (`cost_cents_per_call` of GET /backends): route answers. */
  stageCosts?: Readonly<Record<string, number>>;
}

/** The local answer with its guarantee's sentence and sense from the table (docs/guarantees.md), as the service writes them. */
function withGuaranteeWords(type: string, answer: Record<string, unknown>): Record<string, unknown> {
  const g = answer.guarantee as (Guarantee & { kind?: string }) | undefined;
  return g ? { ...answer, guarantee: { ...g, ...guaranteeWords(type, g) } } : answer;
}

export class CrossChecker {
  readonly #cache = new Map<string, unknown>();
  readonly #report: CrossCheckReport = { answers: 0, fields: 0, unchecked: {}, uncheckedReasons: [], disagreements: [] };
  readonly #engine: LocalEngine;
  /** Set predictions made together for the queries of the request being checked (fresh per check: the seeds are). */
  #together: SetPredictions = new WeakMap();

  /** `examples`: every example of the profile, in the order they were added. */
  constructor(profile: Pick<Profile, "name" | "version" | "method" | "alpha" | "set_pooling">, examples: readonly ExampleRecord[], options: CrossCheckerOptions = {}) {
    this.#engine = { profile, examples, cached: (key, build) => this.#cached(key, build), stageCosts: options.stageCosts };
  }

  get report(): CrossCheckReport {
    return this.#report;
  }

  #cached<T>(key: string, build: () => T): T {
    if (!this.#cache.has(key)) this.#cache.set(key, build());
    return this.#cache.get(key) as T;
  }

  /**
   * The set answer the local engine gives to `query` (named `name`) in the response whose `request_id` is
   * `requestId` (it seeds randomized methods) — the fields it can vouch for.
   */
  localSetAnswer(name: string, query: SetQuery, requestId = ""): LocalSetAnswer {
    return withGuaranteeWords("set", localSetAnswer(this.#engine, name, query, requestId, this.#together) as unknown as Record<string, unknown>) as unknown as LocalSetAnswer;
  }

  /** The interval answer the local engine gives to `query` (named `name`) in the response with `request_id` `requestId`. */
  localIntervalAnswer(name: string, query: IntervalQuery, requestId = ""): Record<string, unknown> {
    return withGuaranteeWords("interval", localIntervalAnswer(this.#engine, name, query, requestId));
  }

  /**
   * Whether the profile's calibration covers one labelled set example at `alpha` (the question behind
   * the service's audits and coverage monitors), with the prediction seed `${profile}@${version}/${seed}`;
   * undefined when it cannot be judged (no evidence, or too few calibration examples).
   */
  covered(example: ExampleRecord, alpha: number, seed: string): boolean | undefined {
    const label = exactLabelName(example.label);
    if (label === undefined) return undefined;
    const levels = evidenceMap(example, true);
    if (levels) return coveredByInterval(this.#engine, levels, label, alpha, seed);
    const options = evidenceMap(example, false);
    return options ? coveredBySet(this.#engine, options, label, alpha, seed) : undefined;
  }

  /** Records the differences between a service result and the local one under the name `query`. */
  compare(query: string, service: unknown, local: unknown): CrossCheckDisagreement[] {
    const c = compareFields(service, local, "", CROSS_CHECK_TOLERANCE);
    this.#report.answers++;
    this.#report.fields += c.fields;
    const found = c.differences.map((d) => ({ query, ...d }));
    this.#report.disagreements.push(...found);
    return found;
  }

  /** The local engine's answer to one query of any type, or why it cannot give one. */
  #local(name: string, query: EvaluateRequest["queries"][string], answer: Answer, context: unknown, gates: ReadonlyMap<string, GateDecision>, requestId: string): LocalResult {
    switch (query.type) {
      case "set": return { answer: this.localSetAnswer(name, query as SetQuery, requestId) as unknown as Record<string, unknown> };
      case "interval": return { answer: this.localIntervalAnswer(name, query as IntervalQuery, requestId) };
      case "belief": return localBeliefAnswer(this.#engine, name, query as BeliefQuery);
      case "gate": return localGateAnswer(this.#engine, name, query as GateQuery, gates.get(name));
      case "claim": return localClaimAnswer(this.#engine, name, query as ClaimQuery, requestId);
      case "judge": return localJudgeAnswer(this.#engine, name, query as JudgeQuery, context, answer as JudgeAnswer, requestId);
      case "route": return localRouteAnswer(this.#engine, name, query as RouteQuery, answer as RouteAnswer);
    }
  }

  /**
   * Recomputes every answer of `response` to `request` and records each difference.
   * `label` prefixes the query names in the report (e.g. the dataset item id). The response's `request_id` seeds
   * the randomized predictions, as it did on the service.
   */
  check(request: EvaluateRequest, response: Pick<EvaluateResponse, "answers" | "request_id">, label?: string): CrossCheckDisagreement[] {
    const found: CrossCheckDisagreement[] = [];
    const requestId = response.request_id ?? "";
    this.#together = new WeakMap();
    predictSetsTogether(this.#engine, request, this.#together, requestId);
    const gates = localGateBatches(this.#engine, request.queries);
    for (const [name, query] of Object.entries(request.queries)) {
      const who = label ? `${label}/${name}` : name;
      const answer = response.answers[name] as Answer | undefined;
      if (!answer) {
        found.push({ query: who, field: "(answer)", service: undefined, local: "an answer" });
        continue;
      }
      const result = this.#local(name, query, answer, request.context, gates, requestId);
      if ("unchecked" in result) {
        this.#report.unchecked[query.type] = (this.#report.unchecked[query.type] ?? 0) + 1;
        this.#report.uncheckedReasons.push({ query: who, reason: result.unchecked });
        continue;
      }
      const local = withGuaranteeWords(query.type, result.answer);
      const c = compareFields(answer, local, "", CROSS_CHECK_TOLERANCE);
      this.#report.answers++;
      this.#report.fields += c.fields;
      for (const d of c.differences) found.push({ query: who, ...d });
    }
    this.#report.disagreements.push(...found);
    return found;
  }
}

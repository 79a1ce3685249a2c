// Client-side cross-check: recompute every answer of the service with the local conformal engine, from
// the same calibration examples (with their evidence) and the same query evidence, and compare field by
// field. It follows the service's documented recipe (docs/service.md): option names in sorted order, the
// examples whose evidence covers exactly those names in the order they were added, the profile's method
// and α unless the query overrides them, and seeds: each example's own u `${profile}#${position}` (set, judge-stage
// and interval calibrations), `${profile}#raps@${m}` (RAPS on m rows) and `${profile}@${version}/${query}`
// (prediction). Every query type is recomputed (belief and gate in
// crossCheckBelief.ts, claim, judge and route in their own files); an answer the local engine cannot recompute
// (e.g. a route stage whose calibration the service obtained by calling the stage) is counted as unchecked,
// with its reason, never as agreeing.
import type {
  Answer, BeliefQuery, ClaimQuery, EvaluateRequest, EvaluateResponse, ExampleRecord, GateQuery, IntervalQuery, JudgeAnswer, JudgeQuery,
  Profile, RouteAnswer, RouteQuery, SetQuery,
} from "../api/index.js";
import {
  calibrateInterval, calibrateOptionBeliefs, minimumN, predictInterval, predictOptionBeliefs, predictSet, predictSetBatch, rngFromString,
  type CalibratedOptionBeliefs, type CalibratedOrdinal, type CalibratedSet,
} from "../conformal/index.js";
import { localBeliefAnswer, localGateAnswer } from "./crossCheckBelief.js";
import { localClaimAnswer } from "./crossCheckClaim.js";
import { compareFields, CROSS_CHECK_TOLERANCE, type FieldDifference } from "./crossCheckCompare.js";
import { positionUniforms, rebuildPrefix, serviceSetCalibration, VENN_ABERS_WINDOW, type LocalEngine, type LocalResult } from "./crossCheckEvidence.js";
import { localJudgeAnswer } from "./crossCheckJudge.js";
import { localRouteAnswer } from "./crossCheckRoute.js";

export { CROSS_CHECK_TOLERANCE, compareFields, type FieldDifference } from "./crossCheckCompare.js";
export { checkAudit, checkMonitor, localMonitorPath, type MonitorPath } from "./crossCheckAudit.js";

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

const SET_METHODS = new Set(["LAC", "APS", "RAPS"]);
const INTERVAL_METHOD_NAMES = ["CQR", "ordinal-aps"] as const;
const INTERVAL_METHODS = new Set<string>(INTERVAL_METHOD_NAMES);

/** The fields of a set answer the local engine vouches for (a heuristic answer: only the probabilities). */
export interface LocalSetAnswer {
  type: "set";
  set?: string[];
  probabilities: Record<string, number>;
  venn_abers?: Record<string, [number, number]>;
  guarantee: Record<string, unknown>;
}

type EvidenceMaps = { option_probabilities?: Record<string, number>; level_probabilities?: Record<string, number> };

function probabilityMap(example: ExampleRecord, levels: boolean): Record<string, number> | undefined {
  const ev = example.metadata?.evidence as EvidenceMaps | undefined;
  return levels ? ev?.level_probabilities : ev?.option_probabilities;
}

/** An example label as a name: strings as they are, numbers spelled out. */
const labelName = (label: unknown): string | undefined =>
  typeof label === "string" ? label : typeof label === "number" && Number.isFinite(label) ? String(label) : undefined;

/**
 * The local engine for one profile version: calibrates lazily per (option names, method, α) and caches,
 * so checking m answers costs one calibration plus O(m K log n).
 */
export class CrossChecker {
  readonly #profile: Pick<Profile, "name" | "version" | "method" | "alpha">;
  readonly #examples: readonly ExampleRecord[];
  readonly #cache = new Map<string, unknown>();
  readonly #report: CrossCheckReport = { answers: 0, fields: 0, unchecked: {}, uncheckedReasons: [], disagreements: [] };
  readonly #engine: LocalEngine;

  /** `examples`: every example of the profile, in the order they were added. */
  constructor(profile: Pick<Profile, "name" | "version" | "method" | "alpha">, examples: readonly ExampleRecord[], options: CrossCheckerOptions = {}) {
    this.#profile = profile;
    this.#examples = examples;
    this.#engine = { profile, examples, cached: (key, build) => this.#cached(key, build), stageCosts: options.stageCosts };
  }

  get report(): CrossCheckReport {
    return this.#report;
  }

  #cached<T>(key: string, build: () => T): T {
    if (!this.#cache.has(key)) this.#cache.set(key, build());
    return this.#cache.get(key) as T;
  }

  /** The examples whose evidence covers exactly `names` (levels: level_probabilities) and whose label is one of them. */
  #pool(names: readonly string[], levels = false): { rows: Float64Array; labels: Int32Array; positions: Int32Array } {
    return this.#cached(`pool|${levels}|${JSON.stringify(names)}`, () => {
      const index = new Map(names.map((n, i) => [n, i]));
      const rows: number[] = [];
      const labels: number[] = [];
      const positions: number[] = [];
      this.#examples.forEach((ex, position) => {
        const name = labelName(ex.label);
        const y = name === undefined ? undefined : index.get(name);
        const p = probabilityMap(ex, levels);
        if (y === undefined || !p || Object.keys(p).length !== names.length || names.some((n) => p[n] === undefined)) return;
        for (const n of names) rows.push(p[n]!);
        labels.push(y);
        positions.push(position);
      });
      return { rows: Float64Array.from(rows), labels: Int32Array.from(labels), positions: Int32Array.from(positions) };
    });
  }

  /** The service's set calibration (docs/service.md, "Reproducing randomized answers"). */
  #setCalibration(pool: { rows: Float64Array; labels: Int32Array; positions: Int32Array }, width: number, method: string, alpha: number): CalibratedSet {
    return serviceSetCalibration(this.#profile.name, pool, width, method, alpha);
  }

  /** Set predictions made together for the queries of the request being checked (#predictSetsTogether). */
  #batched = new WeakMap<SetQuery, { set: string[]; n: number }>();

  /**
   * The request's set queries that share a calibration (method, α, options), predicted in one call of the
   * batch API each, with the same per-query seeds; localSetAnswer takes its row. Anything this cannot
   * prepare is left to localSetAnswer, so the answers are those of the per-query path.
   */
  #predictSetsTogether(request: EvaluateRequest): void {
    const together = new Map<CalibratedSet, { query: SetQuery; name: string; p: Float64Array; sorted: string[] }[]>();
    for (const [name, q] of Object.entries(request.queries)) {
      if (q.type !== "set") continue;
      const query = q as SetQuery;
      const given = query.evidence?.option_probabilities;
      if (!given) continue;
      const sorted = Object.keys(query.options).sort();
      const alpha = query.alpha ?? this.#profile.alpha;
      const method = query.method?.toUpperCase() ?? (SET_METHODS.has(this.#profile.method) ? this.#profile.method : "LAC");
      const pool = this.#pool(sorted);
      if (pool.labels.length < minimumN(alpha)) continue;
      try {
        const cal = this.#cached(`set|${method}|${alpha}|${JSON.stringify(sorted)}`, (): CalibratedSet => this.#setCalibration(pool, sorted.length, method, alpha));
        let rows = together.get(cal);
        if (!rows) together.set(cal, (rows = []));
        rows.push({ query, name, p: Float64Array.from(sorted, (n) => given[n] ?? NaN), sorted });
      } catch {
        continue;
      }
    }
    const seed = `${this.#profile.name}@${this.#profile.version}`;
    for (const [cal, rows] of together) {
      if (rows.length < 2) continue;
      const K = rows[0]!.sorted.length;
      const data = new Float64Array(rows.length * K);
      rows.forEach((r, i) => data.set(r.p, i * K));
      const uniforms = cal.randomized ? Float64Array.from(rows, (r) => rngFromString(`${seed}/${r.name}`)()) : undefined;
      try {
        const pred = predictSetBatch(cal, { probabilities: data, width: K }, uniforms ? { uniforms } : {});
        rows.forEach((r, i) => this.#batched.set(r.query, { set: r.sorted.filter((_, j) => pred.membership[i * K + j] === 1), n: pred.n[i]! }));
      } catch {
        continue;
      }
    }
  }

  /** The set answer the local engine gives to `query` (named `name`) — the fields it can vouch for. */
  localSetAnswer(name: string, query: SetQuery): LocalSetAnswer {
    const names = Object.keys(query.options);
    const sorted = [...names].sort();
    const alpha = query.alpha ?? this.#profile.alpha;
    const requested = query.method?.toUpperCase();
    const method = requested ?? (SET_METHODS.has(this.#profile.method) ? this.#profile.method : "LAC");
    const given = query.evidence?.option_probabilities;
    if (!given) throw new TypeError(`query ${name} has no option_probabilities`);
    const p = Float64Array.from(sorted, (n) => given[n] ?? NaN);
    const probabilities = Object.fromEntries(sorted.map((n, j) => [n, p[j]!]));
    const pool = this.#pool(sorted);
    const n = pool.labels.length;
    const base = { alpha, profile: this.#profile.name, profile_version: this.#profile.version };
    if (n < minimumN(alpha)) {
      // Too few examples: the service answers heuristically (424); only the probabilities are comparable.
      return { type: "set", probabilities, guarantee: { ...base, kind: "heuristic", holds: false, n } };
    }
    const seed = `${this.#profile.name}@${this.#profile.version}`;
    const cal = this.#cached(`set|${method}|${alpha}|${JSON.stringify(sorted)}`, (): CalibratedSet => this.#setCalibration(pool, sorted.length, method, alpha));
    const prediction = this.#batched.get(query) ?? predictSet(cal, { probabilities: p, options: sorted }, rngFromString(`${seed}/${name}`), { pValues: false });
    const beliefs = this.#cached(`beliefs|${JSON.stringify(sorted)}`, (): CalibratedOptionBeliefs => {
      const m = rebuildPrefix(n);
      const from = Math.max(0, m - VENN_ABERS_WINDOW);
      return calibrateOptionBeliefs({ probabilities: { data: pool.rows.subarray(from * sorted.length, m * sorted.length), width: sorted.length }, labels: pool.labels.subarray(from, m) });
    });
    const va = predictOptionBeliefs(beliefs, p);
    const inSet = new Set(prediction.set);
    return {
      type: "set",
      set: names.filter((x) => inSet.has(x)),
      probabilities,
      venn_abers: Object.fromEntries(sorted.map((x, j) => [x, [va[j]!.p0, va[j]!.p1] as [number, number]])),
      guarantee: { ...base, kind: "coverage", holds: true, n: prediction.n, method },
    };
  }

  /**
   * Whether the profile's calibration covers one labelled set example at `alpha` (the question behind
   * the service's audits and coverage monitors), with the prediction seed `${profile}@${version}/${seed}`;
   * undefined when it cannot be judged (no evidence, or too few calibration examples).
   */
  covered(example: ExampleRecord, alpha: number, seed: string): boolean | undefined {
    const label = labelName(example.label);
    const levelMap = probabilityMap(example, true);
    if (levelMap && label !== undefined) return this.#coveredByInterval(levelMap, label, alpha, seed);
    const p = probabilityMap(example, false);
    if (!p || label === undefined) return undefined;
    const names = Object.keys(p).sort();
    if (names.length < 2 || !names.includes(label)) return undefined;
    const pool = this.#pool(names);
    if (pool.labels.length < minimumN(alpha)) return undefined;
    const method = SET_METHODS.has(this.#profile.method) ? this.#profile.method : "LAC";
    const base = `${this.#profile.name}@${this.#profile.version}`;
    const cal = this.#cached(`set|${method}|${alpha}|${JSON.stringify(names)}`, (): CalibratedSet => this.#setCalibration(pool, names.length, method, alpha));
    const prediction = predictSet(cal, { probabilities: Float64Array.from(names, (n) => p[n]!), options: names }, rngFromString(`${base}/${seed}`), { pValues: false });
    if (prediction.n < minimumN(alpha)) return undefined;
    return prediction.set.includes(label);
  }

  #intervalCalibration(names: readonly string[], method: string, alpha: number): CalibratedOrdinal {
    const pool = this.#pool(names, true);
    return this.#cached(`interval|${method}|${alpha}|${JSON.stringify(names)}`, () => {
      const u = positionUniforms(this.#profile.name, pool.positions);
      let t = 0;
      return calibrateInterval({ probabilities: { data: pool.rows, width: names.length }, labels: pool.labels }, { method, alpha, rng: () => u[t++]! });
    });
  }

  get #seed(): string {
    return `${this.#profile.name}@${this.#profile.version}`;
  }

  #coveredByInterval(map: Record<string, number>, label: string, alpha: number, seed: string): boolean | undefined {
    const levels = Object.keys(map); // the evidence's own order is the scale
    const y = levels.indexOf(label);
    if (y < 0 || this.#pool(levels, true).labels.length < minimumN(alpha)) return undefined;
    const method = INTERVAL_METHODS.has(this.#profile.method) ? this.#profile.method : "ordinal-aps";
    const pred = predictInterval(this.#intervalCalibration(levels, method, alpha), { probabilities: Float64Array.from(levels, (l) => map[l]!), levels }, rngFromString(`${this.#seed}/${seed}`));
    return !pred.empty && pred.lower <= y && y <= pred.upper;
  }

  /** The interval answer the local engine gives to `query` (named `name`). */
  localIntervalAnswer(name: string, query: IntervalQuery): Record<string, unknown> {
    const levels = query.levels;
    const names = levels.map(String);
    const alpha = query.alpha ?? this.#profile.alpha;
    const requested = query.method === undefined ? undefined : INTERVAL_METHOD_NAMES.find((m) => m.toLowerCase() === query.method!.toLowerCase());
    const method = requested ?? (INTERVAL_METHODS.has(this.#profile.method) ? this.#profile.method : "ordinal-aps");
    const given = query.evidence?.level_probabilities;
    if (!given) throw new TypeError(`query ${name} has no level_probabilities`);
    const n = this.#pool(names, true).labels.length;
    const base = { alpha, profile: this.#profile.name, profile_version: this.#profile.version };
    if (n < minimumN(alpha)) return { type: "interval", guarantee: { ...base, kind: "heuristic", holds: false, n } };
    const p = Float64Array.from(names, (l) => given[l] ?? NaN);
    const pred = predictInterval(this.#intervalCalibration(names, method, alpha), { probabilities: p, levels: names }, rngFromString(`${this.#seed}/${name}`));
    const lower = pred.empty ? pred.pointEstimate : pred.lower;
    const upper = pred.empty ? pred.pointEstimate : pred.upper;
    return {
      type: "interval",
      point_estimate: levels[pred.pointEstimate],
      interval: [levels[lower], levels[upper]],
      legend: pred.legend,
      guarantee: { ...base, kind: "coverage", holds: true, n: pred.n, method },
    };
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
  #local(name: string, query: EvaluateRequest["queries"][string], answer: Answer, context: unknown): LocalResult {
    switch (query.type) {
      case "set": return { answer: this.localSetAnswer(name, query as SetQuery) as unknown as Record<string, unknown> };
      case "interval": return { answer: this.localIntervalAnswer(name, query as IntervalQuery) };
      case "belief": return localBeliefAnswer(this.#engine, name, query as BeliefQuery);
      case "gate": return localGateAnswer(this.#engine, name, query as GateQuery);
      case "claim": return localClaimAnswer(this.#engine, name, query as ClaimQuery);
      case "judge": return localJudgeAnswer(this.#engine, name, query as JudgeQuery, context, answer as JudgeAnswer);
      case "route": return localRouteAnswer(this.#engine, name, query as RouteQuery, answer as RouteAnswer);
    }
  }

  /**
   * Recomputes every answer of `response` to `request` and records each difference.
   * `label` prefixes the query names in the report (e.g. the dataset item id).
   */
  check(request: EvaluateRequest, response: Pick<EvaluateResponse, "answers">, label?: string): CrossCheckDisagreement[] {
    const found: CrossCheckDisagreement[] = [];
    this.#predictSetsTogether(request);
    for (const [name, query] of Object.entries(request.queries)) {
      const who = label ? `${label}/${name}` : name;
      const answer = response.answers[name] as Answer | undefined;
      if (!answer) {
        found.push({ query: who, field: "(answer)", service: undefined, local: "an answer" });
        continue;
      }
      const result = this.#local(name, query, answer, request.context);
      if ("unchecked" in result) {
        this.#report.unchecked[query.type] = (this.#report.unchecked[query.type] ?? 0) + 1;
        this.#report.uncheckedReasons.push({ query: who, reason: result.unchecked });
        continue;
      }
      const local = result.answer;
      const c = compareFields(answer, local, "", CROSS_CHECK_TOLERANCE);
      this.#report.answers++;
      this.#report.fields += c.fields;
      for (const d of c.differences) found.push({ query: who, ...d });
    }
    this.#report.disagreements.push(...found);
    return found;
  }
}

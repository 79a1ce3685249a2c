// The calibrated objects of a profile version, built once from its examples and shared by evaluate, audits
// and monitors (one cache entry per method, alpha, names and group mode), plus the method defaults:
// a query's method, else the profile's when it is of the query's kind, else LAC / ordinal-aps.
import { INTERVAL_METHODS, SET_METHODS } from "../../api/index.js";
import type { ProfileState } from "../profiles/profileState.js";
import {
  calibrateClaims, calibrateGate, calibrateInterval, calibrateOptionBeliefs, calibrateOptionBeliefsSteps, calibrateSet, extendSet, rngFromString,
  type CalibratedClaims, type CalibratedGate, type CalibratedOptionBeliefs, type CalibratedOrdinal, type CalibratedSet,
  type GateGuarantee, type LabelledClaim,
} from "./conformal.js";
import { exampleEvidence } from "./evidence.js";
import { cached, probabilityPool, type ProbabilityPool } from "./pools.js";
import { rebuilt, VENN_ABERS_WINDOW, WHOLE_POOL_UP_TO } from "./rebuilds.js";
import { calibrationRng, exampleUniforms } from "./seeds.js";
import { registerSnapshots } from "./snapshots.js";
import { claimScores } from "./claimScores.js";

export function setMethodOf(profile: ProfileState, override?: string): string {
  return override ?? ((SET_METHODS as readonly string[]).includes(profile.meta.method) ? profile.meta.method : "LAC");
}

export function intervalMethodOf(profile: ProfileState, override?: string): string {
  return override ?? ((INTERVAL_METHODS as readonly string[]).includes(profile.meta.method) ? profile.meta.method : "ordinal-aps");
}

const key = (names: readonly string[]) => names.join("\u0000");

/** The last set calibration per key and the pool rows it covers: the next version extends it. */
const extendable = new WeakMap<ProfileState, Map<string, { rows: number; cal: CalibratedSet }>>();
const MAX_EXTENDABLE = 64;

/**
 * Conformal set over `names` (sorted), Mondrian when `pool` was built grouped. LAC and APS extend the last
 * version's calibration with the rows added since (a merge, exactly what a full calibration gives: each
 * example's u is fixed by its position); RAPS, whose tuning split moves with n, is rebuilt (rebuilds.ts).
 */
export function setCalibration(profile: ProfileState, pool: ProbabilityPool, method: string, alpha: number): CalibratedSet {
  const cacheKey = `set|${method}|${alpha}|${pool.groups !== undefined}|${key(pool.names)}`;
  return cached(profile, cacheKey, () => {
    const K = pool.names.length;
    const upper = method.toUpperCase();
    const sliced = (m: number) => ({
      probabilities: { data: pool.rows.subarray(0, m * K), width: K }, labels: pool.labels.subarray(0, m), ...(pool.groups ? { groups: pool.groups.slice(0, m) } : {}),
    });
    if (upper === "RAPS") {
      if (pool.n <= WHOLE_POOL_UP_TO) return calibrateSet(sliced(pool.n), { method, alpha, rng: calibrationRng(profile) });
      return rebuilt(profile, cacheKey, pool.n, function* (m) {
        yield;
        return calibrateSet(sliced(m), { method, alpha, rng: rngFromString(`${profile.name}#raps@${m}`) });
      });
    }
    let byKey = extendable.get(profile);
    if (!byKey) extendable.set(profile, (byKey = new Map()));
    const last = byKey.get(cacheKey);
    const randomized = upper !== "LAC";
    let cal: CalibratedSet;
    if (last && last.rows === pool.n) {
      cal = last.cal;
    } else if (last && last.rows < pool.n) {
      const from = last.rows;
      cal = extendSet(last.cal, {
        probabilities: pool.rows.subarray(from * K, pool.n * K), width: K, labels: pool.labels.subarray(from, pool.n),
        ...(pool.groups ? { groups: pool.groups.slice(from, pool.n) } : {}),
        ...(randomized ? { uniforms: exampleUniforms(profile, pool.positions.subarray(from, pool.n)) } : {}),
      });
    } else {
      const u = randomized ? exampleUniforms(profile, pool.positions) : undefined;
      let t = 0;
      cal = calibrateSet(sliced(pool.n), { method, alpha, ...(u ? { rng: () => u[t++]! } : {}) });
    }
    byKey.delete(cacheKey);
    byKey.set(cacheKey, { rows: pool.n, cal });
    if (byKey.size > MAX_EXTENDABLE) byKey.delete(byKey.keys().next().value!);
    return cal;
  });
}

/**
 * One-vs-rest Venn–Abers per option (the set answer's `venn_abers`): on the whole pool while it is small,
 * then on the last VENN_ABERS_WINDOW rows of the pool's rebuild prefix, built in the background (rebuilds.ts).
 */
export function optionBeliefs(profile: ProfileState, pool: ProbabilityPool): CalibratedOptionBeliefs {
  const cacheKey = `option-beliefs|${key(pool.names)}`;
  return cached(profile, cacheKey, () => {
    const K = pool.names.length;
    const examples = (from: number, to: number) => ({ probabilities: { data: pool.rows.subarray(from * K, to * K), width: K }, labels: pool.labels.subarray(from, to) });
    if (pool.n <= WHOLE_POOL_UP_TO) return calibrateOptionBeliefs(examples(0, pool.n));
    return rebuilt(profile, cacheKey, pool.n, (m) => calibrateOptionBeliefsSteps(examples(Math.max(0, m - VENN_ABERS_WINDOW), m)));
  });
}

/** Ordinal interval over `levels` in their order. */
export function intervalCalibration(profile: ProfileState, levels: readonly string[], method: string, alpha: number): { pool: ProbabilityPool; cal: CalibratedOrdinal } {
  const pool = probabilityPool(profile, levels, { levels: true, grouped: false });
  const cal = cached(profile, `interval|${method}|${alpha}|${key(levels)}`, () =>
    calibrateInterval({ probabilities: { data: pool.rows, width: levels.length }, labels: pool.labels }, { method, alpha, rng: calibrationRng(profile) }));
  return { pool, cal };
}

/** The pass / fail pool of gate queries: rows are [p(fail), p(pass)], label 1 = pass. */
export const gatePool = (profile: ProfileState): ProbabilityPool =>
  probabilityPool(profile, ["fail", "pass"], { grouped: false, booleanNames: ["pass", "fail"] });

export interface GateSpec {
  guarantee: GateGuarantee;
  target: number;
  delta?: number | undefined;
  /** Loss of approving a fail / a pass. */
  fail: number;
  pass: number;
}

export function gateCalibration(profile: ProfileState, spec: GateSpec): CalibratedGate {
  const bound = Math.max(1, spec.fail, spec.pass);
  return cached(profile, `gate|${spec.guarantee}|${spec.target}|${spec.delta}|${spec.fail}|${spec.pass}`, () => {
    const pool = gatePool(profile);
    const scores = new Float64Array(pool.n);
    const labels = new Uint8Array(pool.n);
    const losses = new Float64Array(pool.n);
    for (let i = 0; i < pool.n; i++) {
      scores[i] = pool.rows[2 * i + 1]!;
      labels[i] = pool.labels[i] === 1 ? 1 : 0;
      losses[i] = labels[i] ? spec.pass : spec.fail;
    }
    return calibrateGate({ scores, labels, losses }, {
      guarantee: spec.guarantee, target: spec.target, lossBound: bound, ...(spec.delta !== undefined ? { delta: spec.delta } : {}),
    });
  });
}

/** Labelled claims per example: `label.claims` = [{text, correct}], scored from the example's evidence. */
export function claimExamples(profile: ProfileState): LabelledClaim[][] {
  return cached(profile, "claims", () => {
    const out: LabelledClaim[][] = [];
    for (const example of profile.examples) {
      const labelled = labelledClaims(example.label);
      const evidence = exampleEvidence(example);
      if (!labelled || !evidence?.samples) continue;
      const { scores } = claimScores(evidence, labelled.map((c) => c.text));
      out.push(labelled.map((c, i) => ({ score: scores[i]!, correct: c.correct })));
    }
    return out;
  });
}

export function claimCalibration(profile: ProfileState, alpha: number): CalibratedClaims {
  return cached(profile, `claim-cal|${alpha}`, () => calibrateClaims(claimExamples(profile), { alpha }));
}

/** The well-formed claims of a claim label, or undefined when the label is not one. */
export function labelledClaims(label: unknown): { text: string; correct: boolean }[] | undefined {
  const claims = (label as { claims?: unknown } | null)?.claims;
  if (!label || typeof label !== "object" || !Array.isArray(claims)) return undefined;
  return claims.filter(
    (c): c is { text: string; correct: boolean } => !!c && typeof (c as { text?: unknown }).text === "string" && typeof (c as { correct?: unknown }).correct === "boolean",
  );
}

registerSnapshots("extended-sets", {
  count: (state) => extendable.get(state)?.size ?? 0,
  take: (state) => [...(extendable.get(state) ?? [])].map(([k, { rows, cal }]) => [k, rows, cal]),
  restore: (state, entries) => extendable.set(state, new Map(entries.map(([k, rows, cal]) => [k, { rows, cal: cal as CalibratedSet }]))),
});

// The calibrated objects of a profile version, built once from its examples and shared by evaluate, audits
// and monitors (one cache entry per method, alpha, names and group mode), plus the method defaults:
// a query's method, else the profile's when it is of the query's kind, else LAC / ordinal-aps.
import { INTERVAL_METHODS, SET_METHODS } from "../../api/index.js";
import type { ProfileState } from "../profiles/profileState.js";
import {
  calibrateClaims, calibrateGate, calibrateInterval, calibrateOptionBeliefs, calibrateSet,
  type CalibratedClaims, type CalibratedGate, type CalibratedOptionBeliefs, type CalibratedOrdinal, type CalibratedSet,
  type GateGuarantee, type LabelledClaim,
} from "./conformal.js";
import { exampleEvidence } from "./evidence.js";
import { cached, probabilityPool, type ProbabilityPool } from "./pools.js";
import { calibrationRng } from "./seeds.js";
import { claimScores } from "./claimScores.js";

export function setMethodOf(profile: ProfileState, override?: string): string {
  return override ?? ((SET_METHODS as readonly string[]).includes(profile.meta.method) ? profile.meta.method : "LAC");
}

export function intervalMethodOf(profile: ProfileState, override?: string): string {
  return override ?? ((INTERVAL_METHODS as readonly string[]).includes(profile.meta.method) ? profile.meta.method : "ordinal-aps");
}

const key = (names: readonly string[]) => names.join("\u0000");

/** Conformal set over `names` (sorted), Mondrian when `pool` was built grouped. */
export function setCalibration(profile: ProfileState, pool: ProbabilityPool, method: string, alpha: number): CalibratedSet {
  return cached(profile, `set|${method}|${alpha}|${pool.groups !== undefined}|${key(pool.names)}`, () =>
    calibrateSet(
      { probabilities: { data: pool.rows, width: pool.names.length }, labels: pool.labels, ...(pool.groups ? { groups: pool.groups } : {}) },
      { method, alpha, rng: calibrationRng(profile) },
    ));
}

/** One-vs-rest Venn–Abers per option (the set answer's `venn_abers`). */
export function optionBeliefs(profile: ProfileState, pool: ProbabilityPool): CalibratedOptionBeliefs {
  return cached(profile, `option-beliefs|${key(pool.names)}`, () =>
    calibrateOptionBeliefs({ probabilities: { data: pool.rows, width: pool.names.length }, labels: pool.labels }));
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

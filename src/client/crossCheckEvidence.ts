// What the local recomputations share: the local engine's view of one profile version (its examples, a cache),
// probabilities out of evidence as the service reads them (option maps, else sample frequencies at L0), and the
// calibration pool of examples over a fixed list of names (docs/service.md, "Reproducing answers").
import type { Evidence, ExampleRecord, Profile } from "../api/index.js";
import { calibrateSet, rebuildPrefix, rngFromString, type CalibratedSet } from "../conformal/index.js";

export interface LocalEngine {
  readonly profile: Pick<Profile, "name" | "version" | "method" | "alpha" | "set_pooling">;
  /** Every example of the profile, in the order they were added. */
  readonly examples: readonly ExampleRecord[];
  /** The value for `key`, built once per checker. */
  cached<T>(key: string, build: () => T): T;
  /** Cents per call of each configured stage backend, by name (route answers; from GET /backends). */
  readonly stageCosts?: Readonly<Record<string, number>> | undefined;
}

/**
 * The seed of query `query`'s randomized prediction in the response whose `request_id` is `requestId` (the
 * service's recipe, docs/service.md): fresh per request, so one u is never shared by a whole test set.
 */
export const predictionSeedText = (engine: LocalEngine, requestId: string, query: string): string =>
  `${engine.profile.name}@${engine.profile.version}/${requestId}/${query}`;

/** A local answer, or why the local engine cannot recompute one (counted as unchecked, never as agreeing). */
export type LocalResult = { answer: Record<string, unknown> } | { unchecked: string };

export const SET_METHOD_NAMES = ["LAC", "APS", "RAPS"] as const;
/** The profile's method when it is a set method, else LAC (the service's rule for set-calibrated queries). */
export const setMethodOf = (engine: LocalEngine): string =>
  (SET_METHOD_NAMES as readonly string[]).includes(engine.profile.method) ? engine.profile.method : "LAC";

/** The base of every guarantee the service writes for this profile version. */
export const profileFields = (engine: LocalEngine) => ({ profile: engine.profile.name, profile_version: engine.profile.version });

/** A label as a name: strings as they are, numbers spelled out, booleans as `booleanNames` (true first). */
export function labelName(label: unknown, booleanNames: readonly [string, string] = ["yes", "no"]): string | undefined {
  if (typeof label === "string") return label;
  if (typeof label === "number" && Number.isFinite(label)) return String(label);
  if (typeof label === "boolean") return label ? booleanNames[0] : booleanNames[1];
  return undefined;
}

export const exampleEvidence = (example: ExampleRecord): Evidence | undefined => example.metadata?.evidence as Evidence | undefined;

const sampleText = (s: NonNullable<Evidence["samples"]>[number]): string => (typeof s === "string" ? s : s.text);

/** p(name) for each of `names` from an option (or level) map, else from sample frequencies; undefined otherwise. */
export function probabilitiesOf(evidence: Evidence | undefined, names: readonly string[], levels = false): Float64Array | undefined {
  if (!evidence) return undefined;
  const map = levels ? evidence.level_probabilities : evidence.option_probabilities;
  if (map) {
    if (Object.keys(map).length !== names.length || names.some((n) => map[n] === undefined)) return undefined;
    return Float64Array.from(names, (n) => map[n]!);
  }
  if (!evidence.samples) return undefined;
  const index = new Map(names.map((n, i) => [n.trim().toLowerCase(), i]));
  const counts = new Float64Array(names.length);
  let total = 0;
  for (const s of evidence.samples) {
    const j = index.get(sampleText(s).trim().toLowerCase());
    if (j === undefined) continue;
    counts[j]!++;
    total++;
  }
  if (total === 0) return undefined;
  return counts.map((c) => c / total);
}

/** True when the probabilities came from samples (L0): the service's method names say so. */
export const fromSamples = (evidence: Evidence | undefined): boolean => !!evidence && !evidence.option_probabilities && !!evidence.samples;

export interface Pool {
  rows: Float64Array;
  labels: Int32Array;
  /** Stored position of each row's example (fixes its u in randomized calibrations). */
  positions: Int32Array;
  n: number;
  /** Examples whose probabilities were sample frequencies. */
  estimated: number;
}

/** The examples whose evidence covers exactly `names` and whose label is one of them, in the order added. */
export function namePool(engine: LocalEngine, names: readonly string[], booleanNames?: readonly [string, string]): Pool {
  return engine.cached(`pool|${JSON.stringify(booleanNames ?? null)}|${JSON.stringify(names)}`, () => {
    const index = new Map(names.map((n, i) => [n, i]));
    const rows: number[] = [];
    const labels: number[] = [];
    const positions: number[] = [];
    let estimated = 0;
    for (const [position, example] of engine.examples.entries()) {
      const name = labelName(example.label, booleanNames);
      const y = name === undefined ? undefined : index.get(name);
      if (y === undefined) continue;
      const evidence = exampleEvidence(example);
      const p = probabilitiesOf(evidence, names);
      if (!p) continue;
      rows.push(...p);
      labels.push(y);
      positions.push(position);
      if (!evidence!.option_probabilities) estimated++;
    }
    return { rows: Float64Array.from(rows), labels: Int32Array.from(labels), positions: Int32Array.from(positions), n: labels.length, estimated };
  });
}

/** The service's method name, marked when the probabilities were sample frequencies. */
export const methodName = (method: string, estimated: boolean): string => (estimated ? `${method} (sample frequencies)` : method);

/** The u of the examples at these stored positions: `${profile}#${position}` (set, judge-stage and interval calibrations). */
export const positionUniforms = (profile: string, positions: Int32Array): Float64Array =>
  Float64Array.from(positions, (j) => rngFromString(`${profile}#${j}`)());

/** The service's set calibration of a pool (docs/service.md, "Reproducing randomized answers"). */
export function serviceSetCalibration(profile: string, pool: Pick<Pool, "rows" | "labels" | "positions">, width: number, method: string, alpha: number): CalibratedSet {
  const examples = (m: number) => ({ probabilities: { data: pool.rows.subarray(0, m * width), width }, labels: pool.labels.subarray(0, m) });
  const n = pool.labels.length;
  if (method.toUpperCase() === "RAPS") {
    const m = rebuildPrefix(n);
    return calibrateSet(examples(m), { method, alpha, rng: rngFromString(`${profile}#raps@${m}`) });
  }
  const u = positionUniforms(profile, pool.positions);
  let t = 0;
  return calibrateSet(examples(n), { method, alpha, rng: () => u[t++]! });
}

/** An example's label as a name for set and interval pools: strings as they are, finite numbers spelled out. */
export const exactLabelName = (label: unknown): string | undefined =>
  typeof label === "string" ? label : typeof label === "number" && Number.isFinite(label) ? String(label) : undefined;

/**
 * The examples whose option map (`levels`: level map) has exactly the keys `names` and whose label is one of
 * them, in the order added: the pool of set and interval calibrations (no sample frequencies here).
 */
export function exactPool(engine: LocalEngine, names: readonly string[], levels = false): Pick<Pool, "rows" | "labels" | "positions"> {
  return engine.cached(`pool|${levels}|${JSON.stringify(names)}`, () => {
    const index = new Map(names.map((n, i) => [n, i]));
    const rows: number[] = [];
    const labels: number[] = [];
    const positions: number[] = [];
    engine.examples.forEach((ex, position) => {
      const name = exactLabelName(ex.label);
      const y = name === undefined ? undefined : index.get(name);
      const p = evidenceMap(ex, levels);
      if (y === undefined || !p || Object.keys(p).length !== names.length || names.some((n) => p[n] === undefined)) return;
      for (const n of names) rows.push(p[n]!);
      labels.push(y);
      positions.push(position);
    });
    return { rows: Float64Array.from(rows), labels: Int32Array.from(labels), positions: Int32Array.from(positions) };
  });
}

/** An example's option map, or its level map (`levels`), as stored. */
export function evidenceMap(example: ExampleRecord, levels: boolean): Record<string, number> | undefined {
  const evidence = exampleEvidence(example);
  return levels ? evidence?.level_probabilities : evidence?.option_probabilities;
}

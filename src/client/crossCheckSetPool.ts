// The examples that calibrate a set query, by the profile's set_pooling, as the service picks them (docs/service.md,
// "Mixed option counts"): exact option names, every example with option probabilities (`pooled`, rows of any
// width, each over its own names sorted), or those with the query's number of options (`by_option_count`); and
// their calibration and Venn–Abers beliefs with the service's seeds.
import {
  calibrateOptionBeliefs, calibrateOptionBeliefsPooled, calibrateSet, rebuildPrefix, rngFromString, VENN_ABERS_WINDOW, type CalibratedOptionBeliefs, type CalibratedSet,
} from "../conformal/index.js";
import { exactLabelName, exactPool, exampleEvidence, positionUniforms, serviceSetCalibration, type LocalEngine } from "./crossCheckEvidence.js";

export interface LocalSetPool {
  /** Rows, each over its example's own option names (sorted). */
  rows: Float64Array[];
  labels: Int32Array;
  positions: Int32Array;
  n: number;
  /** Rows of mixed widths (pooled): Venn–Abers over every option of every row. */
  mixed: boolean;
}

const poolingOf = (engine: LocalEngine) => engine.profile.set_pooling ?? "exact";

/** The pool of a set query over `sorted`. */
export function localSetPool(engine: LocalEngine, sorted: readonly string[]): LocalSetPool {
  const pooling = poolingOf(engine);
  if (pooling === "exact") {
    const pool = exactPool(engine, sorted);
    const K = sorted.length;
    const n = pool.labels.length;
    return { rows: Array.from({ length: n }, (_, i) => pool.rows.subarray(i * K, (i + 1) * K)), labels: pool.labels, positions: pool.positions, n, mixed: false };
  }
  const width = pooling === "by_option_count" ? sorted.length : undefined;
  return engine.cached(`mixed-pool|${width ?? "any"}`, () => {
    const rows: Float64Array[] = [];
    const labels: number[] = [];
    const positions: number[] = [];
    engine.examples.forEach((ex, position) => {
      const map = exampleEvidence(ex)?.option_probabilities;
      const name = exactLabelName(ex.label);
      if (!map || name === undefined) return;
      const names = Object.keys(map).sort();
      const y = names.indexOf(name);
      if (names.length < 2 || y < 0 || (width !== undefined && names.length !== width)) return;
      rows.push(Float64Array.from(names, (x) => map[x]!));
      labels.push(y);
      positions.push(position);
    });
    return { rows, labels: Int32Array.from(labels), positions: Int32Array.from(positions), n: labels.length, mixed: width === undefined };
  });
}

/** The service's calibration of the pool (setPools.ts for mixed pools, calibrations.ts for exact ones). */
export function localSetCalibration(engine: LocalEngine, sorted: readonly string[], method: string, alpha: number): CalibratedSet {
  const pooling = poolingOf(engine);
  const key = pooling === "exact" ? JSON.stringify(sorted) : `${pooling}|${pooling === "by_option_count" ? sorted.length : "any"}`;
  return engine.cached(`set|${method}|${alpha}|${key}`, (): CalibratedSet => {
    if (pooling === "exact") return serviceSetCalibration(engine.profile.name, exactPool(engine, sorted), sorted.length, method, alpha);
    const pool = localSetPool(engine, sorted);
    const upper = method.toUpperCase();
    const m = upper === "RAPS" ? rebuildPrefix(pool.n) : pool.n;
    const examples = { probabilities: pool.rows.slice(0, m), labels: pool.labels.subarray(0, m) };
    if (upper === "RAPS") return calibrateSet(examples, { method, alpha, rng: rngFromString(`${engine.profile.name}#raps@${m}`) });
    const u = positionUniforms(engine.profile.name, pool.positions);
    let t = 0;
    return calibrateSet(examples, { method, alpha, rng: () => u[t++]! });
  });
}

/** The set answer's Venn–Abers beliefs on the last VENN_ABERS_WINDOW rows of the pool's rebuild prefix. */
export function localSetBeliefs(engine: LocalEngine, sorted: readonly string[]): CalibratedOptionBeliefs {
  const pooling = poolingOf(engine);
  const key = pooling === "exact" ? JSON.stringify(sorted) : `${pooling}|${pooling === "by_option_count" ? sorted.length : "any"}`;
  return engine.cached(`beliefs|${key}`, (): CalibratedOptionBeliefs => {
    const pool = localSetPool(engine, sorted);
    const m = rebuildPrefix(pool.n);
    const from = Math.max(0, m - VENN_ABERS_WINDOW);
    const examples = { probabilities: pool.rows.slice(from, m), labels: pool.labels.subarray(from, m) };
    return pool.mixed ? calibrateOptionBeliefsPooled(examples) : calibrateOptionBeliefs(examples);
  });
}

/** The Mondrian group a by_option_count profile names in the guarantee. */
export const optionCountGroup = (engine: LocalEngine, K: number): string | undefined => (poolingOf(engine) === "by_option_count" ? `${K} options` : undefined);

// Which examples calibrate a set query, by the profile's `set_pooling` (docs/service.md, "Mixed option counts"):
// `exact` (the default) the examples over exactly the query's option names (pools.ts); `pooled` every example
// with option probabilities whatever its number of options — LAC, APS and RAPS scores are defined for any
// number, so one calibration across option counts keeps the split-conformal guarantee; `by_option_count` the
// examples with as many options as the query (a Mondrian split by option count). A mixed pool holds each
// example's row over its own option names (sorted), and is shared by every query it fits.
import type { ProfileState } from "../profiles/profileState.js";
import { optionBeliefs, setCalibration } from "./calibrations.js";
import {
  calibrateOptionBeliefs, calibrateOptionBeliefsPooled, calibrateSet, rngFromString, type CalibratedOptionBeliefs, type CalibratedSet,
} from "./conformal.js";
import { exampleEvidence } from "./evidence.js";
import { cached, probabilityPool, type ProbabilityPool } from "./pools.js";
import { rebuildPrefix, VENN_ABERS_WINDOW } from "./rebuilds.js";
import { exampleUniforms } from "./seeds.js";

/** Examples with option probabilities of any (`width` undefined) or one number of options, in the order added. */
export interface MixedPool {
  readonly mixed: true;
  /** Only rows of this many options (by_option_count); undefined: every count. */
  readonly width: number | undefined;
  readonly rows: readonly Float64Array[];
  readonly labels: Int32Array;
  readonly positions: Int32Array;
  readonly groups: readonly string[] | undefined;
  readonly groupCounts: ReadonlyMap<string, number> | undefined;
  readonly n: number;
  /** Always 0: a row needs its option names, which sample frequencies do not give. */
  readonly estimated: number;
}

export type SetPool = ProbabilityPool | MixedPool;

export const isMixed = (pool: SetPool): pool is MixedPool => (pool as MixedPool).mixed === true;

export const setPoolingOf = (profile: ProfileState): "exact" | "pooled" | "by_option_count" => profile.meta.set_pooling ?? "exact";

interface Growing {
  scanned: number;
  rows: Float64Array[];
  labels: number[];
  positions: number[];
  groups: string[];
  groupCounts: Map<string, number>;
}

const growing = new WeakMap<ProfileState, Map<string, Growing>>();

/** An example's row over its own option names (sorted) and its label's index there; undefined when it has none. */
export function mixedRow(evidence: { option_probabilities?: Record<string, number> | undefined } | undefined, label: unknown): { row: Float64Array; y: number } | undefined {
  const map = evidence?.option_probabilities;
  if (!map) return undefined;
  const name = typeof label === "string" ? label : typeof label === "number" && Number.isFinite(label) ? String(label) : undefined;
  if (name === undefined) return undefined;
  const names = Object.keys(map).sort();
  const y = names.indexOf(name);
  if (names.length < 2 || y < 0) return undefined;
  return { row: Float64Array.from(names, (n) => map[n]!), y };
}

function advance(state: ProfileState, pool: Growing, width: number | undefined, grouped: boolean): void {
  for (const n = state.n; pool.scanned < n; pool.scanned++) {
    const example = state.exampleAt(pool.scanned);
    const got = mixedRow(exampleEvidence(example), example.label);
    if (!got || (width !== undefined && got.row.length !== width)) continue;
    if (grouped) {
      const g = state.groupOf(example);
      if (g === undefined) continue;
      pool.groups.push(g);
      pool.groupCounts.set(g, (pool.groupCounts.get(g) ?? 0) + 1);
    }
    pool.rows.push(got.row);
    pool.labels.push(got.y);
    pool.positions.push(pool.scanned);
  }
}

function mixedPool(state: ProfileState, width: number | undefined, grouped: boolean): MixedPool {
  const key = `mixed-pool|${width ?? "any"}|${grouped}`;
  return cached(state, key, () => {
    let pools = growing.get(state);
    if (!pools) growing.set(state, (pools = new Map()));
    const pool = pools.get(key) ?? { scanned: 0, rows: [], labels: [], positions: [], groups: [], groupCounts: new Map() };
    advance(state, pool, width, grouped);
    pools.set(key, pool);
    const n = pool.labels.length;
    return {
      mixed: true as const, width, rows: pool.rows.slice(0, n), labels: Int32Array.from(pool.labels), positions: Int32Array.from(pool.positions),
      groups: grouped ? pool.groups.slice(0, n) : undefined, groupCounts: grouped ? new Map(pool.groupCounts) : undefined, n, estimated: 0,
    };
  });
}

/** The pool of a set query over `sorted` (its option names, sorted), by the profile's set_pooling. */
export function setPool(profile: ProfileState, sorted: readonly string[], grouped: boolean): SetPool {
  const pooling = setPoolingOf(profile);
  if (pooling === "exact") return probabilityPool(profile, sorted, { grouped });
  return mixedPool(profile, pooling === "by_option_count" ? sorted.length : undefined, grouped);
}

/**
 * The set calibration of a pool. A mixed pool is calibrated whole at each version (no extension): LAC and APS
 * with each example's u fixed by its stored position; RAPS on the first rebuildPrefix(n) rows with
 * rngFromString(`${profile}#raps@${m}`), the seeds of exact pools (seeds.ts), so a client reproduces it.
 */
export function setPoolCalibration(profile: ProfileState, pool: SetPool, method: string, alpha: number, exact = false): CalibratedSet {
  if (!isMixed(pool)) return setCalibration(profile, pool, method, alpha, "", exact);
  return cached(profile, `mixed-set|${method}|${alpha}|${pool.width ?? "any"}|${pool.groups !== undefined}`, () => {
    const upper = method.toUpperCase();
    const m = upper === "RAPS" ? rebuildPrefix(pool.n) : pool.n;
    const examples = { probabilities: pool.rows.slice(0, m), labels: pool.labels.subarray(0, m), ...(pool.groups ? { groups: pool.groups.slice(0, m) } : {}) };
    if (upper === "RAPS") return calibrateSet(examples, { method, alpha, rng: rngFromString(`${profile.name}#raps@${m}`) });
    const u = exampleUniforms(profile, pool.positions);
    let t = 0;
    return calibrateSet(examples, { method, alpha, rng: () => u[t++]! });
  });
}

/** The set answer's Venn–Abers: per option over a fixed-width pool; over every option of every row for one of mixed widths. */
export function setPoolBeliefs(profile: ProfileState, pool: SetPool): CalibratedOptionBeliefs {
  if (!isMixed(pool)) return optionBeliefs(profile, pool);
  return cached(profile, `mixed-beliefs|${pool.width ?? "any"}|${pool.groups !== undefined}`, () => {
    const m = rebuildPrefix(pool.n);
    const from = Math.max(0, m - VENN_ABERS_WINDOW);
    const examples = { probabilities: pool.rows.slice(from, m), labels: pool.labels.subarray(from, m) };
    return pool.width === undefined ? calibrateOptionBeliefsPooled(examples) : calibrateOptionBeliefs(examples);
  });
}

// Calibration data per query type, extracted once per profile version from the stored examples and cached
// with what was calibrated on it, keyed by (version, type, option names, method, alpha, group mode), so an
// evaluate costs O(K log n) per query after the first.
import type { ProfileState } from "../profiles/profileState.js";
import { minimumN } from "./conformal.js";
import { exampleEvidence, labelName, probabilitiesOf } from "./evidence.js";
import { fillAhead, reserve } from "./columnGrowth.js";

const MAX_ENTRIES_PER_PROFILE = 64;

const minimumNs = new Map<number, number>();
/** minimumN(alpha), memoised: the engine computes it in exact decimal arithmetic, too slow for every query. */
export function minimumNOf(alpha: number): number {
  let n = minimumNs.get(alpha);
  if (n === undefined) {
    n = minimumN(alpha);
    if (minimumNs.size < 1024) minimumNs.set(alpha, n);
  }
  return n;
}

/** Values derived from a profile's examples, kept while its version (and calibration epoch) stays (at most `maxEntries`, oldest out first). */
export class VersionedMemo {
  private readonly caches = new WeakMap<ProfileState, { version: number; epoch: number; entries: Map<string, unknown> }>();
  constructor(private readonly maxEntries: number) {}

  /** The value for `key` at the profile's current version, built on a miss (`build(arg)`: no closure per call). */
  get<T, A = undefined>(state: ProfileState, key: string, build: (arg: A) => T, arg?: A): T {
    let cache = this.caches.get(state);
    if (!cache) this.caches.set(state, (cache = { version: state.version, epoch: state.calibrationEpoch, entries: new Map() }));
    if (cache.version !== state.version || cache.epoch !== state.calibrationEpoch) {
      cache.entries.clear();
      cache.version = state.version;
      cache.epoch = state.calibrationEpoch;
    }
    const hit = cache.entries.get(key);
    if (hit !== undefined || cache.entries.has(key)) return hit as T;
    const value = build(arg as A);
    if (cache.entries.size >= this.maxEntries) cache.entries.delete(cache.entries.keys().next().value!);
    cache.entries.set(key, value);
    return value;
  }
}

const calibrations = new VersionedMemo(MAX_ENTRIES_PER_PROFILE);

/** The cached value for `key` at the profile's current version, built on a miss. */
export function cached<T>(state: ProfileState, key: string, build: () => T): T {
  return calibrations.get(state, key, build);
}

/** Rows of probabilities over a fixed list of names, the index of each example's label, its group. */
export interface ProbabilityPool {
  names: readonly string[];
  rows: Float64Array;
  labels: Int32Array;
  /** Group of rows 0 … n − 1 (the array itself may be longer: later batches append to it). */
  groups: readonly string[] | undefined;
  /** Rows per group. */
  groupCounts: ReadonlyMap<string, number> | undefined;
  /** Stored position (index in the profile's examples) of each row: fixes its u for randomized methods. */
  positions: Int32Array;
  n: number;
  /** Examples whose probabilities were estimated from samples (L0). */
  estimated: number;
  /** The same pool at the profile's current version (later batches' rows included). */
  current?: () => ProbabilityPool;
}

/** A pool being extended as the profile grows: examples are only ever appended, so each is scanned once. */
export interface GrowingPool {
  names: readonly string[];
  levels: boolean;
  grouped: boolean;
  booleanNames: [string, string] | undefined;
  /** Examples scanned so far (positions 0 … scanned − 1). */
  scanned: number;
  rows: Float64Array;
  labels: Int32Array;
  positions: Int32Array;
  groups: string[];
  groupCounts: Map<string, number>;
  n: number;
  estimated: number;
}

const growing = new WeakMap<ProfileState, Map<string, GrowingPool>>();


type PoolOptions = { levels?: boolean; grouped: boolean; booleanNames?: [string, string] };

const poolKey = (names: readonly string[], options: PoolOptions) =>
  `pool|${options.levels ? "levels" : "options"}|${options.grouped}|${names.join("\u0000")}|${options.booleanNames?.join("\u0000") ?? ""}`;

/** Scans the examples added since the pool last looked. */
function advance(state: ProfileState, pool: GrowingPool): void {
  const { names, booleanNames, levels, grouped } = pool;
  const K = names.length;
  const index = new Map(names.map((n, i) => [n, i]));
  const adding = state.n - pool.scanned; // at most
  if (adding <= 0) return;
  pool.rows = reserve(pool.rows, pool.n * K, (pool.n + adding) * K);
  pool.labels = reserve(pool.labels, pool.n, pool.n + adding);
  pool.positions = reserve(pool.positions, pool.n, pool.n + adding);
  for (const n = state.n; pool.scanned < n; pool.scanned++) {
    const example = state.exampleAt(pool.scanned);
    const label = labelName(example.label, booleanNames);
    const y = label === undefined ? undefined : index.get(label);
    if (y === undefined) continue;
    const evidence = exampleEvidence(example);
    const p = probabilitiesOf(evidence, names, levels);
    if (!p) continue;
    if (grouped) {
      const g = state.groupOf(example);
      if (g === undefined) continue;
      pool.groups.push(g);
      pool.groupCounts.set(g, (pool.groupCounts.get(g) ?? 0) + 1);
    }
    pool.rows.set(p, pool.n * K);
    pool.labels[pool.n] = y;
    pool.positions[pool.n] = pool.scanned;
    pool.n++;
    if (!(levels ? evidence!.level_probabilities : evidence!.option_probabilities)) pool.estimated++;
  }
}

/**
 * Every example whose evidence covers exactly `names` (option_probabilities, or level_probabilities when
 * `levels`) and whose label is one of them. `names` should be canonical (sorted) for options. A new version
 * scans only the examples added since the last one (O(batch)); the arrays returned are views that later
 * batches never change.
 */
export function probabilityPool(state: ProfileState, names: readonly string[], options: PoolOptions): ProbabilityPool {
  const key = poolKey(names, options);
  return cached(state, key, () => {
    let pools = growing.get(state);
    if (!pools) growing.set(state, (pools = new Map()));
    let pool = pools.get(key);
    if (!pool) {
      pool = {
        names: [...names], levels: options.levels ?? false, grouped: options.grouped, booleanNames: options.booleanNames,
        scanned: 0, rows: new Float64Array(0), labels: new Int32Array(0), positions: new Int32Array(0), groups: [], groupCounts: new Map(), n: 0, estimated: 0,
      };
      advance(state, pool); // may throw (examples not read yet): the pool is kept only once it is whole
      pools.set(key, pool);
    } else advance(state, pool);
    const K = names.length;
    return {
      names,
      rows: pool.rows.subarray(0, pool.n * K),
      labels: pool.labels.subarray(0, pool.n),
      positions: pool.positions.subarray(0, pool.n),
      // Not copied: a grouped pool of a million rows would copy a million references per version.
      groups: options.grouped ? pool.groups : undefined,
      groupCounts: options.grouped ? new Map(pool.groupCounts) : undefined,
      n: pool.n,
      estimated: pool.estimated,
      current: () => probabilityPool(state, names, options),
    };
  });
}

/** The profile's pools, each brought up to its last example (what a checkpoint keeps). */
export function currentPools(state: ProfileState): GrowingPool[] {
  const pools = [...(growing.get(state)?.values() ?? [])];
  for (const pool of pools) advance(state, pool);
  return pools;
}

/** Pools read from a checkpoint: later versions scan on from where they stopped. */
export function restorePools(state: ProfileState, pools: readonly GrowingPool[]): void {
  const map = new Map<string, GrowingPool>();
  for (const pool of pools) {
    // Read as views of exactly their length: their successors are filled now, before the next batch needs room.
    fillAhead(pool.rows, pool.rows.length);
    fillAhead(pool.labels, pool.labels.length);
    fillAhead(pool.positions, pool.positions.length);
  }
  for (const pool of pools) map.set(poolKey(pool.names, { levels: pool.levels, grouped: pool.grouped, ...(pool.booleanNames ? { booleanNames: pool.booleanNames } : {}) }), pool);
  growing.set(state, map);
}

/** Whether the profile has the pool a query with these names and options would use (made or read from a checkpoint). */
export function hasPool(state: ProfileState, names: readonly string[], options: PoolOptions): boolean {
  return growing.get(state)?.has(poolKey(names, options)) ?? false;
}

/** How many pools the profile has: a checkpoint is written again when queries of a new kind made one. */
export function poolCount(state: ProfileState): number {
  return growing.get(state)?.size ?? 0;
}

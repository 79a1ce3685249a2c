// Calibrations that cannot be extended batch by batch — Venn–Abers (its isotonic fit changes everywhere) and
// RAPS (its tuning split) — are rebuilt on a prefix of their pool that moves in steps: the whole pool up to
// WHOLE_POOL_UP_TO rows, then the rows up to the last step boundary but one (steps of n/16 to n/8 rows, and
// never under MIN_STEP, so that a batch of up to MIN_STEP rows never skips a step): a profile fed batches of
// 1,000 rebuilds them every batch up to 16,384 rows (at most 16 ms of fitting, in slices), then every 2 to 16.
// The prefix is a function of the pool's size alone, so every instance serves the same calibration for the
// same profile version, and the next prefix is complete a whole step before it is served: it is built in the
// background, a slice at a time between requests, and no request waits for it (docs/service.md).
import type { ProfileState } from "../profiles/profileState.js";
import { registerSnapshots } from "./snapshots.js";

/** Up to this many rows a rebuilt calibration uses the whole pool (Venn–Abers of 2,048 rows: about 1 ms an option). */
export const WHOLE_POOL_UP_TO = 2_048;
/** The smallest step: the prefix moves at most once per MIN_STEP rows, and its build has that long to finish. */
export const MIN_STEP = 1_024;
/**
 * Venn–Abers beliefs use at most this many rows, the last of the prefix: their p0–p1 spread is already
 * O(1/n) ≈ 10⁻⁵ there, and a fit of a million rows costs 1.5–1.9 s where 131,072 cost about 0.2 s.
 */
export const VENN_ABERS_WINDOW = 131_072;
/** Longest slice of a background build between two turns of the event loop. */
const SLICE_MS = 6;

const stepOf = (n: number): number => Math.max(MIN_STEP, 2 ** (Math.floor(Math.log2(n)) - 3));

/** Rows of a pool of n rows that a rebuilt calibration uses. Non-decreasing in n. */
export function rebuildPrefix(n: number): number {
  if (n <= WHOLE_POOL_UP_TO) return n;
  const step = stepOf(n);
  return Math.max(WHOLE_POOL_UP_TO, Math.floor(n / step) * step - step);
}

/** The prefix served once the pool has grown by one more step: complete already, so it can be built now. */
export function nextPrefix(n: number): number {
  if (n <= WHOLE_POOL_UP_TO) return n;
  const step = stepOf(n);
  return Math.floor(n / step) * step;
}

interface Build<T> {
  prefix: number;
  steps: Generator<void, T>;
  value?: T;
  failed?: boolean;
}

const builds = new WeakMap<ProfileState, Map<string, Build<unknown>[]>>();

/**
 * The calibration on the pool's rebuild prefix (`start(m)` makes the stepwise build on the first m rows).
 * Built here when no background build has finished it (the first request, or after a start); the next
 * prefix's build is started in the background.
 */
export function rebuilt<T>(profile: ProfileState, key: string, n: number, start: (m: number) => Generator<void, T>, current?: () => Source<T>): T {
  if (current) {
    let bySource = sources.get(profile);
    if (!bySource) sources.set(profile, (bySource = new Map()));
    bySource.set(key, current);
  }
  let byKey = builds.get(profile);
  if (!byKey) builds.set(profile, (byKey = new Map()));
  let list = byKey.get(key) as Build<T>[] | undefined;
  if (!list) byKey.set(key, (list = []));
  const m = rebuildPrefix(n);
  let build = list.find((b) => b.prefix === m && !b.failed);
  if (!build) list.push((build = { prefix: m, steps: start(m) }));
  if (build.value === undefined) {
    try {
      build.value = finish(build.steps);
    } catch (err) {
      build.failed = true;
      throw err;
    }
  }
  const next = nextPrefix(n);
  if (next > m && !list.some((b) => b.prefix === next)) {
    const ahead: Build<T> = { prefix: next, steps: start(next) };
    list.push(ahead);
    inBackground(ahead);
  }
  byKey.set(key, list.filter((b) => b.prefix >= m));
  return build.value;
}

/** The pool as it is now: its size and the stepwise build on its first m rows. */
export interface Source<T> {
  n: number;
  start: (m: number) => Generator<void, T>;
}

/** Per profile, how each rebuilt calibration finds its pool again (for builds started by a batch). */
const sources = new WeakMap<ProfileState, Map<string, () => Source<unknown>>>();

/**
 * After a batch: starts in the background the builds the profile's new size needs — the prefix it serves and
 * the next — for every rebuilt calibration it has served, so that a request of a kind that was not asked at
 * the versions in between still finds its calibration built (or being built) rather than building it itself.
 */
export function startRebuilds(profile: ProfileState): void {
  const bySource = sources.get(profile);
  if (!bySource) return;
  setImmediate(() => {
    let byKey = builds.get(profile);
    if (!byKey) builds.set(profile, (byKey = new Map()));
    for (const [key, current] of bySource) {
      let source: Source<unknown>;
      try {
        source = current();
      } catch {
        continue; // e.g. examples before a checkpoint not read yet: the request that needs them builds it
      }
      // Prefixes never shrink: builds below the one served now are never needed again.
      const list = (byKey.get(key) ?? []).filter((b) => b.prefix >= rebuildPrefix(source.n));
      byKey.set(key, list);
      for (const m of new Set([rebuildPrefix(source.n), nextPrefix(source.n)])) {
        if (list.some((b) => b.prefix === m && !b.failed)) continue;
        const build: Build<unknown> = { prefix: m, steps: source.start(m) };
        list.push(build);
        inBackground(build);
      }
    }
  });
}

function finish<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

function inBackground<T>(build: Build<T>): void {
  const slice = () => {
    if (build.value !== undefined || build.failed) return; // a request finished it meanwhile
    const until = performance.now() + SLICE_MS;
    try {
      for (;;) {
        const r = build.steps.next();
        if (r.done) {
          build.value = r.value;
          return;
        }
        if (performance.now() >= until) break;
      }
    } catch {
      build.failed = true; // a request builds it again, and meets the error itself
      return;
    }
    setImmediate(slice);
  };
  setImmediate(slice);
}

registerSnapshots("rebuilt", {
  count: (state) => builds.get(state)?.size ?? 0,
  take: (state) => [...(builds.get(state) ?? [])].flatMap(([key, list]) => list.filter((b) => b.value !== undefined).map((b): [string, number, unknown] => [key, b.prefix, b.value])),
  restore: (state, entries) => {
    const byKey = new Map<string, Build<unknown>[]>();
    for (const [key, prefix, value] of entries) {
      let list = byKey.get(key);
      if (!list) byKey.set(key, (list = []));
      list.push({ prefix, value, steps: (function* () { return value; })() });
    }
    builds.set(state, byKey);
  },
});

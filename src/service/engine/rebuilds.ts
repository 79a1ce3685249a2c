// Calibrations that cannot be extended batch by batch — Venn–Abers (its isotonic fit changes everywhere) and
// RAPS (its tuning split) — are rebuilt on a prefix of their pool that moves in steps: the whole pool up to
// WHOLE_POOL_UP_TO rows, then the rows up to the last step boundary but one (steps of n/16 to n/8 rows, and
// never under MIN_STEP, so that a batch of up to MIN_STEP rows never skips a step): a profile fed batches of
// 1,000 rebuilds them every batch up to 16,384 rows (at most 16 ms of fitting, in slices), then every 2 to 16.
// The prefix is a function of the pool's size alone, so every instance serves the same calibration for the
// same profile version, and the next prefix is complete a whole step before it is served: it is built in the
// background, a slice at a time between requests. No request waits for it: one that comes before it is done is
// answered by the latest one built (docs/service.md, "No request waits behind a rebuild").
import type { ProfileState } from "../profiles/profileState.js";
import { runInBackground } from "./background.js";
import { nextPrefix, rebuildPrefix, WHOLE_POOL_UP_TO } from "./conformal.js";
import { registerSnapshots } from "./snapshots.js";

// The prefix formula is the conformal engine's, which a client reproducing an answer uses too.
export { MIN_STEP, nextPrefix, rebuildPrefix, sizeStep, VENN_ABERS_WINDOW, WHOLE_POOL_UP_TO } from "./conformal.js";

interface Build<T> {
  prefix: number;
  steps: Generator<void, T>;
  value?: T;
  failed?: boolean;
  /** Scheduled in the background (a slice at a time). */
  running?: boolean;
  /** Requests waiting for it (there was no earlier build to answer them). */
  waiters?: (() => void)[];
  /** An earlier build answered at a version that needs this one: its end renews the version's caches. */
  renews?: boolean;
}

const builds = new WeakMap<ProfileState, Map<string, Build<unknown>[]>>();

/**
 * Thrown by `rebuilt` when no build of a calibration exists yet and the first one is long: the request waits for
 * `ready` (evaluate.ts, `whenBuilt`) while the build runs in the background, so that other requests go on.
 */
export class CalibrationPending extends Error {
  constructor(readonly ready: Promise<void>) {
    super("a calibration is being built");
    this.name = "CalibrationPending";
  }
}

/** f's value once no calibration it needs is still being built: waits for a pending first build, never builds it. */
export async function whenBuilt<T>(f: () => T | Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await f();
    } catch (err) {
      if (!(err instanceof CalibrationPending)) throw err;
      await err.ready;
    }
  }
}

/** A rebuilt calibration and the prefix it was built on (an earlier one while the version's own is being built). */
export interface Rebuilt<T> {
  value: T;
  prefix: number;
}

function listOf<T>(profile: ProfileState, key: string): Build<T>[] {
  let byKey = builds.get(profile);
  if (!byKey) builds.set(profile, (byKey = new Map()));
  let list = byKey.get(key);
  if (!list) byKey.set(key, (list = []));
  return list as Build<T>[];
}

/** The latest finished build below prefix m. */
function latestBefore<T>(list: Build<T>[], m: number): Build<T> | undefined {
  let best: Build<T> | undefined;
  for (const b of list) if (b.value !== undefined && b.prefix < m && (!best || b.prefix > best.prefix)) best = b;
  return best;
}

/** Builds never needed again: those below prefix m, except the one that answers while m's is being built. */
function prune(profile: ProfileState, key: string, list: Build<unknown>[], m: number): void {
  if (!list.some((b) => b.prefix < m)) return;
  const current = list.find((b) => b.prefix === m && b.value !== undefined);
  const older = current ? undefined : latestBefore(list, m);
  builds.get(profile)!.set(key, list.filter((b) => b.prefix >= m || b === older));
}

/**
 * The calibration on the pool's rebuild prefix (`start(m)` makes the stepwise build on the first m rows), or,
 * while that one is still being built in the background, the latest one built before it: no request waits
 * behind a recalibration (docs/service.md, "Large profiles"). A request builds it itself only when it is small
 * (prefix ≤ WHOLE_POOL_UP_TO rows: a few ms), when `exact` (audits and monitors, whose outcome must not depend
 * on timing), or after a background build failed (to meet the error); with no earlier build at all it throws
 * CalibrationPending, and the request waits for the background build. The next prefix's build is started too.
 */
export function rebuilt<T>(profile: ProfileState, key: string, n: number, start: (m: number) => Generator<void, T>, current?: () => Source<T>, exact = false): Rebuilt<T> {
  if (current) {
    let bySource = sources.get(profile);
    if (!bySource) sources.set(profile, (bySource = new Map()));
    bySource.set(key, current);
  }
  const list = listOf<T>(profile, key);
  const m = rebuildPrefix(n);
  let build = list.find((b) => b.prefix === m && !b.failed);
  const failedBefore = !build && list.some((b) => b.prefix === m);
  if (!build) list.push((build = { prefix: m, steps: start(m) }));
  let served: Build<T> = build;
  if (build.value === undefined) {
    const older = exact || failedBefore || m <= WHOLE_POOL_UP_TO ? undefined : latestBefore(list, m);
    if (older) {
      served = older;
      build.renews = true;
      inBackground(profile, build);
    } else if (exact || failedBefore || m <= WHOLE_POOL_UP_TO) {
      finishNow(profile, build);
    } else {
      inBackground(profile, build);
      throw new CalibrationPending(new Promise((resolve) => {
        if (!build.waiters) {
          build.waiters = [];
          awaitedBuilds++;
        }
        build.waiters.push(resolve);
      }));
    }
  }
  const next = nextPrefix(n);
  if (next > m && !list.some((b) => b.prefix === next)) {
    const ahead: Build<T> = { prefix: next, steps: start(next) };
    list.push(ahead);
    inBackground(profile, ahead);
  }
  prune(profile, key, list as Build<unknown>[], m);
  return { value: served.value!, prefix: served.prefix };
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
    for (const [key, current] of bySource) {
      let source: Source<unknown>;
      try {
        source = current();
      } catch {
        continue; // e.g. examples before a checkpoint not read yet: the request that needs them builds it
      }
      const list = listOf<unknown>(profile, key);
      for (const m of new Set([rebuildPrefix(source.n), nextPrefix(source.n)])) {
        if (list.some((b) => b.prefix === m && !b.failed)) continue;
        const build: Build<unknown> = { prefix: m, steps: source.start(m) };
        list.push(build);
        inBackground(profile, build);
      }
      // Prefixes never shrink: builds below the one served now are never needed again (but the one serving meanwhile).
      prune(profile, key, list, rebuildPrefix(source.n));
    }
  });
}

/** Builds that requests wait for (no earlier one could answer them), in every profile of the process. */
let awaitedBuilds = 0;
let quiet: { promise: Promise<void>; resolve: () => void } | undefined;

/**
 * Resolves once no request waits for a build, or undefined when none does: work nobody asked for yet (reading
 * the other profiles at a start) waits for it, rather than slowing the build that requests wait behind.
 */
export function untilNoBuildAwaited(): Promise<void> | undefined {
  if (awaitedBuilds === 0) return undefined;
  if (!quiet) {
    let resolve!: () => void;
    quiet = { promise: new Promise<void>((r) => (resolve = r)), resolve };
  }
  return quiet.promise;
}

/** Its end: waiting requests go on; caches that held an earlier build for this version are renewed. */
function settle(profile: ProfileState, build: Build<unknown>): void {
  if (build.renews && build.value !== undefined) {
    build.renews = false;
    profile.calibrationEpoch++;
  }
  const waiters = build.waiters;
  build.waiters = undefined;
  for (const go of waiters ?? []) go();
  if (waiters && --awaitedBuilds === 0) {
    quiet?.resolve();
    quiet = undefined;
  }
}

/** Runs the rest of a build on the caller's turn (a request that may build it). Throws its error. */
function finishNow(profile: ProfileState, build: Build<unknown>): void {
  try {
    for (;;) {
      const r = build.steps.next();
      if (r.done) {
        build.value = r.value;
        break;
      }
    }
  } catch (err) {
    build.failed = true;
    throw err;
  } finally {
    settle(profile, build);
  }
}

function inBackground(profile: ProfileState, build: Build<unknown>): void {
  if (build.running) return;
  build.running = true;
  // Ended, or finished meanwhile by a request that needed it.
  runInBackground(() => build.value !== undefined || build.failed === true || step(profile, build));
}

/** One step of a background build; true when it has ended. */
function step(profile: ProfileState, build: Build<unknown>): boolean {
  try {
    const r = build.steps.next();
    if (!r.done) return false;
    build.value = r.value;
  } catch {
    build.failed = true; // a request builds it again, and meets the error itself
  }
  settle(profile, build);
  return true;
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

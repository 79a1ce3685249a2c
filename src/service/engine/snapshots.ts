// Calibrations a checkpoint keeps beside the pools: those that later versions extend (set calibrations) and
// those rebuilt on a prefix (Venn–Abers, RAPS). A start that restores them answers its first query as fast as
// any other, where rebuilding them from a million-row pool took about a second (docs/storage.md). Each cache
// that holds such values registers how to list and restore them; values are plain data: numbers, strings,
// typed arrays, arrays, Maps and plain objects.
import type { ProfileState } from "../profiles/profileState.js";

/** One kept value: its cache key, what it covers (pool rows or prefix), and the calibrated object. */
export type SnapshotEntry = [key: string, covers: number, value: unknown];

interface SnapshotCache {
  /** How many values the cache holds for the profile (cheap: asked after every evaluate). */
  count(state: ProfileState): number;
  take(state: ProfileState): SnapshotEntry[];
  restore(state: ProfileState, entries: readonly SnapshotEntry[]): void;
}

const caches = new Map<string, SnapshotCache>();

export function registerSnapshots(name: string, cache: SnapshotCache): void {
  caches.set(name, cache);
}

/** How many values the registered caches hold for the profile: a checkpoint is due when it grew. */
export function countSnapshots(state: ProfileState): number {
  let total = 0;
  for (const cache of caches.values()) total += cache.count(state);
  return total;
}

/** Every registered cache's values for the profile, by cache name. */
export function takeSnapshots(state: ProfileState): Record<string, SnapshotEntry[]> {
  const out: Record<string, SnapshotEntry[]> = {};
  for (const [name, cache] of caches) {
    const entries = cache.take(state);
    if (entries.length > 0) out[name] = entries;
  }
  return out;
}

/** Gives each registered cache its values back; a name no cache registers (another version's) is skipped. */
export function restoreSnapshots(state: ProfileState, taken: Readonly<Record<string, readonly SnapshotEntry[]>>): void {
  for (const [name, entries] of Object.entries(taken)) caches.get(name)?.restore(state, entries);
}

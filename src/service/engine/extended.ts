// Calibrations extended version by version: the last one built per (profile, key), with the pool rows it
// covers, so that the next version adds only the rows appended since (pools only ever grow by appending).
// The extension functions of the conformal engine give exactly what a full calibration on all the rows gives,
// so which versions a process happened to see never changes an answer.
import type { ProfileState } from "../profiles/profileState.js";
import { registerSnapshots } from "./snapshots.js";

const lastBuilt = new WeakMap<ProfileState, Map<string, { rows: number; value: unknown }>>();
const MAX_KEYS = 64;

/**
 * The value over a pool's first `rows` rows: the last one extended (`extend(last, from)` adds rows from … rows − 1),
 * or `full()` when there is none to extend. Callers cache it per version (pools.ts `cached`).
 */
export function extended<T>(profile: ProfileState, key: string, rows: number, full: () => T, extend: (last: T, from: number) => T): T {
  let byKey = lastBuilt.get(profile);
  if (!byKey) lastBuilt.set(profile, (byKey = new Map()));
  const last = byKey.get(key) as { rows: number; value: T } | undefined;
  const value = last && last.rows === rows ? last.value : last && last.rows < rows ? extend(last.value, last.rows) : full();
  byKey.delete(key);
  byKey.set(key, { rows, value });
  if (byKey.size > MAX_KEYS) byKey.delete(byKey.keys().next().value!);
  return value;
}

// Checkpoints keep these (snapshots.ts): a start extends the checkpoint's calibrations instead of rebuilding them.
// The name is the one checkpoints used when only set calibrations were extended (their keys are unchanged).
registerSnapshots("extended-sets", {
  count: (state) => lastBuilt.get(state)?.size ?? 0,
  take: (state) => [...(lastBuilt.get(state) ?? [])].map(([key, { rows, value }]) => [key, rows, value]),
  restore: (state, entries) => lastBuilt.set(state, new Map(entries.map(([key, rows, value]) => [key, { rows, value }]))),
});

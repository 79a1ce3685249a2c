// The typed-array columns of pools, grown as rows are appended: by doubling, the copy made ahead of need in the
// background for long ones (reserve), so that no batch pays for copying a million rows at once.

/** `array`, or a copy at least twice as long when `needed` entries do not fit (amortised O(1) appends). */
export function grow<T extends Float64Array | Int32Array>(array: T, needed: number): T {
  if (needed <= array.length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(needed, array.length * 2, 64));
  next.set(array);
  return next;
}

/** Elements copied per turn of the event loop while an array's successor is filled ahead of need. */
const COPY_SLICE = 1 << 19;
/** Arrays shorter than this are copied when full: a copy of a few megabytes is no stall. */
const AHEAD_FROM = 1 << 18;

type Column = Float64Array | Int32Array;
interface Successor { next: Column; copied: number; target: number; running: boolean }
const successors = new WeakMap<Column, Successor>();

/**
 * `array` with room for `needed` entries, its first `used` kept. A long array three quarters full gets its
 * successor (twice as long) now, filled in the background a slice per turn with the entries used so far; when
 * the room runs out only what the filling has not reached yet (about the last batch) is copied. Doubling by one
 * copy of a million-row pool stalled every request for tens of milliseconds (hundreds on a loaded machine).
 * Entries below `used` must never change afterwards (pools only append).
 */
export function reserve<T extends Column>(array: T, used: number, needed: number): T {
  const ahead = successors.get(array);
  if (needed <= array.length) {
    if (ahead) follow(array, ahead, used);
    else if (array.length >= AHEAD_FROM && used * 4 >= array.length * 3) fillAhead(array, used);
    return array;
  }
  successors.delete(array);
  if (ahead && ahead.next.length >= needed) {
    ahead.next.set(array.subarray(ahead.copied, used), ahead.copied);
    return ahead.next as T;
  }
  const next = new (array.constructor as new (n: number) => T)(Math.max(needed, array.length * 2, 64));
  next.set(array.subarray(0, used));
  return next;
}

/** Starts filling a successor of `array` with its first `used` entries (a pool read from a checkpoint: all). */
export function fillAhead(array: Column, used: number): void {
  if (successors.has(array)) return;
  const ahead: Successor = { next: new (array.constructor as new (n: number) => Column)(Math.max(64, array.length * 2)), copied: 0, target: 0, running: false };
  successors.set(array, ahead);
  follow(array, ahead, used);
}

function follow(array: Column, ahead: Successor, used: number): void {
  ahead.target = Math.max(ahead.target, used);
  if (ahead.running || ahead.copied >= ahead.target) return;
  ahead.running = true;
  const step = () => {
    if (successors.get(array) !== ahead) return; // the array was replaced meanwhile: its successor took over
    const end = Math.min(ahead.target, ahead.copied + COPY_SLICE);
    ahead.next.set(array.subarray(ahead.copied, end), ahead.copied);
    ahead.copied = end;
    if (end < ahead.target) setImmediate(step);
    else ahead.running = false;
  };
  setImmediate(step);
}

// Work done between requests (calibrations rebuilt in the background, rebuilds.ts), a step at a time. All of it
// shares one slice of SLICE_MS per turn of the event loop, in turn, a step each: when each build scheduled a
// slice of its own, two or three (a calibration's served and next prefix, other kinds) held one turn for two or
// three slices.

/** Longest run of background steps between two turns of the event loop. */
const SLICE_MS = 6;

/** One step of a task; true once it has ended (it is then dropped). */
export type BackgroundStep = () => boolean;

const running: BackgroundStep[] = [];
let scheduled = false;

export function runInBackground(step: BackgroundStep): void {
  running.push(step);
  if (!scheduled) {
    scheduled = true;
    setImmediate(slice);
  }
}

function slice(): void {
  const until = performance.now() + SLICE_MS;
  while (running.length > 0 && performance.now() < until) {
    const next = running.shift()!;
    if (!next()) running.push(next);
  }
  scheduled = running.length > 0;
  if (scheduled) setImmediate(slice);
}

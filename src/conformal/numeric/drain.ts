// Stepwise computations (generators that yield between chunks of work, so the service can spread a large fit or
// calibration over turns of its event loop) run to their end in one call, for callers that want the result now.

/** Runs a stepwise computation to its end. */
export function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

// Time as the retry policy sees it. Injected so that tests check backoff delays exactly, without waiting.

export interface Clock {
  /** Milliseconds since the epoch (Date.now() by default); also the reference for `retry-after` dates. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds. When `signal` aborts first it rejects with the signal's reason, so that a
   * cancelled call does not sit out its backoff.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};

// Binds a RetryPolicy to one call as the `retry` option of undici's retry interceptor: undici replays the request
// (the body is a string, so it can be replayed) and this function only decides and waits. No loop of our own.
import type { RetryHandler } from "undici";
import { decideRetry, type ResolvedRetryPolicy } from "./retryPolicy.js";

/** What happened to one call's attempts; read after the call to report it in errors. */
export interface RetryTrace {
  /** Attempts made so far, the first included. */
  attempts: number;
  /** The waits before each retry, in milliseconds. */
  delaysMs: number[];
  /** Why the last retryable answer was not retried, when it was not. */
  gaveUp?: string;
}

type RetryCallback = Parameters<RetryHandler.RetryCallback>[2];
interface RetryableError extends Error {
  statusCode?: number;
  headers?: Record<string, string | string[] | undefined>;
}

/**
 * The per-call retry function. Only HTTP statuses are retried; a network error is passed on at once (spec
 * section 7 names three statuses and nothing else, and a lost POST may have been executed).
 */
export function retryFunctionFor(
  policy: ResolvedRetryPolicy,
  trace: RetryTrace,
  signal: AbortSignal | undefined,
): RetryHandler.RetryCallback {
  const startedAt = policy.clock.now();
  trace.attempts = 1;
  return (err: Error, _context, callback: RetryCallback) => {
    const { statusCode, headers } = err as RetryableError;
    if (typeof statusCode !== "number") return callback(err);
    const decision = decideRetry(policy, {
      status: statusCode, attempt: trace.attempts, retryAfter: headers?.["retry-after"], startedAt,
    });
    if (!decision.retry) {
      if (policy.statusCodes.includes(statusCode)) trace.gaveUp = decision.reason;
      return callback(err);
    }
    // While we wait, undici holds the answer paused; aborting the call aborts it, and the wait is then dropped
    // without calling back, because undici has already reported the abort.
    policy.clock.sleep(decision.delayMs, signal).then(
      () => {
        if (signal?.aborted) return;
        trace.delaysMs.push(decision.delayMs);
        trace.attempts += 1;
        callback(null);
      },
      () => undefined,
    );
  };
}
